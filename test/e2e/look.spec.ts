import type { Locator, Page } from '@playwright/test'
import { expect, test } from '../fixtures'
import type { StackManifest } from '../../services/stack/manifest'

type DevWallet = {
  hold: () => () => void
  rejectNext: (method: string) => void
  switchAccount: (address: string) => void
  provider: { request: (a: { method: string; params?: unknown[] }) => Promise<unknown> }
}
type TestWindow = { devWallet: DevWallet; release: () => void; widget: { setThemeMode: (m: string) => void; whenStarted: () => Promise<void>; open: (o?: unknown) => void; router: { push: (view: string, data: unknown) => void } } }

const THEMES = ['dark', 'light'] as const

async function openDemo(page: Page, stack: StackManifest, { query = '', themeMode = 'dark' }: { query?: string; themeMode?: 'dark' | 'light' } = {}) {
  await page.goto(`${stack.demo!.url}/${query}`)
  await page.evaluate((mode) => (window as unknown as TestWindow).widget.setThemeMode(mode), themeMode)
  // What the tests drive through `window.widget` (router pushes, views opened by hand) needs the started widget.
  await page.evaluate(() => (window as unknown as TestWindow).widget.whenStarted())
}
const holdWallet = (page: Page) => page.evaluate(() => void ((window as unknown as TestWindow).release = (window as unknown as TestWindow).devWallet.hold()))
const releaseWallet = (page: Page) => page.evaluate(() => (window as unknown as TestWindow).release())

async function connectDevWallet(page: Page) {
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
}
/** The page's account button: its accessible name ends with the short address (SPEC §5). */
const accountButton = (page: Page) => page.getByRole('button', { name: /0xf3…b92266$/ })

/** Every image in `scope` has loaded (no broken image anywhere). */
async function expectImagesLoaded(scope: Locator) {
  await expect
    .poll(() => scope.evaluate((root) => [...root.querySelectorAll('img')].filter((img) => !img.complete || img.naturalWidth === 0).map((img) => img.src.slice(0, 80))))
    .toEqual([])
}

