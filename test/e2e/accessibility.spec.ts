import AxeBuilder from '@axe-core/playwright'
import type { Page, TestInfo } from '@playwright/test'
import { expect, test } from '../fixtures'

// axe judges contrast as the page is at that moment: the modal's 160 ms fade-in, caught half-way on a loaded machine, read
// as a contrast failure. With reduced motion (which the widget honours) every view is checked as it rests.
test.use({ reducedMotion: 'reduce' })

async function expectNoViolations(page: Page, name: string) {
  const results = await new AxeBuilder({ page }).analyze()
  const violations = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  expect(violations, name).toEqual([])
}

// Each journey runs axe several times (about 1–2 s each on a loaded 2-core machine): they are split so none runs near
// its timeout, and each has room of its own.
const JOURNEY_TIMEOUT_MS = 60_000

async function openThemed(page: Page, url: string, themeMode: 'dark' | 'light') {
  await page.goto(url)
  await page.evaluate((mode) => (window as unknown as { widget: { setThemeMode: (m: string) => void } }).widget.setThemeMode(mode), themeMode)
}

/** Checks a view with axe, then saves its screenshot. */
const shooter = (page: Page, testInfo: TestInfo, themeMode: 'dark' | 'light') => async (view: string) => {
  await expectNoViolations(page, `${view} (${themeMode})`)
  await page.screenshot({ path: testInfo.outputPath(`${view}-${themeMode}.png`) })
}

for (const themeMode of ['dark', 'light'] as const) {

  test(`the page and the views before connecting pass axe in ${themeMode} mode, and are saved as screenshots`, async ({ page, stack }, testInfo) => {
    test.setTimeout(JOURNEY_TIMEOUT_MS)
    const shoot = shooter(page, testInfo, themeMode)
    await openThemed(page, stack.demo!.url, themeMode)
    await expectNoViolations(page, `page (${themeMode})`)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await expect(page.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    await shoot('Connect')
    await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /^WalletConnect/ }).click()
    await expect(page.getByRole('dialog', { name: 'WalletConnect' }).getByRole('img', { name: 'WalletConnect QR code' })).toBeVisible()
    await shoot('ConnectingWalletConnectBasic')
    await page.getByRole('dialog', { name: 'WalletConnect' }).getByRole('button', { name: 'Back' }).click()
    await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: 'All wallets' }).click()
    await expect(page.getByRole('dialog', { name: 'All Wallets' }).getByRole('list', { name: 'All Wallets' }).getByRole('listitem')).toHaveCount(3)
    await shoot('AllWallets')
    await page.getByRole('dialog', { name: 'All Wallets' }).getByRole('button', { name: 'Sample Mobile Wallet' }).click()
    const perWallet = page.getByRole('dialog', { name: 'Sample Mobile Wallet', exact: true })
    await expect(perWallet.getByRole('link', { name: 'Open Sample Mobile Wallet' })).toBeVisible()
    await shoot('ConnectingWalletConnect')
  })

  test(`Account and the views it opens pass axe in ${themeMode} mode, and are saved as screenshots`, async ({ page, stack }, testInfo) => {
    test.setTimeout(JOURNEY_TIMEOUT_MS)
    const shoot = shooter(page, testInfo, themeMode)
    await openThemed(page, stack.demo!.url, themeMode)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
    await page.getByRole('button', { name: /0xf3…b92266$/ }).click()
    const account = page.getByRole('dialog', { name: 'Account' })
    await expect(account).toBeVisible()
    await shoot('Account')
    for (const [button, title] of [['Network Tessera Local', 'Choose Network'], ['Tokens', 'Tokens'], ['Send', 'Send'], ['Activity', 'Activity'], ['Receive', 'Receive'], ['Register a name', 'Choose a name']] as const) {
      await account.getByRole('button', { name: button }).click()
      await expect(page.getByRole('dialog', { name: title })).toBeVisible()
      await shoot(title.replace(/ /g, ''))
      await page.getByRole('dialog', { name: title }).getByRole('button', { name: 'Back' }).click()
    }
    // Swap, with its quote.
    await account.getByRole('button', { name: 'Swap' }).click()
    const swap = page.getByRole('dialog', { name: 'Swap' })
    await swap.getByLabel('Amount').fill('0.1')
    await expect(swap.getByLabel('What this swap does')).toBeVisible()
    await shoot('Swap')
  })
}

