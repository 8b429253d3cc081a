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
