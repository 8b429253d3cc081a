import type { Page } from '@playwright/test'
import { encode } from 'uqr'
import { expect, test } from '../fixtures'

// Bitcoin journeys against the real regtest node (bcoin behind the Esplora-style API), with the demo's dev Bitcoin
// wallet (the manifest's dev keys 0–2; it signs PSBTs itself). Blocks are mined every 2 s, to the miner's address: the
// dev accounts' balances move only with what these tests send.

/** The widget's short address (SPEC §5): 4 characters at the start and 6 at the end. */
const shorten = (address: string) => `${address.slice(0, 4)}…${address.slice(-6)}`
/** An amount as the widget shows it in English: its digits, thousands grouped by commas. */
const grouped = (value: string) => value.replace(/^\d+/, (whole) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ','))
/** Sats as the widget shows BTC: truncated to 3 decimals. */
const asBtc = (sats: bigint) => grouped(`${sats / 100_000_000n}.${(sats % 100_000_000n).toString().padStart(8, '0').slice(0, 3)}`)

type AddressStats = { funded_txo_sum: number; spent_txo_sum: number; tx_count: number }
/** What the node's API says of an address: its confirmed and mempool stats. */
async function addressStats(apiUrl: string, address: string) {
  const response = await fetch(`${apiUrl}/address/${address}`)
  if (!response.ok) throw new Error(`GET /address/${address}: HTTP ${response.status}`)
  const { chain_stats: chain, mempool_stats: mempool } = (await response.json()) as { chain_stats: AddressStats; mempool_stats: AddressStats }
  const sats = (s: AddressStats) => BigInt(s.funded_txo_sum) - BigInt(s.spent_txo_sum)
  return { confirmed: sats(chain), pending: sats(mempool), txCount: chain.tx_count + mempool.tx_count }
}

/**
 * The Account view, once a connection has settled: the modal either shows it or has closed (then the account button
 * opens it). Waits until neither the Connect nor a connecting view is on screen.
 */
async function openAccount(page: Page, address: string) {
  const account = page.getByRole('dialog', { name: 'Account' })
  await expect.poll(async () => `${await account.count()}:${await page.getByRole('dialog').count()}`).toMatch(/^(1:1|0:0)$/)
  if ((await account.count()) === 0) await page.getByRole('button', { name: new RegExp(shorten(address)) }).click()
  await expect(account).toBeVisible()
  return account
}

/** Connects the dev Bitcoin wallet from the Connect view (opened by the page's Connect Wallet button unless it is open). */
async function connectBitcoin(page: Page, address: string) {
  const connect = page.getByRole('dialog', { name: 'Connect Wallet' })
  if ((await connect.count()) === 0) await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await connect.getByRole('button', { name: /Tessera Dev Bitcoin Wallet/ }).click()
  return openAccount(page, address)
}

/** Opens Send with BTC chosen, the amount and the receiver typed. */
async function fillSend(page: Page, amount: string, receiver: string) {
  const send = page.getByRole('dialog', { name: 'Send' })
  await expect(send.getByRole('combobox', { name: /^Token/ })).toContainText('BTC')
  await send.getByLabel('Amount').fill(amount)
  await send.getByLabel('To (address)').fill(receiver)
  return send
}

type SatsConnectAnswer = { method: string; answer: { jsonrpc?: unknown; status?: unknown; result?: unknown; error?: { code?: unknown } } }
type DevBitcoinWindow = {
  devBitcoinWallet: { rejectNext: (feature: string) => void }
  TesseraDevBitcoin: { BitcoinProvider: { request: (method: string, params: unknown) => Promise<unknown> } }
  satsConnectAnswers: SatsConnectAnswer[]
}

/** Keeps what the dev wallet's sats-connect provider answers the widget (`window.satsConnectAnswers`), as the wallet sends it. */
async function recordSatsConnectAnswers(page: Page) {
  await page.evaluate(() => {
    const target = window as unknown as DevBitcoinWindow
    const provider = target.TesseraDevBitcoin.BitcoinProvider
    const request = provider.request.bind(provider)
    target.satsConnectAnswers = []
    provider.request = async (method, params) => {
      const answer = await request(method, params)
      target.satsConnectAnswers.push({ method, answer: answer as SatsConnectAnswer['answer'] })
      return answer
    }
  })
}

