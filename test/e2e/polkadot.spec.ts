import type { Page } from '@playwright/test'
import { ApiPromise, WsProvider } from '@polkadot/api'
import { decodeSs58, encodeSs58 } from '../../src/shared/families/polkadot/address'
import { formatUnits, parseUnits } from '../../src/shared/protocol/display'
import type { StackPolkadot } from '../../services/stack/manifest'
import { expect, test } from '../fixtures'

// Polkadot journeys against the local chain (chopsticks, a block per transaction, final at once) with the demo's dev
// extension (//Alice, //Bob, //Charlie in window.injectedWeb3; it signs payloads with their keys). The demo offers
// Polkadot on ?families=…,polkadot. Each test uses its own sender, so their balances move only with what it sends.

const PAGE = '/?families=eip155,polkadot'
/** The widget's short address (SPEC §5): 4 characters at the start and 6 at the end. */
const shorten = (address: string) => `${address.slice(0, 4)}…${address.slice(-6)}`
/** An amount as the widget shows it in English: its digits, thousands grouped by commas. */
const grouped = (value: string) => value.replace(/^\d+/, (whole) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ','))
/** Planck as the widget shows the token: truncated to 3 decimals. */
const asToken = (planck: bigint, decimals: number) => {
  const [whole, fraction = ''] = formatUnits(planck, decimals).split('.')
  return grouped(`${whole}.${fraction.padEnd(3, '0').slice(0, 3)}`)
}

type Dev = { devPolkadotExtension: { hold: () => () => void; rejectNext: (kind?: string) => void; switchAccount: (i: number) => void; requests: { kind: string }[] } }

let api: ApiPromise | undefined
/** @polkadot/api on the local chain, for the test's own reads (one connection per file). */
async function chain(polkadot: StackPolkadot) {
  api ??= await ApiPromise.create({ provider: new WsProvider(polkadot.rpcUrl), noInitWarn: true, throwOnConnect: true })
  return api
}
test.afterAll(async () => {
  await api?.disconnect()
  api = undefined
})
/** What the chain holds for `address`: free and reserved planck, and the account's nonce. */
async function accountOf(polkadot: StackPolkadot, address: string) {
  const { nonce, data } = (await (await chain(polkadot)).query.system!.account!(address)) as unknown as { nonce: { toNumber(): number }; data: { free: { toBigInt(): bigint }; reserved: { toBigInt(): bigint } } }
  return { free: data.free.toBigInt(), reserved: data.reserved.toBigInt(), nonce: nonce.toNumber() }
}

/** The Account view, once a connection has settled: the modal shows it, or has closed (the account button opens it). */
async function openAccount(page: Page, address: string) {
  const account = page.getByRole('dialog', { name: 'Account' })
  await expect.poll(async () => `${await account.count()}:${await page.getByRole('dialog').count()}`).toMatch(/^(1:1|0:0)$/)
  if ((await account.count()) === 0) await page.getByRole('button', { name: new RegExp(shorten(address)) }).click()
  await expect(account).toBeVisible()
  return account
}

/** Connects the dev extension from the Connect view (opened by the page's Connect Wallet button unless it is open). */
async function connectPolkadot(page: Page, address: string) {
  const connect = page.getByRole('dialog', { name: 'Connect Wallet' })
  if ((await connect.count()) === 0) await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await connect.getByRole('button', { name: /Tessera Dev Polkadot/ }).click()
  return openAccount(page, address)
}

/** Opens the demo with Polkadot, once its dev extension is injected (it loads in a chunk of its own, before the widget). */
async function openDemo(page: Page, url: string) {
  await page.goto(url)
  await page.waitForFunction(() => 'devPolkadotExtension' in window, undefined, { timeout: 10_000 })
}

/** Opens Send with the token chosen, the amount and the receiver typed. */
async function fillSend(page: Page, symbol: string, amount: string, receiver: string) {
  const send = page.getByRole('dialog', { name: 'Send' })
  await expect(send.getByRole('combobox', { name: /^Token/ })).toContainText(symbol)
  await send.getByLabel('Amount').fill(amount)
  await send.getByLabel('To (address)').fill(receiver)
  return send
}

