import { expect, test } from '../fixtures'

test('the modal’s CSS is parsed once per page, ahead of the first open, and every open shows the dialog styled with it', async ({ page, stack }) => {
  // Each parse of the modal's CSS into a constructed sheet, and whether a dialog was open then.
  await page.addInitScript(() => {
    const parses: { whileOpen: boolean }[] = []
    Object.assign(window, { modalCssParses: parses })
    const replaceSync = CSSStyleSheet.prototype.replaceSync
    CSSStyleSheet.prototype.replaceSync = function (text: string) {
      if (text.includes('.dialog')) {
        const isOpen = [...document.querySelectorAll('[data-tessera]')].some((host) => host.shadowRoot?.querySelector('[role="dialog"]'))
        parses.push({ whileOpen: isOpen })
      }
      return replaceSync.call(this, text)
    }
  })
  await page.goto(`${stack.harness!.url}/ui.html`)
  const parses = () => page.evaluate(() => (window as unknown as { modalCssParses: { whileOpen: boolean }[] }).modalCssParses)
  // On idle, once the widget has started: the modal's code and its CSS, before anyone clicks.
  await expect.poll(parses, { timeout: 20_000 }).toEqual([{ whileOpen: false }])

  const button = page.getByRole('button', { name: 'Connect Wallet' })
  for (let open = 0; open < 2; open++) {
    await button.click()
    const dialog = page.getByRole('dialog', { name: 'Connect Wallet' })
    await expect(dialog).toBeVisible()
    // Styled by the modal's sheet (a card with rounded corners over a fixed overlay), not the browser's defaults.
    expect(await dialog.evaluate((d) => ({ radius: getComputedStyle(d).borderTopLeftRadius, overlay: getComputedStyle(d.parentElement!).position }))).toEqual({ radius: expect.stringMatching(/^[1-9]\d*px$/), overlay: 'fixed' })
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)
  }
  expect(await parses()).toEqual([{ whileOpen: false }])
})

test('the fonts of the modal’s first view are looked up ahead of the first open: its every text style is laid out, out of sight, before the click', async ({ page, stack }) => {
  /** The weight, size and family of each element with text of its own, under `root`. */
  const textFonts = (root: ParentNode) =>
    [...root.querySelectorAll('*')]
      .filter((element) => [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== ''))
      .map((element) => {
        const style = getComputedStyle(element)
        return `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
      })
  await page.addInitScript((textFontsSource) => {
    const warmed: { fonts: string[]; isConnected: boolean; visibility: string }[] = []
    Object.assign(window, { warmedFonts: warmed })
    const fontsOf = new Function(`return (${textFontsSource})`)() as (root: ParentNode) => string[]
    const getBoundingClientRect = Element.prototype.getBoundingClientRect
    Element.prototype.getBoundingClientRect = function () {
      if (this.hasAttribute('data-tessera-font-warm') && this.shadowRoot) warmed.push({ fonts: fontsOf(this.shadowRoot), isConnected: this.isConnected, visibility: getComputedStyle(this).visibility })
      return getBoundingClientRect.call(this)
    }
  }, textFonts.toString())
  await page.goto(`${stack.harness!.url}/ui.html`)
  const warmed = () => page.evaluate(() => (window as unknown as { warmedFonts: { fonts: string[]; isConnected: boolean; visibility: string }[] }).warmedFonts)
  await expect.poll(async () => (await warmed()).length, { timeout: 20_000 }).toBe(1)
  const [sample] = await warmed()
  expect(sample).toMatchObject({ isConnected: true, visibility: 'hidden' })
  // Taken away at once: nothing of it is left in the page.
  expect(await page.locator('[data-tessera-font-warm]').count()).toBe(0)

  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const dialog = page.getByRole('dialog', { name: 'Connect Wallet' })
  await expect(dialog.getByRole('listitem').first()).toBeVisible()
  const shown = await dialog.evaluate(textFonts)
  expect(shown.length).toBeGreaterThan(2)
  expect([...new Set(shown)].filter((font) => !sample!.fonts.includes(font))).toEqual([])
  // Once per page: a second open warms nothing again.
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await expect(dialog).toBeVisible()
  expect(await warmed()).toHaveLength(1)
})