test('a visitor connects the dev Bitcoin wallet: its payment address, the BTC the node holds for it, and a bitcoin: QR for each purpose', async ({ page, stack }) => {
  test.setTimeout(60_000)
  const bitcoin = stack.bitcoin!
  const { payment, ordinals } = bitcoin.devAccounts[0]!
  await page.goto(stack.demo!.url)
  const account = await connectBitcoin(page, payment.address)

  await expect(account.getByText(shorten(payment.address))).toBeVisible()
  await expect(account.getByText('Connected with Tessera Dev Bitcoin Wallet')).toBeVisible()
  await expect(account.getByRole('button', { name: /^Network Bitcoin Local/ })).toBeVisible()
  const { confirmed, pending } = await addressStats(bitcoin.apiUrl, payment.address)
  await expect(account.getByLabel('Balance')).toHaveText(`${asBtc(confirmed + pending)} BTC`)

  // Receive: the payment address first, in a BIP-21 URI; the ordinals (taproot) address on request.
  await account.getByRole('button', { name: 'Receive' }).click()
  const receive = page.getByRole('dialog', { name: 'Receive' })
  const qrPath = async () => (await receive.getByRole('img', { name: 'QR code of the address' }).locator('path').getAttribute('d')) ?? ''
  const pathOf = (value: string) => {
    const { data } = encode(value, { ecc: 'M', border: 2 })
    return data.flatMap((row, y) => row.map((isDark, x) => (isDark ? `M${x} ${y}h1v1h-1z` : ''))).join('')
  }
  await expect(receive.getByText(payment.address, { exact: true })).toBeVisible()
  await expect(receive.getByRole('button', { name: 'Payment' })).toHaveAttribute('aria-pressed', 'true')
  expect(await qrPath()).toBe(pathOf(`bitcoin:${payment.address}`))
  await receive.getByRole('button', { name: 'Ordinals' }).click()
  await expect(receive.getByText(ordinals.address, { exact: true })).toBeVisible()
  expect(await qrPath()).toBe(pathOf(`bitcoin:${ordinals.address}`))
})

test('a visitor sends 0.1 BTC: the fee is shown first, the wallet signs the PSBT, it confirms in the next block, and the receiver holds exactly 0.1 BTC more', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const bitcoin = stack.bitcoin!
  const sender = bitcoin.devAccounts[0]!.payment.address
  const receiver = bitcoin.devAccounts[5]!.payment.address
  const [senderBefore, receiverBefore] = await Promise.all([addressStats(bitcoin.apiUrl, sender), addressStats(bitcoin.apiUrl, receiver)])
  await page.goto(stack.demo!.url)
  const account = await connectBitcoin(page, sender)
  await account.getByRole('button', { name: 'Send' }).click()
  const send = await fillSend(page, '0.1', receiver)

  // The fee the worker priced for this PSBT is on screen before the wallet is asked.
  const fee = send.getByText(/^Network fee: [\d.]+ BTC$/)
  await expect(fee).toBeVisible()
  const feeSats = BigInt(Math.round(Number(/([\d.]+) BTC/.exec((await fee.textContent())!)![1]) * 1e8))
  expect(feeSats).toBeGreaterThan(0n)
  // The wallet waits, as a person reading its prompt: the view shows what it is asked to sign meanwhile.
  await page.evaluate(() => Object.assign(window, { releaseBitcoinWallet: (window as unknown as { devBitcoinWallet: { hold: () => () => void } }).devBitcoinWallet.hold() }))
  await send.getByRole('button', { name: 'Send' }).click()
  const approve = page.getByRole('dialog', { name: /Approve/ })
  await expect(approve.getByText('0.1 BTC')).toBeVisible()
  await page.evaluate(() => (window as unknown as { releaseBitcoinWallet: () => void }).releaseBitcoinWallet())

  await expect(page.getByRole('status').filter({ hasText: 'Transaction started' })).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: 'Transaction confirmed' })).toBeVisible({ timeout: 30_000 })
  const [senderAfter, receiverAfter] = await Promise.all([addressStats(bitcoin.apiUrl, sender), addressStats(bitcoin.apiUrl, receiver)])
  expect(receiverAfter.confirmed - receiverBefore.confirmed).toBe(10_000_000n)
  // The sender paid the amount and exactly the fee it was shown.
  expect(senderBefore.confirmed + senderBefore.pending - (senderAfter.confirmed + senderAfter.pending)).toBe(10_000_000n + feeSats)
})

