import { createPublicClient, createTestClient, createWalletClient, erc20Abi, http, parseEther, parseUnits, type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import AxeBuilder from '@axe-core/playwright'
import type { Locator, Page } from '@playwright/test'
import { expect, test } from '../fixtures'
import type { StackChain, StackManifest } from '../../services/stack/manifest'

// axe judges contrast as the page is at that moment: the modal's 160 ms fade-in, caught half-way on a loaded machine, read
// as a contrast failure. With reduced motion (which the widget honours) every view is checked as it rests.
test.use({ reducedMotion: 'reduce' })

/** SPEC §5's shortened address: 4 characters at the start (0x included), 6 at the end. */
const short = (address: string) => `${address.slice(0, 4)}…${address.slice(-6)}`

type DemoNetwork = { caipNetworkId: string; name: string; explorer: { name: string; url: string } | null }

/** The demo's EVM networks as its widget has them, with their explorer when it configures one. */
const demoNetworks = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { widget: { getNetworks(): { chainNamespace: string; caipNetworkId: string; name: string; blockExplorers?: { default: { name: string; url: string } } }[] } }).widget
      .getNetworks()
      .filter((n) => n.chainNamespace === 'eip155')
      .map((n) => ({ caipNetworkId: n.caipNetworkId, name: n.name, explorer: n.blockExplorers?.default ?? null })),
  ) as Promise<DemoNetwork[]>