for (const themeMode of ['dark', 'light'] as const) {
  test(`a Solana account, the family switch and the two-family network list pass axe in ${themeMode} mode, and are saved as screenshots`, async ({ page, stack }, testInfo) => {
    test.setTimeout(JOURNEY_TIMEOUT_MS)
    const shoot = shooter(page, testInfo, themeMode)
    await openThemed(page, stack.demo!.url, themeMode)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    const connect = page.getByRole('dialog', { name: 'Connect Wallet' })
    await expect(connect.getByRole('button', { name: /Tessera Dev Solana Wallet/ })).toBeVisible()
    await shoot('Connect-two-families')
    await connect.getByRole('button', { name: /Tessera Dev Solana Wallet/ }).click()
    await page.getByRole('button', { name: new RegExp(`${stack.solana!.devAccounts[0]!.slice(-6)}$`) }).click()
    const account = page.getByRole('dialog', { name: 'Account' })
    await expect(account.getByRole('button', { name: 'Network Solana Local' })).toBeVisible()
    await shoot('Account-solana')
    await account.getByRole('button', { name: 'Network Solana Local' }).click()
    await expect(page.getByRole('dialog', { name: 'Choose Network' }).getByRole('button', { name: /^Solana Local Solana/ })).toBeVisible()
    await shoot('Networks-two-families')
    await page.getByRole('dialog', { name: 'Choose Network' }).getByRole('button', { name: /^Tessera Local EVM/ }).click()
    await connect.getByRole('button', { name: /Tessera Dev Wallet/ }).click()
    await page.getByRole('button', { name: /0xf3…b92266$/ }).click()
    await expect(account.getByRole('button', { name: /^Switch to Solana/ })).toBeVisible()
    await shoot('Account-two-families')
  })
}

type DevWallet = { hold: () => () => void; provider: { request: (a: { method: string; params?: unknown[] }) => Promise<unknown> } }
const holdWallet = (page: Page) => page.evaluate(() => void ((window as unknown as { release: () => void }).release = (window as unknown as { devWallet: DevWallet }).devWallet.hold()))
const releaseWallet = (page: Page) => page.evaluate(() => (window as unknown as { release: () => void }).release())

for (const themeMode of ['dark', 'light'] as const) {
  test(`the waiting, sign-in, success and unsupported-network views pass axe in ${themeMode} mode, and are saved as screenshots`, async ({ page, stack }, testInfo) => {
    test.setTimeout(JOURNEY_TIMEOUT_MS)
    const shoot = async (view: string) => {
      await expectNoViolations(page, `${view} (${themeMode})`)
      await page.screenshot({ path: testInfo.outputPath(`${view}-${themeMode}.png`) })
    }
    const setTheme = () => page.evaluate((mode) => (window as unknown as { widget: { setThemeMode: (m: string) => void } }).widget.setThemeMode(mode), themeMode)
    // Only the first chain requested: a wallet on the second one sees Switch Network.
    await page.goto(`${stack.demo!.url}/?siwx=required&chains=${stack.chains[0]!.chainId}`)
    await setTheme()
    await holdWallet(page)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
    await expect(page.getByRole('dialog', { name: 'Tessera Dev Wallet', exact: true })).toBeVisible()
    await shoot('ConnectingExternal')
    await releaseWallet(page)

    const signIn = page.getByRole('dialog', { name: 'Sign in' })
    await expect(signIn.getByRole('button', { name: 'Sign' })).toBeVisible()
    await shoot('SIWXSignMessage')
    await signIn.getByRole('button', { name: 'Sign' }).click()
    await expect(page.getByRole('dialog')).toHaveCount(0)

    await page.getByRole('button', { name: /0xf3…b92266/ }).click()
    const account = page.getByRole('dialog', { name: 'Account' })
    await account.getByRole('button', { name: 'Send' }).click()
    const send = page.getByRole('dialog', { name: 'Send' })
    await send.getByRole('combobox', { name: /^Token/ }).click()
    await send.getByRole('option', { name: /^ETH/ }).click()
    await send.getByLabel('Amount').fill('0.01')
    await send.getByLabel('To (address or name)').fill(stack.devAccounts[5]!)
    await holdWallet(page)
    await send.getByRole('button', { name: 'Send' }).click()
    await expect(page.getByRole('dialog', { name: 'Approve transaction' }).getByRole('status')).toBeVisible()
    await shoot('ApproveTransaction')
    await releaseWallet(page)
    await expect(account).toBeVisible()

    // Registering for real is actions.spec's; here the view is opened as a host can, with its data.
    await page.evaluate(() => (window as unknown as { widget: { open: (o: unknown) => void } }).widget.open({ view: 'RegisterAccountNameSuccess', data: { name: 'visitor.tessera.id' } }))
    await expect(page.getByRole('dialog', { name: 'Name registered' }).getByRole('status')).toBeVisible()
    await shoot('RegisterAccountNameSuccess')

    // The visitor switches the wallet to a chain the site did not ask for.
    await page.evaluate((id) => (window as unknown as { devWallet: DevWallet }).devWallet.provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: `0x${id.toString(16)}` }] }), stack.chains[1]!.chainId)
    await expect(page.getByRole('dialog', { name: 'Switch Network' })).toBeVisible()
    await shoot('UnsupportedChain')
  })
}

