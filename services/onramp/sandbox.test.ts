import { randomUUID } from 'node:crypto'
import { address, createSolanaRpc } from '@solana/kit'
import { createPublicClient, createWalletClient, erc20Abi, getAddress, http, parseEther, type Abi, type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import artifacts from '../chain/contracts.generated.json' with { type: 'json' }
import { startAnvil, type Anvil } from '../chain/anvil'
import { deriveSolanaDevKey, solanaDevKeys } from '../chain/solana/devKeys'
import { freePorts } from '../stack/ports'
import { startLocalSolana, type LocalSolana } from '../stack/startLocalSolana'
import { TEST_CARDS_SENTENCE } from './cards'
import type { OnrampSandboxConfigInput } from './config'
import type { SandboxOrder, SandboxQuote } from './protocol'
import { startOnrampSandbox, type OnrampSandboxServer, type StartOnrampSandboxParameters } from './server'
import { startWebhookReceiver, type WebhookReceiver } from './testing/startWebhookReceiver'

const CHAIN_ID = 31337
const EVM = `eip155:${CHAIN_ID}`
/** anvil's dev account 0, funded with 10,000 ETH. */
const TREASURY_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
/** The local Solana chain's dev key 0: 1,000 SOL and 1,000,000 TUSD. */
const solanaTreasury = solanaDevKeys()[0]!
const KEY_A = 'sandbox-key-a'
const KEY_B = 'sandbox-key-b'
const SECRET_A = 'whsec-a-0123456789abcdef'
const SECRET_B = 'whsec-b-0123456789abcdef'
const VISA = '4242 4242 4242 4242'
const card = (cardNumber = VISA) => ({ cardNumber, expiry: '12/49', cvc: '123', name: 'Ada Lovelace' })
const newEvmAddress = () => privateKeyToAccount(generatePrivateKey()).address
const newSolanaAddress = () => deriveSolanaDevKey(`onramp-test-${randomUUID()}`).address

describe('the on-ramp sandbox on anvil and the local Solana chain', () => {
  let anvil: Anvil
  let solana: LocalSolana
  let receiver: WebhookReceiver
  let sandbox: OnrampSandboxServer
  let tusd: Address
  let solanaNetwork: string
  const logLines: string[] = []
  const client = () => createPublicClient({ transport: http(anvil.rpcUrl) })

  /** The configuration every sandbox of this file shares; the tests that move the clock start their own. */
  const configFor = (receiverUrl: string): OnrampSandboxConfigInput => ({
    partners: [
      { apiKey: KEY_A, name: 'Sandbox A', feePercent: 1.5, webhookUrl: `${receiverUrl}/a`, webhookSecret: SECRET_A },
      { apiKey: KEY_B, name: 'Sandbox B', feePercent: 2, webhookUrl: `${receiverUrl}/b`, webhookSecret: SECRET_B },
    ],
    prices: { ETH: { USD: 3000, EUR: 2760 }, TUSD: { USD: 1, EUR: 0.92 }, SOL: { USD: 150, EUR: 138 } },
    assets: [
      { network: EVM, symbol: 'ETH', name: 'Ether', decimals: 18, rpcUrl: anvil.rpcUrl },
      { network: EVM, symbol: 'TUSD', name: 'Tessera Dollar', decimals: 6, address: tusd, rpcUrl: anvil.rpcUrl },
      { network: solanaNetwork, symbol: 'SOL', name: 'Solana', decimals: 9, rpcUrl: solana.manifest.rpcUrl },
      { network: solanaNetwork, symbol: 'TUSD', name: 'Tessera Dollar', decimals: 6, address: solana.manifest.mint.address, rpcUrl: solana.manifest.rpcUrl },
    ],
    treasuries: { [EVM]: TREASURY_KEY, [solanaNetwork]: Array.from(solanaTreasury.secretKey) },
    limits: { webhookRetryBaseMs: 20 },
  })
  const start = (overrides: Partial<StartOnrampSandboxParameters> = {}) =>
    startOnrampSandbox({ port: 0, pollingIntervalMs: 50, log: (line) => logLines.push(line), ...configFor(receiver.url), ...overrides })

  beforeAll(async () => {
    const ports = await freePorts()
    ;[anvil, solana, receiver] = await Promise.all([
      startAnvil({ port: ports.anvil, chainId: CHAIN_ID }),
      startLocalSolana({ port: ports.solana, wsPort: ports.solanaWs }),
      startWebhookReceiver({ secrets: { '/a': SECRET_A, '/b': SECRET_B } }),
    ])
    solanaNetwork = solana.manifest.caipNetworkId
    const wallet = createWalletClient({ account: privateKeyToAccount(TREASURY_KEY), chain: { id: CHAIN_ID, name: 'anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [anvil.rpcUrl] } } }, transport: http(anvil.rpcUrl) })
    const hash = await wallet.deployContract({
      abi: artifacts.DemoToken.abi as Abi,
      bytecode: artifacts.DemoToken.bytecode as Hex,
      args: ['Tessera Dollar', 'TUSD', 6, [wallet.account.address], 1_000_000n * 10n ** 6n],
    })
    tusd = getAddress((await client().waitForTransactionReceipt({ hash, pollingInterval: 50 })).contractAddress!)
    sandbox = await start()
  }, 60_000)
  afterAll(async () => {
    await sandbox?.stop()
    await Promise.all([anvil?.stop(), solana?.stop(), receiver?.stop()])
  })

  const call = (path: string, { key = KEY_A, body }: { key?: string; body?: unknown } = {}) =>
    fetch(`${sandbox.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  const quote = async (request: Partial<Record<string, string>>, key = KEY_A) => {
    const response = await call('/v1/quote', { key, body: { paymentCurrency: 'USD', paymentMethod: 'card', amount: '100', network: EVM, asset: 'ETH', ...request } })
    expect(response.status).toBe(200)
    return (await response.json()) as SandboxQuote
  }
  /** A quote and its session: the order waiting on its checkout page. */
  const openOrder = async ({ destination = newEvmAddress() as string, key = KEY_A, redirectUrl, ...request }: Partial<Record<string, string>> = {}) => {
    const offer = await quote(request, key)
    const response = await call('/v1/sessions', {
      key,
      body: { quoteId: offer.quoteId, partnerOrderId: `site-${randomUUID()}`, destination, partnerUserId: 'visitor-1', ...(redirectUrl ? { redirectUrl } : {}) },
    })
    expect(response.status).toBe(200)
    const session = (await response.json()) as { url: string; orderId: string }
    return { ...session, quote: offer, destination }
  }
  const pay = (orderId: string, fields: Record<string, string> = {}, server = sandbox) =>
    fetch(`${server.url}/checkout/${orderId}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields), redirect: 'manual' })
  const reportsOf = (orderId: string) => receiver.received.filter(({ event }) => event.order.orderId === orderId)
  const statusesOf = (orderId: string) => reportsOf(orderId).map(({ event }) => event.order.status)
  const waitForStatus = (orderId: string, status: SandboxOrder['status']) => vi.waitFor(() => expect(statusesOf(orderId)).toContain(status), { timeout: 15_000, interval: 20 })
  const orderOf = async (orderId: string, key = KEY_A) => (await (await call(`/v1/orders/${orderId}`, { key })).json()) as SandboxOrder
  const solanaRpc = () => createSolanaRpc(solana.manifest.rpcUrl)
  const solanaTokenBalance = async (owner: string) => {
    const { value } = await solanaRpc().getTokenAccountsByOwner(address(owner), { mint: address(solana.manifest.mint.address) }, { encoding: 'jsonParsed' }).send()
    return value.map(({ account }) => account.data.parsed.info.tokenAmount.amount)
  }

  it('publishes what it sells: USD and EUR with the spec limits, and the configured assets', async () => {
    const response = await call('/v1/options')
    expect(response.status).toBe(200)
    const limits = [
      { id: 'card', min: '10.00', max: '7500.00' },
      { id: 'bank', min: '10.00', max: '25000.00' },
    ]
    expect(await response.json()).toEqual({
      countries: [],
      paymentCurrencies: [
        { id: 'USD', methods: limits },
        { id: 'EUR', methods: limits },
      ],
      assets: [
        { network: EVM, symbol: 'ETH', name: 'Ether', decimals: 18 },
        { network: EVM, symbol: 'TUSD', name: 'Tessera Dollar', decimals: 6, address: tusd },
        { network: solanaNetwork, symbol: 'SOL', name: 'Solana', decimals: 9 },
        { network: solanaNetwork, symbol: 'TUSD', name: 'Tessera Dollar', decimals: 6, address: solana.manifest.mint.address },
      ],
    })
  })

  it("quotes with each partner's fee: amount − fees at the price, rounded down to 6 places", async () => {
    const before = Date.now()
    const a = await quote({ amount: '100' })
    expect(a).toEqual({
      quoteId: expect.stringMatching(/^quo_/),
      paymentCurrency: 'USD',
      paymentMethod: 'card',
      paymentTotal: '100.00',
      fees: { provider: '1.50', network: '0.50' },
      network: EVM,
      asset: 'ETH',
      purchaseAmount: '0.032666', // 98.00 / 3000 = 0.0326666…
      price: '3000.00',
      expiresAt: expect.any(Number),
    })
    expect(a.expiresAt - before).toBeGreaterThanOrEqual(120_000)
    expect(a.expiresAt - Date.now()).toBeLessThanOrEqual(120_000)
    expect(await quote({ amount: '100' }, KEY_B)).toMatchObject({ fees: { provider: '2.00', network: '0.50' }, purchaseAmount: '0.0325' })
    expect(await quote({ paymentCurrency: 'EUR', amount: '33.33' })).toMatchObject({ paymentTotal: '33.33', fees: { provider: '0.50', network: '0.50' }, purchaseAmount: '0.011713', price: '2760.00' })
    expect(await quote({ network: solanaNetwork, asset: 'SOL', amount: '50' })).toMatchObject({ purchaseAmount: '0.325', price: '150.00' })
    expect(await quote({ network: solanaNetwork, asset: 'TUSD', paymentCurrency: 'EUR', paymentMethod: 'bank', amount: '20' })).toMatchObject({ fees: { provider: '0.30', network: '0.50' }, purchaseAmount: '20.869565', price: '0.92' })
  })

  it.each([
    ['under the card minimum', { amount: '9.99' }, 'amount', 'The amount must be between 10.00 and 7,500.00 USD for card.'],
    ['over the card maximum', { amount: '7500.01' }, 'amount', 'The amount must be between 10.00 and 7,500.00 USD for card.'],
    ['over the bank maximum', { amount: '25000.01', paymentMethod: 'bank', paymentCurrency: 'EUR' }, 'amount', 'The amount must be between 10.00 and 25,000.00 EUR for bank transfer.'],
    ['a fraction of a cent', { amount: '10.001' }, 'amount', 'The amount must have at most 2 decimal places in USD.'],
    ['an unknown currency', { paymentCurrency: 'GBP' }, 'paymentCurrency', 'The sandbox takes payments in USD or EUR, not GBP.'],
    ['an unknown network', { network: 'eip155:1' }, 'network', 'The sandbox sells nothing on the network eip155:1.'],
    ['an asset not sold on the network', { asset: 'SOL' }, 'asset', `The sandbox sells ETH, TUSD on ${EVM}, not SOL.`],
    ['an unknown payment method', { paymentMethod: 'crypto' }, 'paymentMethod', undefined],
  ])('refuses a quote of %s with 400 naming the field', async (_, request, field, message) => {
    const response = await call('/v1/quote', { body: { paymentCurrency: 'USD', paymentMethod: 'card', amount: '100', network: EVM, asset: 'ETH', ...request } })
    expect(response.status).toBe(400)
    const { error } = (await response.json()) as { error: { field: string; message: string } }
    expect(error.field).toBe(field)
    if (message) expect(error.message).toBe(message)
  })

  it('quotes the limits themselves', async () => {
    await quote({ amount: '10' })
    await quote({ amount: '7500.00' })
    await quote({ amount: '25000', paymentMethod: 'bank' })
  })

  it('refuses every partner route without a configured API key (401, JSON)', async () => {
    for (const [path, body] of [['/v1/options'], ['/v1/quote', {}], ['/v1/sessions', {}], ['/v1/orders/ord_x']] as const) {
      for (const key of ['wrong-key-123', '']) {
        const response = await call(path, { key, ...(body ? { body } : {}) })
        expect(response.status).toBe(401)
        expect(response.headers.get('www-authenticate')).toBe('Bearer')
        expect(await response.json()).toMatchObject({ error: { code: 'UNAUTHORIZED', field: 'authorization' } })
      }
    }
    expect((await fetch(`${sandbox.url}/v1/options`, { headers: { authorization: `Basic ${KEY_A}` } })).status).toBe(401)
  })

  it('pays a card order in ETH on anvil: exactly the quoted amount, reported pending → sent → completed, signed', async () => {
    const treasury = privateKeyToAccount(TREASURY_KEY).address
    const { orderId, url, destination, quote: offer } = await openOrder({ amount: '100', redirectUrl: 'https://site.test/done' })
    expect(url).toBe(`${sandbox.url}/checkout/${orderId}`)

    const page = await fetch(url)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'nonce-[\w+/=]+'; form-action 'self'; frame-ancestors 'none'/)
    const html = await page.text()
    expect(html).toContain('with <strong>Sandbox A</strong>')
    expect(html).toContain('100.00 USD')
    expect(html).toContain('0.032666 ETH (Ether)')
    expect(html).toContain(`${destination.slice(0, 6)}…${destination.slice(-4)}`)
    expect(html).toContain(`<form method="post" action="/checkout/${orderId}/pay" novalidate>`)

    const paid = await pay(orderId, card())
    expect(paid.status).toBe(303)
    expect(paid.headers.get('location')).toBe(`/checkout/${orderId}`)
    await waitForStatus(orderId, 'completed')

    const reports = reportsOf(orderId)
    expect(reports.map(({ event }) => event.order.status)).toEqual(['pending', 'sent', 'completed'])
    expect(reports.every(({ isSigned, path }) => isSigned && path === '/a')).toBe(true)
    const txHash = reports[1]!.event.order.txHash as Hex
    expect(txHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(reports[2]!.event.order).toMatchObject({ txHash, purchaseAmount: '0.032666', destination, asset: 'ETH', network: EVM })
    expect(await client().getBalance({ address: destination as Address })).toBe(parseEther(offer.purchaseAmount))
    expect(await client().getTransactionReceipt({ hash: txHash })).toMatchObject({ status: 'success', from: treasury.toLowerCase(), to: destination.toLowerCase() })
    expect(await orderOf(orderId)).toEqual({ orderId, partnerOrderId: reports[0]!.event.order.partnerOrderId, status: 'completed', network: EVM, asset: 'ETH', destination, purchaseAmount: '0.032666', txHash })

    const done = await (await fetch(url)).text()
    expect(done).toContain('<h1>Payment received</h1>')
    expect(done).toContain('<strong>Completed:</strong> 0.032666 ETH arrived')
    expect(done).toContain(txHash)
    expect(done).toContain('<a href="https://site.test/done">Return to the site</a>')
    expect(done).not.toContain('http-equiv="refresh"')
  })

  it('pays a bank order in an ERC-20 on anvil by transfer(), to the unit', async () => {
    const { orderId, destination } = await openOrder({ asset: 'TUSD', amount: '50', paymentMethod: 'bank', key: KEY_B })
    const html = await (await fetch(`${sandbox.url}/checkout/${orderId}`)).text()
    expect(html).toContain('<button type="submit">Confirm the bank transfer</button>')
    expect((await pay(orderId)).status).toBe(303)
    await waitForStatus(orderId, 'completed')
    expect(statusesOf(orderId)).toEqual(['pending', 'sent', 'completed'])
    expect(reportsOf(orderId).every(({ isSigned, path }) => isSigned && path === '/b')).toBe(true)
    // 50.00 − 1.00 − 0.50 = 48.50 at 1.00
    expect(await client().readContract({ address: tusd, abi: erc20Abi, functionName: 'balanceOf', args: [destination as Address] })).toBe(48_500_000n)
  })

  it('pays SOL on the local Solana chain: exactly the quoted lamports', async () => {
    const destination = newSolanaAddress()
    const { orderId } = await openOrder({ network: solanaNetwork, asset: 'SOL', amount: '50', destination })
    expect((await pay(orderId, card('5555 5555 5555 4444'))).status).toBe(303)
    await waitForStatus(orderId, 'completed')
    expect(statusesOf(orderId)).toEqual(['pending', 'sent', 'completed'])
    const { txHash } = await orderOf(orderId)
    expect(txHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/)
    expect((await solanaRpc().getBalance(address(destination)).send()).value).toBe(325_000_000n) // 0.325 SOL
  })

  it('pays an SPL token on the local Solana chain, making the destination its token account', async () => {
    const destination = newSolanaAddress()
    const { orderId } = await openOrder({ network: solanaNetwork, asset: 'TUSD', paymentCurrency: 'EUR', paymentMethod: 'bank', amount: '20', destination })
    expect((await pay(orderId)).status).toBe(303)
    await waitForStatus(orderId, 'completed')
    expect(await solanaTokenBalance(destination)).toEqual(['20869565'])
  })

  it('fails the order of a declined card, pays nothing and reports it', async () => {
    const { orderId, url, destination } = await openOrder({ amount: '20' })
    expect((await pay(orderId, card('4000 0000 0000 0002'))).status).toBe(303)
    await waitForStatus(orderId, 'failed')
    expect(statusesOf(orderId)).toEqual(['pending', 'failed'])
    expect(await orderOf(orderId)).toMatchObject({ status: 'failed', failureReason: 'Your card was declined.' })
    expect(await client().getBalance({ address: destination as Address })).toBe(0n)
    const html = await (await fetch(url)).text()
    expect(html).toContain('<h1>Payment failed</h1>')
    expect(html).toContain('role="alert"><p>Your card was declined.</p>')
    const again = await pay(orderId, card())
    expect(again.status).toBe(409)
    expect(await again.text()).toContain('This order can no longer be paid.')
  })

  it('refuses a card that is no test card, naming the test cards, and lets the visitor pay with one after', async () => {
    const { orderId, destination, quote: offer } = await openOrder({ amount: '30' })
    const refused = await pay(orderId, card('4111 1111 1111 1111'))
    expect(refused.status).toBe(400)
    const html = await refused.text()
    expect(html).toContain(`<div class="alert" role="alert"><p>${TEST_CARDS_SENTENCE}</p>`)
    expect(html).toContain('value="4111 1111 1111 1111"')
    expect((await orderOf(orderId)).status).toBe('pending')

    const invalid = await pay(orderId, { cardNumber: '4242 4242 4242 4241', expiry: '01/20', cvc: '12', name: '' })
    expect(invalid.status).toBe(400)
    const errors = await invalid.text()
    for (const message of ['The card number is not valid', 'The card has expired.', 'must be 3 or 4 digits', 'Enter the name on the card.']) expect(errors).toContain(message)
    expect(errors.match(/aria-invalid="true"/g)).toHaveLength(4)

    expect((await pay(orderId, card())).status).toBe(303)
    await waitForStatus(orderId, 'completed')
    expect(offer.purchaseAmount).toBe('0.009683') // 30.00 − 0.45 − 0.50 = 29.05, / 3000
    expect(await client().getBalance({ address: destination as Address })).toBe(parseEther(offer.purchaseAmount))
  })

  it('takes one payment of two sent at once, and refuses any after: the destination is paid once', async () => {
    const { orderId, destination, quote: offer } = await openOrder({ amount: '60' })
    const answers = await Promise.all([pay(orderId, card()), pay(orderId, card()), pay(orderId, card())])
    expect(answers.map(({ status }) => status).sort()).toEqual([303, 409, 409])
    const refusal = await answers.find(({ status }) => status === 409)!.text()
    expect(refusal).toContain('This order is paid already: it is not charged twice.')
    await waitForStatus(orderId, 'completed')
    expect((await pay(orderId, card())).status).toBe(409)
    expect(statusesOf(orderId)).toEqual(['pending', 'sent', 'completed'])
    expect(await client().getBalance({ address: destination as Address })).toBe(parseEther(offer.purchaseAmount))
  })

  describe('sessions', () => {
    const sessionOf = (body: Record<string, unknown>, key = KEY_A) => call('/v1/sessions', { key, body: { partnerOrderId: 'site-1', partnerUserId: 'visitor-1', destination: newEvmAddress(), ...body } })
    const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; field?: string; message: string } }).error

    it('refuses an unknown quote, another partner’s quote and a used quote, naming quoteId', async () => {
      const unknown = await sessionOf({ quoteId: 'quo_nope' })
      expect(unknown.status).toBe(400)
      expect(await errorOf(unknown)).toMatchObject({ code: 'QUOTE_NOT_FOUND', field: 'quoteId' })

      const { quoteId } = await quote({})
      const stolen = await sessionOf({ quoteId }, KEY_B)
      expect(await errorOf(stolen)).toMatchObject({ code: 'QUOTE_NOT_FOUND', field: 'quoteId' })
      expect((await sessionOf({ quoteId })).status).toBe(200)
      const used = await sessionOf({ quoteId })
      expect(used.status).toBe(400)
      expect(await errorOf(used)).toMatchObject({ code: 'QUOTE_USED', field: 'quoteId' })
    })

    it('refuses a destination not of the asset’s network (400 naming destination) without using the quote', async () => {
      const { quoteId } = await quote({})
      const mixedCase = newEvmAddress()
      const badChecksum = mixedCase.slice(0, 2) + mixedCase.slice(2).replace(/[a-f]/, (c) => c.toUpperCase()).replace(/[A-F]/, (c) => c.toLowerCase())
      for (const destination of ['not an address', newSolanaAddress(), '0x1234', badChecksum === mixedCase ? '0xZZ' : badChecksum, `${newEvmAddress()}<script>`]) {
        const response = await sessionOf({ quoteId, destination })
        expect(response.status).toBe(400)
        expect(await errorOf(response)).toMatchObject({ field: 'destination' })
      }
      const solanaQuote = await quote({ network: solanaNetwork, asset: 'SOL' })
      const evmToSolana = await sessionOf({ quoteId: solanaQuote.quoteId, destination: newEvmAddress() })
      expect(await errorOf(evmToSolana)).toMatchObject({ field: 'destination', message: `The destination must be a Solana address (a base58 public key) on ${solanaNetwork}.` })
      // Lower case is fine, and stored checksummed.
      const lower = newEvmAddress()
      const accepted = await sessionOf({ quoteId, destination: lower.toLowerCase() })
      expect(accepted.status).toBe(200)
      expect((await orderOf(((await accepted.json()) as { orderId: string }).orderId)).destination).toBe(lower)
    })

    it('refuses a redirectUrl that is no http(s) URL', async () => {
      const { quoteId } = await quote({})
      for (const redirectUrl of ['javascript:alert(1)', 'not a url', 'data:text/html,hi']) {
        const response = await sessionOf({ quoteId, redirectUrl })
        expect(await errorOf(response)).toMatchObject({ field: 'redirectUrl' })
      }
    })

    it("keeps a partner's orders its own", async () => {
      const { orderId } = await openOrder({})
      expect((await call(`/v1/orders/${orderId}`, { key: KEY_B })).status).toBe(404)
      expect((await call('/v1/orders/ord_unknown')).status).toBe(404)
    })
  })

  describe('on a moved clock', () => {
    let offsetMs = 0
    let clocked: OnrampSandboxServer
    const now = () => Date.now() + offsetMs
    beforeAll(async () => {
      clocked = await start({
        now,
        // A second EVM network whose node is down: its transfers cannot be sent.
        assets: [...configFor(receiver.url).assets, { network: 'eip155:31338', symbol: 'ETH', name: 'Ether', decimals: 18, rpcUrl: 'http://127.0.0.1:9' }],
        treasuries: { ...configFor(receiver.url).treasuries, 'eip155:31338': TREASURY_KEY },
      })
    })
    afterAll(() => clocked?.stop())
    const clockedCall = (path: string, body?: unknown) =>
      fetch(`${clocked.url}${path}`, { method: body ? 'POST' : 'GET', headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) })
    const clockedOrder = async (request: Record<string, string> = {}) => {
      const offer = (await (await clockedCall('/v1/quote', { paymentCurrency: 'USD', paymentMethod: 'card', amount: '100', network: EVM, asset: 'ETH', ...request })).json()) as SandboxQuote
      return (await (await clockedCall('/v1/sessions', { quoteId: offer.quoteId, partnerOrderId: 'site-2', destination: newEvmAddress(), partnerUserId: 'u' })).json()) as { orderId: string }
    }

    it('refuses a quote past its 2 minutes', async () => {
      const { quoteId } = (await (await clockedCall('/v1/quote', { paymentCurrency: 'USD', paymentMethod: 'card', amount: '100', network: EVM, asset: 'ETH' })).json()) as SandboxQuote
      offsetMs += 120_001
      const response = await clockedCall('/v1/sessions', { quoteId, partnerOrderId: 'site-2', destination: newEvmAddress(), partnerUserId: 'u' })
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ error: { code: 'QUOTE_EXPIRED', field: 'quoteId' } })
    })

    it('fails an order not paid within 30 minutes, reports it, and refuses its payment', async () => {
      const { orderId } = await clockedOrder()
      offsetMs += 29 * 60_000
      expect(((await (await clockedCall(`/v1/orders/${orderId}`)).json()) as SandboxOrder).status).toBe('pending')
      offsetMs += 60_000
      expect(await (await clockedCall(`/v1/orders/${orderId}`)).json()).toMatchObject({ status: 'failed', failureReason: 'The order expired: it was not paid within 30 minutes.' })
      const refused = await pay(orderId, card(), clocked)
      expect(refused.status).toBe(409)
      expect(await refused.text()).toContain('The order expired')
      // The receiver checks signatures at the real time: these were signed on the moved clock.
      await vi.waitFor(() => expect(statusesOf(orderId)).toEqual(['pending', 'failed']), { timeout: 5_000, interval: 20 })
    })

    it('fails (refunded) an order whose transfer cannot be sent, and says so on its page', async () => {
      const { orderId } = await clockedOrder({ network: 'eip155:31338' })
      expect((await pay(orderId, card(), clocked)).status).toBe(303)
      await vi.waitFor(() => expect(statusesOf(orderId)).toEqual(['pending', 'failed']), { timeout: 20_000, interval: 20 })
      expect(reportsOf(orderId)[1]!.event.order.failureReason).toBe('The transfer could not be sent, so the payment was refunded.')
      expect(await (await fetch(`${clocked.url}/checkout/${orderId}`)).text()).toContain('<h1>Payment refunded</h1>')
      expect(logLines.some((line) => line.includes(`order ${orderId}: the transfer of`) && line.includes('could not be sent'))).toBe(true)
    })
  })

  it("retries a partner's webhook that fails, delivering each report once", async () => {
    receiver.failNext('/b', 2)
    const { orderId } = await openOrder({ key: KEY_B, amount: '10' })
    await waitForStatus(orderId, 'pending')
    const [report] = reportsOf(orderId)
    expect(receiver.tries.get(report!.event.eventId)).toBe(3)
    expect(reportsOf(orderId)).toHaveLength(1)
  })

  it('keeps at most limits.orders orders, dropping the oldest finished, and refuses sessions while all are open', async () => {
    const small = await start({ limits: { orders: 3, quotes: 2, webhookRetryBaseMs: 20 } })
    try {
      const smallCall = (path: string, body: unknown) => fetch(`${small.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
      const session = async () => {
        const { quoteId } = (await (await smallCall('/v1/quote', { paymentCurrency: 'USD', paymentMethod: 'card', amount: '10', network: EVM, asset: 'ETH' })).json()) as SandboxQuote
        return smallCall('/v1/sessions', { quoteId, partnerOrderId: 'site-3', destination: newEvmAddress(), partnerUserId: 'u' })
      }
      const ids: string[] = []
      for (let index = 0; index < 3; index++) ids.push(((await (await session()).json()) as { orderId: string }).orderId)
      const full = await session()
      expect(full.status).toBe(503)
      expect(await full.json()).toMatchObject({ error: { code: 'AT_CAPACITY' } })
      expect(small.stats()).toMatchObject({ orders: 3, quotes: 2 })

      for (const orderId of ids.slice(0, 2)) expect((await pay(orderId, card('4000000000000002'), small)).status).toBe(303)
      for (let index = 0; index < 2; index++) expect((await session()).status).toBe(200)
      expect(small.stats().orders).toBe(3)
      // The first declined is gone, the open one is kept.
      expect((await fetch(`${small.url}/checkout/${ids[0]}`)).status).toBe(404)
      expect((await fetch(`${small.url}/checkout/${ids[2]}`)).status).toBe(200)
      expect((await session()).status).toBe(503)
    } finally {
      await small.stop()
    }
  })

  it('never logged a failure to answer', () => {
    expect(logLines.filter((line) => line.includes('failed to answer') || line.includes('onramp sandbox: POST') || line.includes('onramp sandbox: GET'))).toEqual([])
  })
})