/** Connects the dev wallet in the demo (`locale` for its words), then opens Account from the account button. */
async function connect(page: Page, stack: StackManifest, { locale = 'en' }: { locale?: 'en' | 'fr' } = {}) {
  const words = { en: { connect: 'Connect Wallet', account: 'Account' }, fr: { connect: 'Connecter un portefeuille', account: 'Compte' } }[locale]
  await page.goto(`${stack.demo!.url}/?locale=${locale}`)
  await page.getByRole('button', { name: words.connect }).click()
  await page.getByRole('dialog', { name: words.connect }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  // The modal closes once connected; the account button opens Account.
  const accountButton = page.getByRole('button', { name: new RegExp(short(stack.devAccounts[0]!)) })
  await expect(accountButton).toBeVisible()
  const account = page.getByRole('dialog', { name: words.account })
  if (!(await account.isVisible())) await accountButton.click()
  await expect(account).toBeVisible()
  return account
}

/** Registers `name` for `owner` in the data service, signed by it. */
async function registerName(stack: StackManifest, owner: PrivateKeyAccount, name: string) {
  const message = JSON.stringify({ name, attributes: {}, timestamp: Math.floor(Date.now() / 1000), coinType: 60 })
  const response = await fetch(`${stack.services.api}/v1/profile/account?projectId=${stack.services.projectId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ coin_type: 60, address: owner.address, message, signature: await owner.signMessage({ message }) }),
  })
  expect(response.status).toBe(200)
}

/** Picks the network's own currency in the send form's token picker (the form may have picked it already). */
async function chooseNativeToken(send: Locator) {
  const picker = send.getByRole('combobox', { name: /^Token/ })
  // Its balance shows once the tokens are loaded.
  await expect(picker).toContainText(/\d/)
  if ((await picker.innerText()).trim().startsWith('ETH')) return
  await picker.click()
  await send.getByRole('option', { name: /^ETH\b/ }).click()
  await expect(picker).toContainText('ETH')
}

/** Sends `amount` ETH to `to` through the demo's Send view, and comes back to Account as the flow does. */
async function sendThroughDemo(page: Page, { amount, to }: { amount: string; to: string }) {
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Send' }).click()
  const send = page.getByRole('dialog', { name: 'Send' })
  await chooseNativeToken(send)
  await send.getByLabel('Amount').fill(amount)
  await send.getByLabel('To (address or name)').fill(to)
  await send.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Transaction started' })).toBeVisible()
  await expect(page.getByRole('dialog', { name: 'Account' })).toBeVisible()
}

async function openActivity(page: Page) {
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Activity' }).click()
  const activity = page.getByRole('dialog', { name: 'Activity' })
  await expect(activity).toBeVisible()
  return activity
}

/** The row of the list that holds `text` (an amount chosen for the test), once it is there; reopens the view meanwhile, as a person would. */
async function rowWith(page: Page, text: string, { timeout = 20_000 } = {}) {
  const row = () => page.getByRole('dialog', { name: 'Activity' }).getByRole('listitem').filter({ hasText: text })
  await expect
    .poll(
      async () => {
        if ((await row().count()) > 0) return 1
        await page.getByRole('dialog', { name: 'Activity' }).getByRole('button', { name: 'Back' }).click()
        await openActivity(page)
        return row().count()
      },
      { timeout },
    )
    .toBe(1)
  return row()
}

/** The node's latest transaction from `from` to `to`. */
async function latestTransaction(chain: StackChain, from: Address, to: Address): Promise<Hex> {
  const node = createPublicClient({ transport: http(chain.rpcUrl) })
  for (let number = await node.getBlockNumber(); number >= 0n; number--) {
    const block = await node.getBlock({ blockNumber: number, includeTransactions: true })
    const tx = block.transactions.find((t) => t.from.toLowerCase() === from.toLowerCase() && t.to?.toLowerCase() === to.toLowerCase())
    if (tx) return tx.hash
  }
  throw new Error(`no transaction from ${from} to ${to}`)
}

test('rows say direction, the counterparty’s name or short address, amount, status turning confirmed and time; no explorer link where the network has none', async ({ page, stack }) => {
  test.setTimeout(150_000)
  const chain = stack.chains[0]!
  const me = stack.devAccounts[0]!
  const named = privateKeyToAccount(generatePrivateKey())
  const name = `activity-${Date.now().toString(36)}`
  await registerName(stack, named, name)
  const unnamed = privateKeyToAccount(generatePrivateKey()).address
  const sender = privateKeyToAccount(generatePrivateKey())
  const node = createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) })
  const wallet = createWalletClient({ transport: http(chain.rpcUrl), chain: { id: chain.chainId, name: chain.name, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [chain.rpcUrl] } } } })

  const account = await connect(page, stack)
  const networks = await demoNetworks(page)
  expect(networks.find((n) => n.caipNetworkId === chain.caipNetworkId)?.explorer, `${chain.name} must have no explorer for this test`).toBeNull()
  await expect(account.getByRole('button', { name: `Network ${chain.name}` })).toBeVisible()

  // Blocks wait for the test: the send is pending until one is mined.
  await node.setIntervalMining({ interval: 0 })
  try {
    await sendThroughDemo(page, { amount: '0.271', to: named.address })
    await openActivity(page)
    const sent = await rowWith(page, '0.271 ETH')
    await expect(sent).toContainText('Sent')
    await expect(sent).toContainText(`To ${name}.tessera.id`)
    await expect(sent).toContainText('\u22120.271 ETH')
    await expect(sent).toContainText('Pending')
    await expect(sent.locator('time')).toHaveText('a few seconds ago')
    await expect(page.getByRole('dialog', { name: 'Activity' }).getByRole('heading', { name: 'Today' })).toBeVisible()
    await node.mine({ blocks: 1 })
    await expect(sent).toContainText('Confirmed', { timeout: 20_000 })
    await expect(sent).not.toContainText('Pending')
  } finally {
    await node.setIntervalMining({ interval: chain.blockTimeSeconds ?? 0 })
    if (chain.blockTimeSeconds === null) await node.setAutomine(true)
  }

  // To an address without a name: its shortened form.
  await page.getByRole('dialog', { name: 'Activity' }).getByRole('button', { name: 'Back' }).click()
  await sendThroughDemo(page, { amount: '0.314', to: unnamed })
  await openActivity(page)
  const toUnnamed = await rowWith(page, '0.314 ETH')
  await expect(toUnnamed).toContainText(`To ${short(unnamed)}`)
  await expect(toUnnamed).toContainText('Confirmed', { timeout: 20_000 })

  // Received from someone else: the data service's row, in green with a plus.
  await wallet.sendTransaction({ account: stack.devAccounts[2]!, to: sender.address, value: parseEther('1') })
  await expect.poll(() => createPublicClient({ transport: http(chain.rpcUrl) }).getBalance({ address: sender.address }), { timeout: 15_000 }).toBe(parseEther('1'))
  await wallet.sendTransaction({ account: sender, to: me, value: parseEther('0.0429') })
  const received = await rowWith(page, '0.042 ETH', { timeout: 30_000 })
  await expect(received).toContainText('Received')
  await expect(received).toContainText(`From ${short(sender.address)}`)
  await expect(received).toContainText('+0.042 ETH')
  await expect(received).toContainText('Confirmed')

  // Each row with its token's image, as the Tokens view shows them: the network's for ETH (a tracked send and a service's
  // row alike), the data service's for a token, found by the contract the service names.
  const tusd = chain.tokens.find((token) => token.symbol === 'TUSD')!
  await wallet.writeContract({ account: stack.devAccounts[2]!, chain: null, address: tusd.address, abi: erc20Abi, functionName: 'transfer', args: [me, parseUnits('4.321', tusd.decimals)] })
  const receivedToken = await rowWith(page, '4.321 TUSD', { timeout: 30_000 })
  for (const row of [toUnnamed, received, receivedToken]) {
    await expect.poll(() => row.locator('.activity-icon > img.token-icon').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
  }
  const networkImage = await page.getByRole('button', { name: chain.name, exact: true }).locator('img.token-icon').getAttribute('src')
  await expect(toUnnamed.locator('.activity-icon > img.token-icon')).toHaveAttribute('src', networkImage!)
  await expect(receivedToken.locator('.activity-icon > img.token-icon')).toHaveAttribute('src', new RegExp(`/v1/assets/tokens/${chain.caipNetworkId}/erc20:${tusd.address}\\?`))

  // No explorer on this network: no link in any row.
  await expect(page.getByRole('dialog', { name: 'Activity' }).getByRole('listitem').getByRole('link')).toHaveCount(0)
})

test('on a network with an explorer, each row links to its transaction there in a new tab', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const account = await connect(page, stack)
  const networks = await demoNetworks(page)
  const withExplorer = networks.find((n) => n.explorer)
  expect(withExplorer, 'the demo configures blockExplorers on one of its EVM networks').toBeDefined()
  const chain = stack.chains.find((c) => c.caipNetworkId === withExplorer!.caipNetworkId)!
  const receiver = privateKeyToAccount(generatePrivateKey()).address

  if (!(await account.getByRole('button', { name: `Network ${withExplorer!.name}` }).isVisible())) {
    await account.getByRole('button', { name: /^Network / }).click()
    await page.getByRole('dialog', { name: 'Choose Network' }).getByRole('button', { name: withExplorer!.name }).click()
    await expect(account.getByRole('button', { name: `Network ${withExplorer!.name}` })).toBeVisible()
  }
  await sendThroughDemo(page, { amount: '0.0617', to: receiver })
  await openActivity(page)
  const row = await rowWith(page, '0.061 ETH')
  await expect(row).toContainText('Confirmed', { timeout: 20_000 })
  const hash = await latestTransaction(chain, stack.devAccounts[0]!, receiver)
  const link = row.getByRole('link', { name: `View on ${withExplorer!.explorer!.name}` })
  await expect(link).toHaveAttribute('href', `${withExplorer!.explorer!.url.replace(/\/+$/, '')}/tx/${hash}`)
  await expect(link).toHaveAttribute('target', '_blank')
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer')
})

test('in French: an empty list, then a service that is down, say so with a way to try again; absurd entries fit the modal', async ({ page, stack }) => {
  test.setTimeout(60_000)
  const chain = stack.chains[0]!
  const me = stack.devAccounts[0]!
  const other = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
  const minedAt = new Date().toISOString()
  const entry = (id: number, metadata: Record<string, unknown>, transfer: Record<string, unknown>) => ({
    id: `hostile-${id}`,
    metadata: { operationType: 'receive', hash: `0x${String(id).padStart(64, '0')}`, minedAt, sentFrom: other, sentTo: me, status: 'confirmed', chain: chain.caipNetworkId, ...metadata },
    transfers: [{ fungible_info: { symbol: 'TSR' }, direction: 'in', quantity: { numeric: '1' }, ...transfer }],
  })
  const hostile = {
    data: [
      entry(1, { sentFromName: `${'très-long-nom-'.repeat(400)}.tessera.id` }, { quantity: { numeric: `9${'9'.repeat(77)}.123456789` } }),
      entry(2, { status: 'reverted' }, { fungible_info: { symbol: 'S'.repeat(5_000) }, quantity: { numeric: '1234.56789' } }),
      entry(3, { sentFrom: `0x${'f'.repeat(3_000)}` }, { fungible_info: undefined, quantity: { numeric: '123456789' } }),
      entry(4, { status: 'who-knows', operationType: 'x'.repeat(2_000) }, { direction: undefined, quantity: { numeric: '0.0000001' } }),
    ],
    next: null,
  }
  let service: 'empty' | 'down' | 'hostile' = 'empty'
  await page.context().route(/\/v1\/account\/[^/]+\/history\?/, (route) =>
    service === 'down'
      ? route.fulfill({ status: 503, contentType: 'application/json', body: '{}' })
      : route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(service === 'empty' ? { data: [], next: null } : hostile) }),
  )

  const account = await connect(page, stack, { locale: 'fr' })
  await account.getByRole('button', { name: 'Activité' }).click()
  const activity = page.getByRole('dialog', { name: 'Activité' })
  // Nothing yet: said so, with where transfers will show, and a way to look again.
  await expect(activity.getByText('Aucune transaction pour le moment')).toBeVisible()
  await expect(activity.getByText(`Les transferts de et vers ce compte sur ${chain.name} s’affichent ici.`)).toBeVisible()
  service = 'down'
  await activity.getByRole('button', { name: 'Actualiser' }).click()
  await expect(activity.getByText('L’activité n’a pas pu être chargée : le service de données n’a pas répondu.')).toBeVisible()
  await expect(activity.getByText('Aucune transaction pour le moment')).toHaveCount(0)

  service = 'hostile'
  await activity.getByRole('button', { name: 'Réessayer' }).click()
  await expect(activity.getByRole('listitem')).toHaveCount(4)
  await expect(activity.getByRole('heading', { name: 'Aujourd’hui' })).toBeVisible()
  const rows = activity.getByRole('listitem')
  // French digits: a narrow no-break space between thousands, a decimal comma.
  await expect(rows.filter({ hasText: /\+1[\s\u202f]234,567 S+/ })).toContainText('Échouée')
  await expect(rows.filter({ hasText: /123[\s\u202f]456[\s\u202f]789 jeton inconnu/ })).toHaveCount(1)
  await expect(rows.filter({ hasText: '< 0,001' })).toContainText('En attente')
  await expect(rows.filter({ hasText: 'E77' })).toContainText('Confirmée')

  // Nothing is wider than the modal, and every row stays inside it.
  const dialog = await activity.boundingBox()
  for (const row of await rows.all()) {
    const box = (await row.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(dialog!.x)
    expect(box.x + box.width).toBeLessThanOrEqual(dialog!.x + dialog!.width)
    expect(box.height).toBeLessThan(120)
  }
  const overflow = await activity.evaluate((element) => element.scrollWidth - element.clientWidth)
  expect(overflow).toBeLessThanOrEqual(0)

  // Every status and direction colour is readable (axe's contrast rule among the others), in both themes.
  for (const themeMode of ['dark', 'light'] as const) {
    await page.evaluate((mode) => (window as unknown as { widget: { setThemeMode: (m: string) => void } }).widget.setThemeMode(mode), themeMode)
    const results = await new AxeBuilder({ page }).analyze()
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), themeMode).toEqual([])
    await page.screenshot({ path: test.info().outputPath(`activity-${themeMode}.png`) })
  }
})