test('a declined signature sends nothing and says so', async ({ page, stack }) => {
  test.setTimeout(60_000)
  const bitcoin = stack.bitcoin!
  const sender = bitcoin.devAccounts[1]!
  await page.goto(stack.demo!.url)
  await page.evaluate(() => (window as unknown as { devBitcoinWallet: { switchAccount: (i: number) => void } }).devBitcoinWallet.switchAccount(1))
  const account = await connectBitcoin(page, sender.payment.address)
  const before = await addressStats(bitcoin.apiUrl, sender.payment.address)
  await account.getByRole('button', { name: 'Send' }).click()
  const send = await fillSend(page, '0.1', bitcoin.devAccounts[6]!.payment.address)
  await expect(send.getByText(/^Network fee: /)).toBeVisible()
  await page.evaluate(() => (window as unknown as { devBitcoinWallet: { rejectNext: (feature: string) => void } }).devBitcoinWallet.rejectNext('bitcoin:signTransaction'))
  await send.getByRole('button', { name: 'Send' }).click()
  await expect(send.getByRole('alert')).toHaveText('User rejected the request.')
  expect((await addressStats(bitcoin.apiUrl, sender.payment.address)).txCount).toBe(before.txCount)
})

test('through a sats-connect provider answering JSON-RPC 2.0 as wallets do: a declined connection and a declined signature say so; then it connects, and the PSBT it signs confirms', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const bitcoin = stack.bitcoin!
  const sender = bitcoin.devAccounts[0]!.payment.address
  const receiver = bitcoin.devAccounts[4]!.payment.address
  await page.goto(`${stack.demo!.url}/?bitcoinWallet=sats-connect`)
  await recordSatsConnectAnswers(page)

  // The person declines the connection in the wallet: the widget says so (a refusal, never "something unexpected").
  await page.evaluate(() => (window as unknown as DevBitcoinWindow).devBitcoinWallet.rejectNext('bitcoin:connect'))
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Bitcoin Wallet/ }).click()
  const connecting = page.getByRole('dialog', { name: 'Tessera Dev Bitcoin Wallet', exact: true })
  await expect(connecting.getByRole('alert')).toHaveText('Connection declined')
  await connecting.getByRole('button', { name: 'Try again' }).click()
  const account = await openAccount(page, sender)
  await expect(account.getByText(shorten(sender))).toBeVisible()
  await expect(account.getByText('Connected with Tessera Dev Bitcoin Wallet')).toBeVisible()

  // Then declines the signature: nothing is sent, and the form says why.
  const [senderBefore, receiverBefore] = await Promise.all([addressStats(bitcoin.apiUrl, sender), addressStats(bitcoin.apiUrl, receiver)])
  await account.getByRole('button', { name: 'Send' }).click()
  const send = await fillSend(page, '0.05', receiver)
  const fee = send.getByText(/^Network fee: [\d.]+ BTC$/)
  await expect(fee).toBeVisible()
  const feeSats = BigInt(Math.round(Number(/([\d.]+) BTC/.exec((await fee.textContent())!)![1]) * 1e8))
  await page.evaluate(() => (window as unknown as DevBitcoinWindow).devBitcoinWallet.rejectNext('bitcoin:signTransaction'))
  await send.getByRole('button', { name: 'Send' }).click()
  await expect(send.getByRole('alert')).toHaveText('User rejected the request.')
  expect((await addressStats(bitcoin.apiUrl, sender)).txCount).toBe(senderBefore.txCount)

  // Asked again, the wallet signs the PSBT; it confirms, and the receiver holds exactly 0.05 BTC more.
  await send.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Transaction confirmed' })).toBeVisible({ timeout: 30_000 })
  const [senderAfter, receiverAfter] = await Promise.all([addressStats(bitcoin.apiUrl, sender), addressStats(bitcoin.apiUrl, receiver)])
  expect(receiverAfter.confirmed - receiverBefore.confirmed).toBe(5_000_000n)
  expect(senderBefore.confirmed + senderBefore.pending - (senderAfter.confirmed + senderAfter.pending)).toBe(5_000_000n + feeSats)

  // All of it went through the provider's JSON-RPC 2.0 answers, refusals as sats-connect's USER_REJECTION (-32000).
  const answers = await page.evaluate(() => (window as unknown as DevBitcoinWindow).satsConnectAnswers)
  expect(answers.length).toBeGreaterThan(0)
  expect(answers.filter(({ answer }) => answer.jsonrpc !== '2.0' || 'status' in answer)).toEqual([])
  expect(answers.filter(({ method }) => method === 'getAddresses').map(({ answer }) => answer.error?.code ?? 'result')).toEqual([-32000, 'result'])
  expect(answers.filter(({ method }) => method === 'signPsbt').map(({ answer }) => answer.error?.code ?? 'result')).toEqual([-32000, 'result'])
})