test('a visitor connects the dev Polkadot extension: its account in the network’s format, the free and reserved balance the chain holds, Receive with a QR code', async ({ page, stack }) => {
  const polkadot = stack.polkadot!
  const alice = polkadot.devAccounts[0]!
  const { symbol, decimals } = polkadot.token
  await openDemo(page, `${stack.demo!.url}${PAGE}`)
  const account = await connectPolkadot(page, alice.address)

  await expect(account.getByText(shorten(alice.address))).toBeVisible()
  await expect(account.getByText('Connected with Tessera Dev Polkadot')).toBeVisible()
  await expect(account.getByRole('button', { name: /^Network Polkadot Local/ })).toBeVisible()
  const held = await accountOf(polkadot, alice.address)
  await expect(account.getByLabel('Balance')).toHaveText(`${asToken(held.free, decimals)} ${symbol}`)
  await expect(account.getByText(/^Reserved: /)).toHaveText(`Reserved: ${asToken(held.reserved, decimals)} ${symbol}`)

  await account.getByRole('button', { name: 'Receive' }).click()
  const receive = page.getByRole('dialog', { name: 'Receive' })
  await expect(receive.getByText(alice.address, { exact: true })).toBeVisible()
  await expect(receive.getByRole('img', { name: 'QR code of the address' })).toBeVisible()
})

test('a visitor sends 1.5 of the token: the fee is shown first, the extension signs the payload, and the recipient holds exactly 1.5 more', async ({ page, stack }) => {
  test.setTimeout(60_000)
  const polkadot = stack.polkadot!
  const { symbol, decimals } = polkadot.token
  const alice = polkadot.devAccounts[0]!
  const dave = polkadot.devAccounts[3]!
  const [senderBefore, recipientBefore] = await Promise.all([accountOf(polkadot, alice.address), accountOf(polkadot, dave.address)])
  await openDemo(page, `${stack.demo!.url}${PAGE}`)
  const account = await connectPolkadot(page, alice.address)
  await account.getByRole('button', { name: 'Send' }).click()
  const send = await fillSend(page, symbol, '1.5', dave.address)

  // The fee the node priced for this transfer is on screen before the extension is asked.
  const fee = send.getByText(new RegExp(`^Network fee: [\\d.]+ ${symbol}$`))
  await expect(fee).toBeVisible()
  const feePlanck = parseUnits(new RegExp(`([\\d.]+) ${symbol}`).exec((await fee.textContent())!)![1]!, decimals)
  expect(feePlanck).toBeGreaterThan(0n)
  // The extension waits, as a person reading its prompt: the view shows what it is asked to sign meanwhile.
  await page.evaluate(() => Object.assign(window, { releaseExtension: (window as unknown as Dev).devPolkadotExtension.hold() }))
  await send.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByRole('dialog', { name: /Approve/ }).getByText(`1.5 ${symbol}`)).toBeVisible()
  await page.evaluate(() => (window as unknown as { releaseExtension: () => void }).releaseExtension())

  await expect(page.getByRole('status').filter({ hasText: 'Transaction started' })).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: 'Transaction confirmed' })).toBeVisible({ timeout: 30_000 })
  const [senderAfter, recipientAfter] = await Promise.all([accountOf(polkadot, alice.address), accountOf(polkadot, dave.address)])
  expect(recipientAfter.free - recipientBefore.free).toBe(parseUnits('1.5', decimals))
  // The sender paid the amount and the fee it was shown.
  expect(senderBefore.free - senderAfter.free).toBe(parseUnits('1.5', decimals) + feePlanck)
  expect(senderAfter.nonce).toBe(senderBefore.nonce + 1)
})

test('a declined signature sends nothing and says so', async ({ page, stack }) => {
  const polkadot = stack.polkadot!
  const bob = polkadot.devAccounts[1]!
  await openDemo(page, `${stack.demo!.url}${PAGE}`)
  await page.evaluate(() => (window as unknown as Dev).devPolkadotExtension.switchAccount(1))
  const account = await connectPolkadot(page, bob.address)
  const before = await accountOf(polkadot, bob.address)
  await account.getByRole('button', { name: 'Send' }).click()
  const send = await fillSend(page, polkadot.token.symbol, '1', polkadot.devAccounts[4]!.address)
  await expect(send.getByText(/^Network fee: /)).toBeVisible()
  await page.evaluate(() => (window as unknown as Dev).devPolkadotExtension.rejectNext('signPayload'))
  await send.getByRole('button', { name: 'Send' }).click()
  // The extension's own words ('Cancelled') are never shown: the widget's sentence for a refusal is.
  await expect(send.getByRole('alert')).toHaveText('User rejected the request.')
  expect((await accountOf(polkadot, bob.address)).nonce).toBe(before.nonce)
})

