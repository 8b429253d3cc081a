// These WalletConnect journeys are EVM's: they run the demo as an EVM-only site (?families=eip155); the Solana side of a
// session is in solana.spec.ts.
import AxeBuilder from '@axe-core/playwright'
import { createPublicClient, erc20Abi, http, keccak256, parseEther, stringToHex, verifyMessage, type Hex } from 'viem'
import type { Page } from '@playwright/test'
import { createNodeWallet, type NodeWallet } from '../../services/relay/testing/createNodeWallet'
import type { StackManifest } from '../../services/stack/manifest'
import { expect, test } from '../fixtures'
import { confirmReview, reviewDialog } from './review'

// axe judges contrast as the page is at that moment: the modal's 160 ms fade-in, caught half-way on a loaded machine, read
// as a contrast failure. With reduced motion (which the widget honours) every view is checked as it rests.
test.use({ reducedMotion: 'reduce' })

/** The widget's short address (SPEC §5): 4 characters at the start, the 0x included, and 6 at the end. */
const shorten = (address: string) => `${address.slice(0, 4)}…${address.slice(-6)}`

let wallet: NodeWallet
test.beforeAll(async () => {
  const { readManifest } = await import('../../services/stack/manifest')
  const stack = readManifest()
  wallet = await createNodeWallet({ relayUrl: stack.services.relay, chains: stack.chains.map((c) => ({ chainId: c.chainId, rpcUrl: c.rpcUrl })), addressIndex: 7, name: 'Phone Wallet' })
})
test.afterAll(() => wallet.close())

/** Every host the page talks to, over HTTP and WebSocket. */
function recordHosts(page: Page) {
  const hosts = new Set<string>()
  page.on('request', (request) => void hosts.add(new URL(request.url()).host))
  page.on('websocket', (socket) => void hosts.add(new URL(socket.url()).host))
  return hosts
}

async function openWalletConnect(page: Page) {
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /^WalletConnect/ }).click()
  const dialog = page.getByRole('dialog', { name: 'WalletConnect' })
  await expect(dialog.getByRole('link', { name: 'Open in a wallet on this device' })).toBeVisible()
  return dialog
}
/** What a phone does with the QR code: the same URI the page shows, as the link for a wallet on this device. */
const pairingUri = async (dialog: ReturnType<Page['getByRole']>) => (await dialog.getByRole('link', { name: 'Open in a wallet on this device' }).getAttribute('href'))!

/** The analytics events the page sends to our data service (SPEC §7: POST /e). */
function recordEvents(page: Page) {
  const events: { event: string; properties?: Record<string, unknown> }[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/e') events.push((request.postDataJSON() as { props: (typeof events)[number] }).props)
  })
  return events
}

/** The hosts the site configured: its page, our services, its chains, and the secure frame of e-mail login (and the auth service it calls). */
const allowedHosts = (stack: StackManifest) =>
  new Set([stack.demo!.url, stack.services.api, stack.services.relay, ...stack.chains.map((c) => c.rpcUrl), ...(stack.auth ? [stack.auth.frameOrigin, stack.auth.url] : [])].map((u) => new URL(u).host))