/** WCAG relative luminance and contrast of two computed `rgb(…)` colours. */
const luminance = (rgb: string) => {
  const [r, g, b] = rgb.match(/[\d.]+/g)!.slice(0, 3).map((v) => {
    const c = Number(v) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}
const contrast = (a: string, b: string) => {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (high + 0.05) / (low + 0.05)
}

/** The element focused now, looking into the widget's shadow roots, with the styles that draw its focus ring. */
const focusedRing = (page: Page) =>
  page.evaluate(() => {
    let element = document.activeElement
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement
    if (!element) return undefined
    const style = getComputedStyle(element)
    const dialog = element.closest('.dialog')
    return {
      name: element.getAttribute('aria-label') ?? element.textContent,
      isFocusVisible: element.matches(':focus-visible'),
      outlineStyle: style.outlineStyle,
      outlineWidth: Number.parseFloat(style.outlineWidth),
      outlineColor: style.outlineColor,
      innerRing: style.boxShadow,
      dialogBackground: dialog ? getComputedStyle(dialog).backgroundColor : undefined,
    }
  })

/** How far the centre of `button`'s contents is from its own centre, in px (0 for a centred label). */
const labelOffCentre = (button: Locator) =>
  button.evaluate((element) => {
    const range = element.ownerDocument.createRange()
    range.selectNodeContents(element)
    const content = range.getBoundingClientRect()
    const box = element.getBoundingClientRect()
    return Math.abs(content.left + content.width / 2 - (box.left + box.width / 2))
  })

const hasNoHorizontalScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)

test.describe('the look', () => {
  test('after a successful connection the modal closes; the account button shows the avatar, the short address and (on wide screens) the balance', async ({ page, stack }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await openDemo(page, stack)
    await connectDevWallet(page)
    await expect(page.getByRole('dialog')).toHaveCount(0)
    const button = accountButton(page)
    await expect(button).toBeVisible()
    await expect(button.locator('.avatar')).toBeVisible()
    await expect(button.locator('.account-name')).toHaveText('0xf3…b92266')
    await expect(button.locator('.account-balance')).toHaveText(/^[\d,]+\.\d{3} ETH$/)
    await expect(button.locator('.account-balance')).toHaveCSS('font-variant-numeric', /tabular-nums/)

    // On a phone the balance goes; the account stays.
    await page.setViewportSize({ width: 375, height: 740 })
    await expect(button.locator('.account-balance')).toBeHidden()
    await expect(button.locator('.avatar')).toBeVisible()
    await expect(button).toHaveAccessibleName(/0xf3…b92266$/)

    await button.click()
    await expect(page.getByRole('dialog', { name: 'Account' })).toBeVisible()
  })

  test('with sign-in, connecting goes on to the sign-in view instead of closing', async ({ page, stack }) => {
    await openDemo(page, stack, { query: '?siwx=required' })
    await connectDevWallet(page)
    await expect(page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Sign' })).toBeVisible()
  })

  test('an account with a name shows it, with its identity image, on the account button and in Account', async ({ page, stack }) => {
    test.setTimeout(60_000)
    const { mnemonicToAccount } = await import('viem/accounts')
    const { ANVIL_MNEMONIC } = await import('../../services/relay/testing/createNodeWallet')
    const owner = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 12 })
    const avatar = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
    const name = `look-${Date.now().toString(36)}.tessera.id`
    const message = JSON.stringify({ name, attributes: { avatar }, timestamp: Math.floor(Date.now() / 1000), coinType: 60 })
    const registered = await fetch(`${stack.services.api}/v1/profile/account?projectId=${stack.services.projectId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ coin_type: 60, address: owner.address, message, signature: await owner.signMessage({ message }) }),
    })
    expect(registered.status).toBe(200)

    await openDemo(page, stack)
    await connectDevWallet(page)
    await expect(accountButton(page)).toBeVisible()
    await page.evaluate((address) => (window as unknown as TestWindow).devWallet.switchAccount(address), owner.address)
    const short = `${owner.address.slice(0, 4)}…${owner.address.slice(-6)}`
    const button = page.getByRole('button', { name: new RegExp(`${name.replace(/\./g, '\\.')} ${short}$`) })
    await expect(button.locator('.account-name')).toHaveText(name)
    await expect(button.locator('img.avatar')).toHaveAttribute('src', avatar)
    await button.click()
    const account = page.getByRole('dialog', { name: 'Account' })
    await expect(account.getByText(name, { exact: true })).toBeVisible()
    await expect(account.getByText(short, { exact: true })).toBeVisible()
  })

  for (const themeMode of THEMES) {
    test(`network icons in the network button, Networks (the current one checked) and Account, and rows with icons, in ${themeMode} mode`, async ({ page, stack }) => {
      await openDemo(page, stack, { themeMode })
      const networkButton = page.getByRole('button', { name: stack.chains[0]!.name, exact: true })
      await expect(networkButton.locator('.token-icon')).toBeVisible()
      await expectImagesLoaded(networkButton)

      await connectDevWallet(page)
      await accountButton(page).click()
      const account = page.getByRole('dialog', { name: 'Account' })
      await expect(account.getByLabel('Balance')).toHaveCSS('font-variant-numeric', /tabular-nums/)
      // The wallet that connected, with its logo.
      await expect(account.locator('.wallet-line img.wallet-icon')).toBeVisible()
      // What moves money first, as round buttons in one line; rows for the rest; the foot's buttons side by side. Each has its icon.
      const quickActions = account.locator('.quick-actions > button')
      await expect(quickActions).toHaveText(['Buy', 'Swap', 'Send', 'Receive'])
      // One read of every box: the view may still be settling (a balance, the modal's height), so boxes read one by one could differ.
      const tops = await quickActions.evaluateAll((actions) => actions.map((action) => action.getBoundingClientRect().top))
      expect(new Set(tops).size).toBe(1)
      await expect(account.locator('.actions > .item')).toHaveText([/^Network/, 'Tokens', 'Activity', 'Register a name'])
      await expect(account.locator('.account-footer > .item')).toHaveText(['Copy address', 'Disconnect'])
      const rows = account.locator(':is(.quick-actions, .actions, .account-footer) > :is(button, a)')
      await expect(rows).toHaveCount(10)
      for (const row of await rows.all()) await expect(row.locator('> .row-icon > :is(svg, img, span)')).toHaveCount(1)
      await expect(account.getByRole('button', { name: `Network ${stack.chains[0]!.name}`, exact: true }).locator('.row-icon .token-icon')).toBeVisible()
      await expectImagesLoaded(account)

      await account.getByRole('button', { name: `Network ${stack.chains[0]!.name}`, exact: true }).click()
      const networks = page.getByRole('dialog', { name: 'Choose Network' }).getByRole('list', { name: 'Choose Network' })
      const current = networks.getByRole('button', { name: new RegExp(`^${stack.chains[0]!.name} EVM`) })
      await expect(current).toHaveAttribute('aria-current', 'true')
      await expect(current.locator('.current-mark svg')).toBeVisible()
      // One current network, checked; the others are not.
      await expect(networks.locator('button[aria-current]')).toHaveCount(1)
      await expect(networks.locator('.current-mark')).toHaveCount(1)
      await expect(networks.getByRole('button')).toHaveCount(await networks.getByRole('listitem').count())
      for (const row of await networks.getByRole('button').all()) await expect(row.locator('.token-icon')).toBeVisible()
      await expectImagesLoaded(networks)
    })
  }

  test('each social login on Connect shows its own brand mark, in the colour of the rows’ icons: the first as a row, the others as one line of marks', async ({ page, stack }) => {
    await openDemo(page, stack)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    const socials = page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /^Continue with / })
    await expect(socials.first()).toBeVisible()
    const marks: string[] = []
    for (const social of await socials.all()) {
      const mark = social.locator('> .row-icon > svg > path')
      await expect(mark).toHaveAttribute('d', /^M/)
      marks.push((await mark.getAttribute('d'))!)
      // currentColor: the icon place's muted colour, on either theme, as every row's icon.
      expect(await mark.evaluate((path) => getComputedStyle(path).fill)).toBe(await social.locator('> .row-icon').evaluate((icon) => getComputedStyle(icon).color))
    }
    expect(marks.length).toBeGreaterThan(2)
    expect(new Set(marks).size).toBe(marks.length)
    // The first a row with its words; the others one line of marks, as AppKit shows them, each named in full and in its tooltip.
    const boxes = await socials.evaluateAll((buttons) => buttons.map((button) => ({ top: button.getBoundingClientRect().top, width: button.getBoundingClientRect().width })))
    expect(new Set(boxes.slice(1).map((box) => box.top)).size).toBe(1)
    expect(boxes[0]!.width).toBeGreaterThan(boxes[1]!.width * 3)
    await expect(socials.first().locator('.row-label')).toHaveText(/^Continue with /)
    for (const social of (await socials.all()).slice(1)) expect(await social.getAttribute('title')).toBe(await social.getAttribute('aria-label'))
    // A mark has no words to change while its login window is open: the line under the marks says where to go on.
    const provider = (await socials.nth(1).getAttribute('aria-label'))!.replace(/^Continue with /, '')
    const popupOpened = page.waitForEvent('popup')
    await socials.nth(1).click()
    const popup = await popupOpened
    await expect(page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('status')).toHaveText(`Continue in the ${provider} window…`)
    await popup.close()
  })

  test("a network without an image of its own gets the data service's icon, and a badge when that fails: never a broken image", async ({ page, stack }) => {
    const [first, second] = stack.chains
    // Only the first chain is requested: when the wallet moves to the second, it is the "Unknown Network", with no assets.
    await openDemo(page, stack, { query: `?chains=${first!.chainId}` })
    await connectDevWallet(page)
    await expect(accountButton(page)).toBeVisible()
    await page.evaluate((id) => (window as unknown as TestWindow).devWallet.provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: `0x${id.toString(16)}` }] }), second!.chainId)
    await expect(page.getByRole('dialog', { name: 'Switch Network' })).toBeVisible()
    const networkButton = page.getByRole('button', { name: 'Unknown Network', exact: true })
    const icon = networkButton.locator('img.token-icon')
    await expect(icon).toHaveAttribute('src', new RegExp(`^${stack.services.api}/v1/assets/networks/eip155:${second!.chainId}\\?projectId=`))
    await expectImagesLoaded(networkButton)

    // The data service cannot answer: the icon becomes a badge of the network's initials.
    await page.context().route(/\/v1\/assets\/networks\//, (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{}' }))
    await page.reload()
    await expect(networkButton.locator('.token-icon[data-generated]')).toHaveAttribute('data-letters', 'UN')
    await expect(networkButton).toHaveText('Unknown Network')
    await expect(networkButton.locator('img')).toHaveCount(0)
  })

  test('the data service serves an icon for every network of the local stack', async ({ page, stack }) => {
    const ids = [...stack.chains.map((c) => c.caipNetworkId), ...(stack.solana ? [stack.solana.caipNetworkId] : []), ...(stack.bitcoin ? [stack.bitcoin.caipNetworkId] : [])]
    await page.goto(stack.demo!.url)
    for (const id of ids) {
      const url = `${stack.services.api}/v1/assets/networks/${id}?projectId=${stack.services.projectId}`
      const response = await fetch(url)
      expect({ id, status: response.status, type: response.headers.get('content-type'), nosniff: response.headers.get('x-content-type-options') }).toEqual({ id, status: 200, type: 'image/svg+xml', nosniff: 'nosniff' })
      // …and a browser draws it.
      const width = await page.evaluate((src) => new Promise<number>((done) => Object.assign(new Image(), { src, onload: function (this: HTMLImageElement) { done(this.naturalWidth) }, onerror: () => done(0) })), url)
      expect(width, id).toBeGreaterThan(0)
    }
  })

  test('wallet logos where wallets appear; a logo that fails to load becomes a badge of its initials', async ({ page, stack }) => {
    // The registry's images are unreachable.
    await page.context().route(/\/getWalletImage\//, (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{}' }))
    await openDemo(page, stack)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    const connect = page.getByRole('dialog', { name: 'Connect Wallet' })
    const walletRows = connect.getByRole('list', { name: 'Connect Wallet' }).getByRole('listitem')
    await expect(walletRows.filter({ hasText: 'Sample Mobile Wallet' })).toBeVisible()
    for (const row of await walletRows.all()) await expect(row.locator('.wallet-icon')).toBeVisible()
    await expect(connect.getByRole('button', { name: /Tessera Dev Wallet/ }).locator('img.wallet-icon')).toBeVisible()
    await expect(connect.getByRole('button', { name: /Sample Mobile Wallet/ }).locator('.wallet-icon[data-generated]')).toHaveAttribute('data-letters', 'SM')
    // The badge's letters are drawn, not text: the row still reads as the wallet's name.
    await expect(connect.getByRole('list', { name: 'Connect Wallet' }).getByRole('listitem').filter({ hasText: 'Sample Mobile Wallet' })).toHaveText('Sample Mobile Wallet')
    await expectImagesLoaded(connect)

    await connect.getByRole('button', { name: 'All wallets' }).click()
    const all = page.getByRole('dialog', { name: 'All Wallets' }).getByRole('list', { name: 'All Wallets' })
    await expect(all.getByRole('listitem').filter({ hasText: 'Sample Browser Wallet' })).toBeVisible()
    for (const row of await all.getByRole('listitem').all()) await expect(row.locator('.wallet-icon')).toBeVisible()
    await expectImagesLoaded(all)
  })

  test("while connecting, the wallet's logo in a turning ring; still when motion is reduced; a refusal replaces the words with why, and Try again", async ({ page, stack }) => {
    await openDemo(page, stack)
    await holdWallet(page)
    await connectDevWallet(page)
    const connecting = page.getByRole('dialog', { name: 'Tessera Dev Wallet', exact: true })
    const spinner = connecting.locator('.wallet-spinner')
    await expect(spinner.locator('img.wallet-icon')).toBeVisible()
    await expectImagesLoaded(spinner)
    await expect(spinner).toHaveAttribute('data-state', 'waiting')
    await expect(spinner.locator('.wallet-spinner-arc')).toHaveCSS('animation-name', 'tsr-ring')
    await expect(connecting.getByRole('status')).toHaveText('Accept the connection request in Tessera Dev Wallet.')
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await expect(spinner.locator('.wallet-spinner-arc')).toHaveCSS('animation-name', 'none')
    await page.emulateMedia({ reducedMotion: 'no-preference' })

    // The visitor declines in the wallet.
    await page.evaluate(() => (window as unknown as TestWindow).devWallet.rejectNext('eth_requestAccounts'))
    await releaseWallet(page)
    await expect(connecting.getByRole('alert')).toHaveText('Connection declined')
    await expect(connecting.getByText('Accept the connection request in Tessera Dev Wallet.')).toHaveCount(0)
    await expect(spinner).toHaveAttribute('data-state', 'error')
    await expect(spinner.locator('.wallet-spinner-arc')).toHaveCSS('animation-name', 'none')
    const retry = connecting.getByRole('button', { name: 'Try again' })
    expect(await labelOffCentre(retry)).toBeLessThan(1.5)
    await retry.click()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await expect(accountButton(page)).toBeVisible()
  })

  test('button labels are centred, also in a stretched button', async ({ page, stack }) => {
    await openDemo(page, stack, { query: '?siwx=optional' })
    expect(await labelOffCentre(page.getByRole('button', { name: 'Connect Wallet' }))).toBeLessThan(1.5)
    await connectDevWallet(page)
    const signIn = page.getByRole('dialog', { name: 'Sign in' })
    for (const name of ['Sign', 'Cancel']) {
      const button = signIn.getByRole('button', { name, exact: true })
      const [buttonBox, dialogBox] = [await button.boundingBox(), await signIn.boundingBox()]
      expect(buttonBox!.width).toBeGreaterThan(dialogBox!.width / 2)
      expect(await labelOffCentre(button), name).toBeLessThan(1.5)
    }
  })

  for (const [locale, width] of [['en', 1280], ['en', 375], ['fr', 375]] as const) {
    test(`a long title stays on one line between the back and close buttons (${locale}, ${width} px)`, async ({ page, stack }) => {
      await page.setViewportSize({ width, height: 800 })
      await openDemo(page, stack, { query: `?locale=${locale}` })
      await page.evaluate(() => {
        const { widget } = window as unknown as TestWindow
        widget.open()
        widget.router.push('ConnectingExternal', { connectorId: 'none', name: 'A Wallet With A Remarkably Long Name For Its Own Good' })
      })
      const dialog = page.getByRole('dialog', { name: /A Wallet With A Remarkably Long Name For Its Own Good/ })
      await expect(dialog).toBeVisible()
      const layout = await dialog.evaluate((d) => {
        const rect = (selector: string) => d.querySelector(selector)!.getBoundingClientRect()
        const title = d.querySelector('h2')!
        return {
          back: rect('.header button:first-child'),
          close: rect('.header button:last-child'),
          title: title.getBoundingClientRect(),
          lineHeight: Number.parseFloat(getComputedStyle(title).lineHeight),
          isCut: title.scrollWidth > title.clientWidth,
          ellipsis: getComputedStyle(title).textOverflow,
        }
      })
      expect(layout.title.height).toBeLessThanOrEqual(layout.lineHeight + 1)
      expect(layout.title.left).toBeGreaterThanOrEqual(layout.back.right)
      expect(layout.title.right).toBeLessThanOrEqual(layout.close.left)
      expect(layout).toMatchObject({ isCut: true, ellipsis: 'ellipsis' })
    })
  }

  for (const themeMode of THEMES) {
    test(`keyboard focus shows a ring of 3:1 contrast or more, on the page and in the modal, in ${themeMode} mode`, async ({ page, stack }) => {
      await openDemo(page, stack, { themeMode })
      await expect(page.getByRole('button', { name: 'Connect Wallet' })).toBeVisible()
      // Tab to the page's Connect Wallet button, as a keyboard user does.
      for (let i = 0; i < 5 && (await focusedRing(page))?.name !== 'Connect Wallet'; i++) await page.keyboard.press('Tab')
      const onPage = (await focusedRing(page))!
      expect(onPage).toMatchObject({ name: 'Connect Wallet', isFocusVisible: true, outlineStyle: 'solid' })
      expect(onPage.outlineWidth).toBeGreaterThanOrEqual(2)
      // Whatever the page behind, the ring of the focus colour sits on a ring of the theme's background.
      expect(contrast(onPage.outlineColor, onPage.innerRing)).toBeGreaterThanOrEqual(3)

      await page.keyboard.press('Enter')
      await expect(page.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
      await page.keyboard.press('Tab')
      const inModal = (await focusedRing(page))!
      expect(inModal).toMatchObject({ isFocusVisible: true, outlineStyle: 'solid' })
      expect(inModal.outlineWidth).toBeGreaterThanOrEqual(2)
      expect(contrast(inModal.outlineColor, inModal.dialogBackground!)).toBeGreaterThanOrEqual(3)
    })
  }

  test('at 375 px the page and its buttons fit without scrolling sideways, and the modal is a bottom sheet the width of the screen', async ({ page, stack }) => {
    await page.setViewportSize({ width: 375, height: 740 })
    for (const locale of ['en', 'fr']) {
      await openDemo(page, stack, { query: `?locale=${locale}` })
      await expect(page.getByRole('button', { name: locale === 'fr' ? 'Connecter un portefeuille' : 'Connect Wallet' })).toBeVisible()
      expect(await hasNoHorizontalScroll(page), `${locale}, disconnected`).toBe(true)
    }
    await openDemo(page, stack)
    await connectDevWallet(page)
    await expect(accountButton(page)).toBeVisible()
    expect(await hasNoHorizontalScroll(page), 'connected').toBe(true)
    for (const button of [page.getByRole('button', { name: stack.chains[0]!.name, exact: true }), accountButton(page)]) {
      const box = (await button.boundingBox())!
      expect(box.x).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width).toBeLessThanOrEqual(375)
    }

    await accountButton(page).click()
    const account = page.getByRole('dialog', { name: 'Account' })
    await expect(account).toBeVisible()
    // Measured once its entrance has played.
    await account.evaluate((d) => Promise.all(d.getAnimations().map((animation) => animation.finished)))
    const sheet = await account.evaluate((d) => ({ ...d.getBoundingClientRect().toJSON(), scrollWidth: d.scrollWidth, clientWidth: d.clientWidth, innerWidth, innerHeight }))
    expect(sheet.x).toBe(0)
    expect(sheet.width).toBe(375)
    expect(Math.round(sheet.bottom)).toBe(sheet.innerHeight)
    expect(sheet.scrollWidth).toBeLessThanOrEqual(sheet.clientWidth)
    expect(await hasNoHorizontalScroll(page), 'with the modal open').toBe(true)
  })
})