test('bad input gets its sentence before anything is signed: an address of another network, dust, more than the balance', async ({ page, stack }) => {
  test.setTimeout(60_000)
  const bitcoin = stack.bitcoin!
  const sender = bitcoin.devAccounts[2]!
  await page.goto(stack.demo!.url)
  await page.evaluate(() => (window as unknown as { devBitcoinWallet: { switchAccount: (i: number) => void } }).devBitcoinWallet.switchAccount(2))
  const account = await connectBitcoin(page, sender.payment.address)
  const before = await addressStats(bitcoin.apiUrl, sender.payment.address)
  // Were the wallet asked at all, it would refuse, and the form would say that instead.
  await page.evaluate(() => (window as unknown as { devBitcoinWallet: { rejectNext: (feature: string) => void } }).devBitcoinWallet.rejectNext('*'))
  await account.getByRole('button', { name: 'Send' }).click()

  // A Bitcoin mainnet address on the regtest network.
  const send = await fillSend(page, '0.1', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu')
  await expect(send.getByRole('alert')).toHaveText('This is a Bitcoin mainnet address; the selected network is Bitcoin Local')
  await send.getByRole('button', { name: 'Send' }).click()
  await expect(send.getByRole('alert')).toHaveText('This is a Bitcoin mainnet address; the selected network is Bitcoin Local')
  // An address of another family is not a Bitcoin address at all.
  await send.getByLabel('To (address)').fill(stack.devAccounts[0]!)
  await expect(send.getByRole('alert')).toHaveText('Not a valid address on Bitcoin Local')
  await expect(send.getByRole('button', { name: 'Send' })).toBeDisabled()

  // Dust: 1 sat to a P2WPKH address is below what the network relays.
  await fillSend(page, '0.00000001', bitcoin.devAccounts[7]!.payment.address)
  await expect(send.getByRole('alert')).toHaveText('The amount is below the dust limit: send at least 546 sats to this address')
  await send.getByRole('button', { name: 'Send' }).click()
  await expect(send.getByRole('alert')).toHaveText('The amount is below the dust limit: send at least 546 sats to this address')

  // More than the account holds.
  await send.getByLabel('Amount').fill('1000000')
  await expect(send.getByRole('alert')).toHaveText('Not enough BTC for this amount')
  await expect(send.getByRole('button', { name: 'Send' })).toBeDisabled()

  // Nothing reached the node, and the wallet's refusal was never needed.
  await expect(page.getByRole('status').filter({ hasText: 'Transaction started' })).toHaveCount(0)
  expect((await addressStats(bitcoin.apiUrl, sender.payment.address)).txCount).toBe(before.txCount)
})

test('a reload keeps the Bitcoin wallet connected, by the Wallet Standard and through sats-connect', async ({ page, stack }) => {
  test.setTimeout(60_000)
  const { payment } = stack.bitcoin!.devAccounts[0]!
  for (const way of ['wallet-standard', 'sats-connect']) {
    await page.goto(`${stack.demo!.url}/?bitcoinWallet=${way}`)
    await page.evaluate(() => localStorage.clear())
    await page.reload()
    await connectBitcoin(page, payment.address)
    await page.reload()
    await page.getByRole('button', { name: new RegExp(shorten(payment.address)) }).click()
    await expect(page.getByRole('dialog', { name: 'Account' }).getByText('Connected with Tessera Dev Bitcoin Wallet')).toBeVisible()
  }
})

test('EVM, Solana and Bitcoin connected at once: Account switches between the three, and a reload keeps them', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const bitcoinAddress = stack.bitcoin!.devAccounts[0]!.payment.address
  const evmAddress = stack.devAccounts[0]!
  const solanaAddress = stack.solana!.devAccounts[0]!
  await page.goto(stack.demo!.url)
  let account = await connectBitcoin(page, bitcoinAddress)

  // Choosing another family's network while only Bitcoin is connected leads to that family's wallets.
  const addFamily = async (network: RegExp, wallet: RegExp, address: string) => {
    await account.getByRole('button', { name: /^Network / }).click()
    await page.getByRole('dialog', { name: 'Choose Network' }).getByRole('button', { name: network }).click()
    await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: wallet }).click()
    account = await openAccount(page, address)
    await expect(account.getByText(shorten(address))).toBeVisible()
  }
  await addFamily(new RegExp(`^${stack.chains[0]!.name} EVM`), /^Tessera Dev Wallet/, evmAddress)
  await addFamily(/^Solana Local Solana/, /^Tessera Dev Solana Wallet/, solanaAddress)

  await expect(account.getByRole('button', { name: /^Switch to Bitcoin/ })).toBeVisible()
  await expect(account.getByRole('button', { name: /^Switch to EVM/ })).toBeVisible()
  await account.getByRole('button', { name: /^Switch to Bitcoin/ }).click()
  await expect(account.getByText(shorten(bitcoinAddress))).toBeVisible()
  await expect(account.getByLabel('Balance')).toHaveText(/ BTC$/)

  await page.reload()
  await expect(page.getByRole('button', { name: new RegExp(shorten(bitcoinAddress)) })).toBeVisible()
  expect((await page.evaluate(() => JSON.parse(localStorage.getItem('tessera:v1:connectedNamespaces') ?? '[]') as string[])).sort()).toEqual(['bip122', 'eip155', 'solana'])
  account = await openAccount(page, bitcoinAddress)
  await expect(account.getByRole('button', { name: /^Switch to EVM/ })).toBeVisible()
  await expect(account.getByRole('button', { name: /^Switch to Solana/ })).toBeVisible()
})