test('a phone wallet pairs by QR code through our relay: sign in, send, reload, wallet-side disconnect; no other host is contacted', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const hosts = recordHosts(page)
  const events = recordEvents(page)
  const chain = stack.chains[0]!
  const recipient = stack.devAccounts[4]!
  const node = createPublicClient({ transport: http(chain.rpcUrl) })
  await page.goto(`${stack.demo!.url}/?siwx=required&families=eip155`)

  const dialog = await openWalletConnect(page)
  await expect(dialog.getByRole('img', { name: 'WalletConnect QR code' })).toBeVisible()
  expect(await pairingUri(dialog)).toMatch(/^wc:[0-9a-f]{64}@2\?/)
  await wallet.pair(await pairingUri(dialog))

  // Sign-in is required: the message goes to the phone and comes back signed.
  const signIn = page.getByRole('dialog', { name: 'Sign in' })
  await signIn.getByRole('button', { name: 'Sign' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  expect(wallet.requests.at(-1)?.method).toBe('personal_sign')
  await expect(page.getByRole('button', { name: new RegExp(shorten(wallet.address)) })).toBeVisible()
  await expect.poll(() => events.find((e) => e.event === 'CONNECT_SUCCESS')?.properties).toMatchObject({ method: 'qrcode', name: 'WalletConnect' })

  // A transaction signed on the phone lands on anvil.
  const before = await node.getBalance({ address: recipient })
  await page.getByRole('button', { name: new RegExp(shorten(wallet.address)) }).click()
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Send' }).click()
  const send = page.getByRole('dialog', { name: 'Send' })
  await send.getByRole('combobox', { name: /^Token/ }).click()
  await send.getByRole('option', { name: /^ETH/ }).click()
  await send.getByLabel('Amount').fill('0.25')
  await send.getByLabel('To (address or name)').fill(recipient)
  const answer = wallet.hold()
  await send.getByRole('button', { name: 'Send' }).click()
  // While the phone shows the prompt, the page shows what is being approved.
  const approve = page.getByRole('dialog', { name: 'Approve transaction' })
  await expect(approve.getByRole('status')).toHaveText('Waiting for your wallet…')
  await expect(approve.getByRole('definition')).toHaveText(['0.25 ETH', shorten(recipient), chain.name, /^\$\d+\.\d\d$/])
  const axe = await new AxeBuilder({ page }).analyze()
  expect(axe.violations.map((v) => v.id)).toEqual([])
  answer()
  await expect(page.getByRole('status').filter({ hasText: 'Transaction started' })).toBeVisible()
  expect(wallet.requests.at(-1)?.method).toBe('eth_sendTransaction')
  await expect.poll(() => node.getBalance({ address: recipient }), { timeout: 15_000 }).toBe(before + parseEther('0.25'))

  // The wallet approved both local chains: switching needs no round trip to the phone.
  const asked = wallet.requests.length
  const account = page.getByRole('dialog', { name: 'Account' })
  await expect(account.getByText('Connected with Phone Wallet')).toBeVisible()
  await account.getByRole('button', { name: `Network ${chain.name}`, exact: true }).click()
  await page.getByRole('dialog', { name: 'Choose Network' }).getByRole('button', { name: stack.chains[1]!.name, exact: true }).click()
  // The switch itself asks nothing of the phone; sign-in is per chain and required, so the new chain asks to sign.
  const signIn2 = page.getByRole('dialog', { name: 'Sign in' })
  await expect(signIn2).toBeVisible()
  expect(wallet.requests.length).toBe(asked)
  await signIn2.getByRole('button', { name: 'Sign' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  expect(wallet.requests.slice(asked).map((r) => r.method)).toEqual(['personal_sign'])

  // The session survives a reload, on the second chain and signed in there; the wallet ending it shows at once.
  await page.reload()
  const accountButton = page.getByRole('button', { name: new RegExp(shorten(wallet.address)) })
  await expect(accountButton).toBeVisible()
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toHaveCount(0)
  await accountButton.click()
  await expect(page.getByRole('dialog', { name: 'Account' })).toBeVisible()
  await wallet.disconnectAll()
  await expect(page.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('button', { name: 'Connect Wallet' })).toBeVisible()
  await expect(accountButton).toHaveCount(0)

  expect([...hosts].filter((host) => !allowedHosts(stack).has(host))).toEqual([])
})

test('an expired pairing gives way to a fresh QR code, which pairs', async ({ page, stack }) => {
  await page.clock.install()
  await page.goto(`${stack.demo!.url}/?families=eip155`)
  const dialog = await openWalletConnect(page)
  const first = await pairingUri(dialog)
  // 4 minutes, expired at 10 s left (SPEC §4)
  await page.clock.fastForward('03:49')
  expect(await pairingUri(dialog)).toBe(first)
  await page.clock.fastForward('00:02')
  await expect.poll(() => pairingUri(dialog).catch(() => first)).not.toBe(first)
  await wallet.pair(await pairingUri(dialog))
  await page.getByRole('button', { name: new RegExp(shorten(wallet.address)) }).click()
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Disconnect' }).click()
  await expect.poll(() => wallet.sessions().length).toBe(0)
})

test('a wallet from the registry: its deep link carries the pairing, declining says so, and success remembers the wallet and the link', async ({ page, stack }) => {
  const events = recordEvents(page)
  await page.goto(`${stack.demo!.url}/?families=eip155`)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  // SPEC §9 order: WalletConnect, recent, installed, featured (the demo features the mobile wallet), recommended.
  const connectList = page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('list', { name: 'Connect Wallet' }).getByRole('listitem')
  await expect(connectList).toHaveText([/^WalletConnect/, /^Tessera Dev Wallet/, 'Sample Mobile Wallet', 'Sample Browser Wallet'])
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: 'All wallets' }).click()
  await page.getByRole('dialog', { name: 'All Wallets' }).getByRole('button', { name: 'Sample Mobile Wallet' }).click()
  const dialog = page.getByRole('dialog', { name: 'Sample Mobile Wallet', exact: true })
  const open = dialog.getByRole('link', { name: 'Open Sample Mobile Wallet' })
  const href = (await open.getAttribute('href'))!
  expect(href).toMatch(/^samplewallet:\/\/wc\?uri=wc%3A[0-9a-f]{64}%402%3F/)

  wallet.declineNextProposal()
  await wallet.pair(decodeURIComponent(href.split('uri=')[1]!))
  await expect(dialog.getByRole('alert')).toHaveText('Connection declined')
  await dialog.getByRole('button', { name: 'Try again' }).click()

  const fresh = (await dialog.getByRole('link', { name: 'Open Sample Mobile Wallet' }).getAttribute('href'))!
  expect(fresh).not.toBe(href)
  // The visitor follows the deep link; the phone's OS would open the wallet app (here nothing handles the scheme).
  await page.evaluate(() => document.addEventListener('click', (event) => event.preventDefault(), { capture: true }))
  await dialog.getByRole('link', { name: 'Open Sample Mobile Wallet' }).click()
  await wallet.pair(decodeURIComponent(fresh.split('uri=')[1]!))
  await page.getByRole('button', { name: new RegExp(shorten(wallet.address)) }).click()
  const stored = await page.evaluate(() => ({ deepLink: localStorage.getItem('tessera:v1:deepLinkChoice'), recent: localStorage.getItem('tessera:v1:recentWallets') }))
  expect(JSON.parse(stored.deepLink!)).toMatchObject({ name: 'Sample Mobile Wallet', href: 'samplewallet://' })
  expect(JSON.parse(stored.recent!)).toMatchObject([{ id: 'sample-mobile-wallet', name: 'Sample Mobile Wallet' }])
  await expect.poll(() => events.find((e) => e.event === 'CONNECT_SUCCESS')?.properties).toMatchObject({ method: 'mobile', name: 'Sample Mobile Wallet' })
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Disconnect' }).click()
  await expect.poll(() => wallet.sessions().length).toBe(0)
  await expect(connectList).toHaveText([/^WalletConnect/, 'Sample Mobile WalletRecent', /^Tessera Dev Wallet/, 'Sample Browser Wallet'])
})

test('closing the modal drops the pairing on a desktop browser', async ({ page, stack }) => {
  await page.goto(`${stack.demo!.url}/?families=eip155`)
  const first = await pairingUri(await openWalletConnect(page))
  await page.keyboard.press('Escape')
  expect(await pairingUri(await openWalletConnect(page))).not.toBe(first)
})

test.describe('on Safari for iOS', () => {
  test.use({ userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1' })
  test('the pairing is kept across closing the modal until it expires (the visitor went to the wallet app)', async ({ page, stack }) => {
    await page.goto(`${stack.demo!.url}/?families=eip155`)
    const first = await pairingUri(await openWalletConnect(page))
    await page.keyboard.press('Escape')
    expect(await pairingUri(await openWalletConnect(page))).toBe(first)
  })

  test('a registry wallet opens by its deep link, with no QR code to scan on the phone itself', async ({ page, stack }) => {
    await page.goto(`${stack.demo!.url}/?families=eip155`)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: 'Sample Mobile Wallet' }).click()
    const dialog = page.getByRole('dialog', { name: 'Sample Mobile Wallet', exact: true })
    await expect(dialog.getByRole('link', { name: 'Open Sample Mobile Wallet' })).toHaveAttribute('href', /^samplewallet:\/\/wc\?uri=wc%3A/)
    await expect(dialog.getByRole('button', { name: 'Copy link' })).toBeVisible()
    await expect(dialog.getByRole('img', { name: 'WalletConnect QR code' })).toHaveCount(0)
  })
})

test('a phone wallet swaps through our relay: the swap is signed on the phone and the account receives the TUSD', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const chain = stack.chains[0]!
  const tusd = chain.tokens.find((t) => t.symbol === 'TUSD')!.address
  const node = createPublicClient({ transport: http(chain.rpcUrl) })
  const tusdOf = () => node.readContract({ address: tusd, abi: erc20Abi, functionName: 'balanceOf', args: [wallet.address] })
  await page.goto(`${stack.demo!.url}/?families=eip155`)
  const dialog = await openWalletConnect(page)
  await wallet.pair(await pairingUri(dialog))
  const accountButton = page.getByRole('button', { name: new RegExp(shorten(wallet.address)) })
  await expect(accountButton).toBeVisible()
  const account = page.getByRole('dialog', { name: 'Account' })
  if (!(await account.isVisible())) await accountButton.click()
  await account.getByRole('button', { name: 'Swap' }).click()
  const swap = page.getByRole('dialog', { name: 'Swap' })
  await swap.getByLabel('Amount').fill('0.05')
  await expect(swap.getByLabel('What this swap does')).toContainText('Uniswap V2, block')
  const before = await tusdOf()
  const asked = wallet.requests.length
  await swap.getByRole('button', { name: 'Swap', exact: true }).click()
  // The review first: the phone is asked nothing until the visitor continues.
  await expect(reviewDialog(page).getByRole('button', { name: 'Continue in wallet' })).toBeEnabled({ timeout: 30_000 })
  await expect(reviewDialog(page).getByTestId('balance-changes')).toContainText('TUSD')
  expect(wallet.requests.slice(asked).map((r) => r.method)).not.toContain('eth_sendTransaction')
  await confirmReview(page)
  await expect(page.getByRole('status').filter({ hasText: 'Transaction confirmed' })).toBeVisible({ timeout: 30_000 })
  expect(wallet.requests.at(-1)?.method).toBe('eth_sendTransaction')
  expect((await tusdOf()) - before).toBeGreaterThan(140_000_000n)
})