test('bad input gets its sentence before anything is signed: an address of another network, below the existential deposit for a new account, more than the balance', async ({ page, stack }) => {
  test.setTimeout(60_000)
  const polkadot = stack.polkadot!
  const { symbol, decimals } = polkadot.token
  const charlie = polkadot.devAccounts[2]!
  await openDemo(page, `${stack.demo!.url}${PAGE}`)
  await page.evaluate(() => (window as unknown as Dev).devPolkadotExtension.switchAccount(2))
  const account = await connectPolkadot(page, charlie.address)
  const before = await accountOf(polkadot, charlie.address)
  await account.getByRole('button', { name: 'Send' }).click()

  // Dave's key as a Polkadot (prefix 0) address, on the local network (prefix 2).
  const polkadotAddress = encodeSs58(decodeSs58(polkadot.devAccounts[3]!.address)!.publicKey, 0)
  const send = await fillSend(page, symbol, '1', polkadotAddress)
  await expect(send.getByRole('alert')).toHaveText('This is a Polkadot address; the selected network is Polkadot Local')
  await send.getByRole('button', { name: 'Send' }).click()
  await expect(send.getByRole('alert')).toHaveText('This is a Polkadot address; the selected network is Polkadot Local')
  // Not an SS58 address at all.
  await send.getByLabel('To (address)').fill(stack.devAccounts[0]!)
  await expect(send.getByRole('alert')).toHaveText('Not a valid address on Polkadot Local')
  await expect(send.getByRole('button', { name: 'Send' })).toBeDisabled()

  // A new account (a key nobody funded) must receive at least the existential deposit.
  const fresh = encodeSs58(crypto.getRandomValues(new Uint8Array(32)), polkadot.ss58Prefix)
  const ed = BigInt(polkadot.existentialDeposit)
  const tooLittle = formatUnits(ed / 2n, decimals)
  await fillSend(page, symbol, tooLittle, fresh)
  const edSentence = `An account must hold at least ${formatUnits(ed, decimals)} ${symbol}: send at least ${formatUnits(ed, decimals)} ${symbol} to this address`
  await expect(send.getByRole('alert')).toHaveText(edSentence)
  await send.getByRole('button', { name: 'Send' }).click()
  await expect(send.getByRole('alert')).toHaveText(edSentence)

  // More than the account holds.
  await send.getByLabel('Amount').fill('100000000000')
  await expect(send.getByRole('alert')).toHaveText(`Not enough ${symbol} for this amount`)
  await expect(send.getByRole('button', { name: 'Send' })).toBeDisabled()

  // Nothing reached the extension's signer, and nothing reached the chain.
  await expect(page.getByRole('status').filter({ hasText: 'Transaction started' })).toHaveCount(0)
  expect(await page.evaluate(() => (window as unknown as Dev).devPolkadotExtension.requests.filter((r) => r.kind !== 'enable').length)).toBe(0)
  expect((await accountOf(polkadot, charlie.address)).nonce).toBe(before.nonce)
})

test('a reload keeps the Polkadot extension connected, without asking it again', async ({ page, stack }) => {
  const alice = stack.polkadot!.devAccounts[0]!
  await openDemo(page, `${stack.demo!.url}${PAGE}`)
  await connectPolkadot(page, alice.address)
  await page.reload()
  await page.getByRole('button', { name: new RegExp(shorten(alice.address)) }).click()
  await expect(page.getByRole('dialog', { name: 'Account' }).getByText('Connected with Tessera Dev Polkadot')).toBeVisible()
})

test('sign in with Polkadot: the extension signs the CAIP-122 message with signRaw and the session lands in the data service', async ({ page, stack }) => {
  const polkadot = stack.polkadot!
  const alice = polkadot.devAccounts[0]!
  await openDemo(page, `${stack.demo!.url}/?siwx=required&families=polkadot`)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Polkadot/ }).click()
  await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Sign' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  const sessions = await page.evaluate(() => JSON.parse(localStorage.getItem('tessera:v1:siwxSessions') ?? '[]') as { id: string; message: string }[])
  expect(sessions).toHaveLength(1)
  expect(sessions[0]!.message).toContain('wants you to sign in with your Polkadot account:')
  expect(sessions[0]!.message).toContain(alice.address)
  const session = await (await fetch(`${stack.services.api}/v1/sessions/${sessions[0]!.id}?projectId=${stack.services.projectId}`)).json()
  expect(session).toMatchObject({ caipAddress: `${polkadot.caipNetworkId}:${alice.address}`, revoked: false })
})