test('sign in with Bitcoin, by the Wallet Standard and through sats-connect: the wallet signs the CAIP-122 message with BIP-322 and the session lands in the data service', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const bitcoin = stack.bitcoin!
  const { payment } = bitcoin.devAccounts[0]!
  for (const way of ['wallet-standard', 'sats-connect']) {
    await page.goto(`${stack.demo!.url}/?siwx=required&families=bip122&bitcoinWallet=${way}`)
    await page.evaluate(() => localStorage.clear())
    await page.reload()
    if (way === 'sats-connect') await recordSatsConnectAnswers(page)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Bitcoin Wallet/ }).click()
    await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Sign' }).click()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    const sessions = await page.evaluate(() => JSON.parse(localStorage.getItem('tessera:v1:siwxSessions') ?? '[]') as { id: string; message: string }[])
    expect(sessions).toHaveLength(1)
    expect(sessions[0]!.message).toContain('wants you to sign in with your Bitcoin account:')
    expect(sessions[0]!.message).toContain(payment.address)
    const session = await (await fetch(`${stack.services.api}/v1/sessions/${sessions[0]!.id}?projectId=${stack.services.projectId}`)).json()
    expect(session).toMatchObject({ caipAddress: `${bitcoin.caipNetworkId}:${payment.address}`, revoked: false })
    if (way === 'sats-connect') {
      // The signature came from the provider's JSON-RPC 2.0 answer to signMessage.
      const answers = await page.evaluate(() => (window as unknown as DevBitcoinWindow).satsConnectAnswers)
      expect(answers.filter(({ method }) => method === 'signMessage').map(({ answer }) => [answer.jsonrpc, 'result' in answer])).toEqual([['2.0', true]])
    }
  }
})