test('a site asks a phone wallet to sign a message: its text is reviewed first, the phone asked only after Continue, and the signature is its own', async ({ page, stack }) => {
  await page.goto(`${stack.demo!.url}/?families=eip155`)
  await page.waitForFunction(() => 'provider' in window)
  const dialog = await openWalletConnect(page)
  await wallet.pair(await pairingUri(dialog))
  await expect(page.getByRole('button', { name: new RegExp(shorten(wallet.address)) })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog')).toHaveCount(0)

  const message = 'Order #8812: deliver to the address on file.'
  const asked = wallet.requests.length
  type ProviderWindow = { provider: { request: (args: { method: string; params: unknown[] }) => Promise<Hex> } }
  const signing = page.evaluate(([data, address]) => (window as unknown as ProviderWindow).provider.request({ method: 'personal_sign', params: [data, address] }), [stringToHex(message), wallet.address] as const)
  await expect(reviewDialog(page).getByLabel('Message', { exact: true })).toHaveText(message)
  expect(wallet.requests.slice(asked).map((r) => r.method)).toEqual([])
  await confirmReview(page)
  const signature = await signing
  expect(wallet.requests.slice(asked).map((r) => r.method)).toEqual(['personal_sign'])
  expect(await verifyMessage({ address: wallet.address, message, signature })).toBe(true)

  // A method the wallet did not approve for the session is refused at once: no review of what could not be signed, and
  // the phone is not asked.
  type RefusingWindow = { provider: { request: (args: { method: string; params: unknown[] }) => Promise<unknown> } }
  const refused = await page.evaluate(
    ([data, address]) => (window as unknown as RefusingWindow).provider.request({ method: 'eth_sign', params: [address, data] }).then(() => 'signed', (error: { code: number; message: string }) => ({ code: error.code, message: error.message })),
    [keccak256(stringToHex(message)), wallet.address] as const,
  )
  expect(refused).toEqual({ code: 4200, message: 'The Provider does not support the requested method.' })
  await expect(reviewDialog(page)).toHaveCount(0)
  expect(wallet.requests.slice(asked).map((r) => r.method)).toEqual(['personal_sign'])
})