test('the page’s own scripts carry no @polkadot/* code: only the dev extension’s chunk does, while the widget’s Polkadot code runs', async ({ page, stack }) => {
  const alice = stack.polkadot!.devAccounts[0]!
  await openDemo(page, `${stack.demo!.url}${PAGE}`)
  // The widget's Polkadot adapter, its extension discovery and send form load and run on the page (Send is opened).
  const account = await connectPolkadot(page, alice.address)
  await account.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByRole('dialog', { name: 'Send' }).getByRole('combobox', { name: /^Token/ })).toContainText(stack.polkadot!.token.symbol)

  // Every script the document fetched (its resource timeline; the workers' fetches are in their own timelines), less
  // the workers' entry scripts.
  const workerUrls = new Set(page.workers().map((worker) => worker.url()))
  const scripts = (await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name))).filter((url) => new URL(url).pathname.endsWith('.js') && !workerUrls.has(url))
  const sources = await Promise.all(scripts.map(async (url) => ({ url, text: await (await fetch(url)).text() })))
  // @polkadot packages name themselves in their code (each registers its packageInfo, `@polkadot/util` and so on).
  const withPolkadot = sources.filter(({ text }) => text.includes('@polkadot/'))
  const isDevExtension = (url: string) => /\/createDevPolkadotExtension-[\w-]+\.js$/.test(new URL(url, 'http://page/').pathname)

  // The check finds @polkadot code where it is: in the dev extension's chunk, which stands in for a browser extension…
  expect(withPolkadot.map(({ url }) => new URL(url).pathname).filter((path) => isDevExtension(path)).length).toBe(1)
  // …and the widget's Polkadot code was among what the page loaded (its extension discovery reads injectedWeb3).
  expect(sources.some(({ url, text }) => !isDevExtension(url) && text.includes('injectedWeb3'))).toBe(true)
  // No other script of the page has any.
  expect(withPolkadot.map(({ url }) => new URL(url).pathname).filter((path) => !isDevExtension(path))).toEqual([])
})

test('four families connected at once — EVM, Solana, Bitcoin and Polkadot — switched in Account, and kept by a reload', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const polkadotAddress = stack.polkadot!.devAccounts[0]!.address
  const evmAddress = stack.devAccounts[0]!
  const solanaAddress = stack.solana!.devAccounts[0]!
  const bitcoinAddress = stack.bitcoin!.devAccounts[0]!.payment.address
  await openDemo(page, `${stack.demo!.url}/?families=eip155,solana,bip122,polkadot`)
  let account = await connectPolkadot(page, polkadotAddress)

  // Choosing another family's network while its wallet is not connected leads to that family's wallets.
  const addFamily = async (network: RegExp, wallet: RegExp, address: string) => {
    await account.getByRole('button', { name: /^Network / }).click()
    await page.getByRole('dialog', { name: 'Choose Network' }).getByRole('button', { name: network }).click()
    await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: wallet }).click()
    account = await openAccount(page, address)
    await expect(account.getByText(shorten(address))).toBeVisible()
  }
  await addFamily(new RegExp(`^${stack.chains[0]!.name} EVM`), /^Tessera Dev Wallet/, evmAddress)
  await addFamily(/^Solana Local Solana/, /^Tessera Dev Solana Wallet/, solanaAddress)
  await addFamily(/^Bitcoin Local Bitcoin/, /^Tessera Dev Bitcoin Wallet/, bitcoinAddress)

  // Account offers the three other families; each switch shows that family's account and currency.
  for (const [family, address, currency] of [
    ['Polkadot', polkadotAddress, stack.polkadot!.token.symbol],
    ['EVM', evmAddress, 'ETH'],
    ['Solana', solanaAddress, 'SOL'],
    ['Bitcoin', bitcoinAddress, 'BTC'],
  ] as const) {
    await account.getByRole('button', { name: new RegExp(`^Switch to ${family}`) }).click()
    await expect(account.getByText(shorten(address))).toBeVisible()
    await expect(account.getByLabel('Balance')).toHaveText(new RegExp(` ${currency}$`))
  }

  await page.reload()
  await expect(page.getByRole('button', { name: new RegExp(shorten(bitcoinAddress)) })).toBeVisible()
  expect((await page.evaluate(() => JSON.parse(localStorage.getItem('tessera:v1:connectedNamespaces') ?? '[]') as string[])).sort()).toEqual(['bip122', 'eip155', 'polkadot', 'solana'])
  account = await openAccount(page, bitcoinAddress)
  for (const family of ['EVM', 'Solana', 'Polkadot']) await expect(account.getByRole('button', { name: new RegExp(`^Switch to ${family}`) })).toBeVisible()
})