test('a phone wallet approves EVM and Bitcoin through our relay: its payment address, a 0.05 BTC PSBT it signs that confirms, and disconnecting ends both', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const { createNodeWallet } = await import('../../services/relay/testing/createNodeWallet')
  const bitcoin = stack.bitcoin!
  const phone = await createNodeWallet({
    relayUrl: stack.services.relay,
    chains: stack.chains.map((c) => ({ chainId: c.chainId, rpcUrl: c.rpcUrl })),
    bip122CaipNetworkIds: [bitcoin.caipNetworkId],
    addressIndex: 8,
    name: 'Phone Wallet',
  })
  try {
    const paying = phone.bitcoin!.keysOn(bitcoin.caipNetworkId).find((key) => key.purpose === 'payment')!.address
    const receiver = bitcoin.devAccounts[9]!.payment.address
    const [senderBefore, receiverBefore] = await Promise.all([addressStats(bitcoin.apiUrl, paying), addressStats(bitcoin.apiUrl, receiver)])
    await page.goto(stack.demo!.url)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /^WalletConnect/ }).click()
    const qr = page.getByRole('dialog', { name: 'WalletConnect' })
    await phone.pair((await qr.getByRole('link', { name: 'Open in a wallet on this device' }).getAttribute('href'))!)

    const account = await openAccount(page, phone.address)
    await account.getByRole('button', { name: /^Switch to Bitcoin/ }).click()
    // The payment address (SPEC §6), though the wallet listed its ordinals address first.
    await expect(account.getByText(shorten(paying))).toBeVisible()
    await expect(account.getByLabel('Balance')).toHaveText(`${asBtc(senderBefore.confirmed)} BTC`)

    await account.getByRole('button', { name: 'Send' }).click()
    const send = await fillSend(page, '0.05', receiver)
    const fee = send.getByText(/^Network fee: [\d.]+ BTC$/)
    await expect(fee).toBeVisible()
    const feeSats = BigInt(Math.round(Number(/([\d.]+) BTC/.exec((await fee.textContent())!)![1]) * 1e8))
    await send.getByRole('button', { name: 'Send' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Transaction confirmed' })).toBeVisible({ timeout: 30_000 })
    // The phone was asked to sign the PSBT (never to broadcast it), and the receiver holds exactly 0.05 BTC more.
    expect(phone.requests.map((r) => r.method)).toContain('signPsbt')
    const [senderAfter, receiverAfter] = await Promise.all([addressStats(bitcoin.apiUrl, paying), addressStats(bitcoin.apiUrl, receiver)])
    expect(receiverAfter.confirmed - receiverBefore.confirmed).toBe(5_000_000n)
    expect(senderBefore.confirmed + senderBefore.pending - (senderAfter.confirmed + senderAfter.pending)).toBe(5_000_000n + feeSats)

    // One session for both families: ending it on Bitcoin ends EVM too (SPEC §4).
    await openAccount(page, paying)
    await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Disconnect · Bitcoin' }).click()
    await expect(page.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    expect(await page.evaluate(() => localStorage.getItem('tessera:v1:connectedNamespaces'))).toBeNull()
  } finally {
    await phone.close()
  }
})
