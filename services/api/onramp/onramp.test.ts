// The data service's on-ramp routes against our sandbox provider (services/onramp) on a real anvil: options and
// quotes side by side, the checkout URL and its order, the sandbox's signed reports moving the order (forgeries,
// replays, orders never issued and backward reports refused), and the checkout URL builder's refusals.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createPublicClient, http, parseEther, type Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startAnvil, type Anvil } from '../../chain/anvil'
import { seedChain } from '../../chain/seedChain'
import { signSandboxEvent, SIGNATURE_HEADER } from '../../onramp/protocol'
import { startOnrampSandbox, type OnrampSandboxServer } from '../../onramp/server'
import { freePorts } from '../../stack/ports'
import { openDatabase } from '../db/createDatabase'
import { startApiServer, type ApiServer } from '../server'

const PROJECT = 'site'
const SITE = 'https://site.example'
const TREASURY = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6'
const partners = [
  { id: 'cheap', name: 'Cheap Pay', feePercent: 1, apiKey: 'cheap-api-key-123', webhookSecret: 'cheap-webhook-secret-0123456789' },
  { id: 'dear', name: 'Dear Pay', feePercent: 2, apiKey: 'dear-api-key-4567', webhookSecret: 'dear-webhook-secret-0123456789ab' },
]

describe('on-ramp routes with the sandbox provider', () => {
  let anvil: Anvil
  let sandbox: OnrampSandboxServer
  let api: ApiServer
  const logged: string[] = []

  beforeAll(async () => {
    const ports = await freePorts()
    anvil = await startAnvil({ port: ports.anvil, chainId: 31337 })
    const seeded = await seedChain({ rpcUrl: anvil.rpcUrl })
    const apiUrl = `http://127.0.0.1:${ports.api}`
    sandbox = await startOnrampSandbox({
      port: ports.onramp,
      partners: partners.map(({ name, feePercent, apiKey, webhookSecret, id }) => ({ name, feePercent, apiKey, webhookSecret, webhookUrl: `${apiUrl}/v1/onramp/webhooks/${id}` })),
      prices: { ETH: { USD: 3000, EUR: 2760 } },
      assets: [{ network: 'eip155:31337', symbol: 'ETH', name: 'Ether', decimals: 18, rpcUrl: anvil.rpcUrl }],
      treasuries: { 'eip155:31337': TREASURY },
      pollingIntervalMs: 50,
    })
    // The server closes the database when it stops.
    api = await startApiServer({
      port: ports.api,
      db: await openDatabase({}),
      projects: [{ id: PROJECT, allowedOrigins: [SITE] }],
      chains: [{ chainId: 31337, name: 'Local', rpcUrl: anvil.rpcUrl, multicall3: seeded.multicall3, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, tokens: seeded.tokens }],
      onramp: { providers: partners.map(({ id, name, apiKey, webhookSecret }) => ({ type: 'sandbox' as const, id, name, url: sandbox.url, apiKey, webhookSecret })) },
      log: (line) => void logged.push(line),
    })
  }, 60_000)
  afterAll(async () => {
    await api?.stop()
    await sandbox?.stop()
    await anvil?.stop()
  })

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${api.url}${path}${path.includes('webhooks') ? '' : `?projectId=${PROJECT}`}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) })
  const get = (path: string) => fetch(`${api.url}${path}?projectId=${PROJECT}`)
  const balance = (address: Address) => createPublicClient({ transport: http(anvil.rpcUrl) }).getBalance({ address })
  const newAddress = () => privateKeyToAccount(generatePrivateKey()).address
  const checkout = async (destination: Address, amount = 50, extra: Record<string, unknown> = {}) => {
    const response = await post('/v1/generators/onrampurl', { destinationWallets: [{ address: destination }], defaultNetwork: 'eip155:31337', defaultAsset: 'ETH', partnerUserId: 'visitor-1', presetFiatAmount: amount, ...extra })
    return { status: response.status, json: (await response.json()) as { url: string; orderId: string; quote: { purchaseAmount: string }; error?: { field: string; message: string } } }
  }
  const pay = (url: string, cardNumber = '4242 4242 4242 4242') =>
    fetch(`${url}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ cardNumber, expiry: '12/40', cvc: '123', name: 'Ada Lovelace' }), redirect: 'manual' })
  const order = async (orderId: string) => (await (await get(`/v1/onramp/orders/${orderId}`)).json()) as { status: string; txHash?: string; purchaseAmount: string; failureReason?: string }

  it('merges both providers’ options and sets their quotes side by side, most received first', async () => {
    const options = (await (await get('/v1/onramp/options')).json()) as { providers: unknown[]; options: { paymentCurrencies: { id: string; methods: unknown[] }[]; assets: unknown[] }; isEstimate: boolean }
    expect(options.isEstimate).toBe(false)
    expect(options.providers).toEqual([{ id: 'cheap', name: 'Cheap Pay' }, { id: 'dear', name: 'Dear Pay' }])
    expect(options.options.paymentCurrencies[0]).toEqual({ id: 'USD', methods: [{ id: 'card', min: '10.00', max: '7500.00' }, { id: 'bank', min: '10.00', max: '25000.00' }] })
    expect(options.options.assets).toEqual([{ network: 'eip155:31337', symbol: 'ETH', name: 'Ether', decimals: 18 }])
    const quote = (await (await post('/v1/onramp/quote', { purchaseCurrency: { id: 'ETH' }, paymentCurrency: { id: 'USD' }, amount: '100', network: 'eip155:31337', paymentMethod: 'card' })).json()) as { quotes: { provider: string; fees: { provider: string }; purchaseAmount: string }[]; isEstimate: boolean }
    expect(quote.isEstimate).toBe(false)
    expect(quote.quotes.map((q) => [q.provider, q.fees.provider])).toEqual([['cheap', '1.00'], ['dear', '2.00']])
    // 100 USD less 1 % and the 0.50 network fee, at 3,000 USD per ETH.
    expect(quote.quotes[0]!.purchaseAmount).toBe('0.032833')
  })

  it('says an amount beyond the card limit in a sentence with the limits', async () => {
    const response = await post('/v1/onramp/quote', { purchaseCurrency: { id: 'ETH' }, paymentCurrency: { id: 'USD' }, amount: '8000', network: 'eip155:31337', paymentMethod: 'card' })
    expect(response.status).toBe(400)
    expect((await response.json()).error).toMatchObject({ field: 'amount', message: 'The amount must be between 10.00 USD and 7,500.00 USD for a card' })
  })

  it('hands off to the checkout, and the paid order lands: exactly the quoted amount, the order completed with its hash', async () => {
    const destination = newAddress()
    const { status, json } = await checkout(destination)
    expect(status).toBe(200)
    expect(json.url).toMatch(new RegExp(`^${sandbox.url}/checkout/[\\w-]+$`))
    expect(await order(json.orderId)).toMatchObject({ status: 'pending', purchaseAmount: json.quote.purchaseAmount })
    expect((await pay(json.url)).status).toBe(303)
    await vi.waitFor(async () => expect((await order(json.orderId)).status).toBe('completed'), { timeout: 20_000, interval: 100 })
    expect(await balance(destination)).toBe(parseEther(json.quote.purchaseAmount))
    const { txHash } = await order(json.orderId)
    expect(txHash).toMatch(/^0x[0-9a-f]{64}$/)
    // History shows the payment as a purchase once the indexer has read its block; other receipts stay receipts.
    await vi.waitFor(
      async () => {
        const { data } = (await (await get(`/v1/account/${destination}/history`)).json()) as { data: { metadata: { hash: string; operationType: string } }[] }
        expect(data.map((tx) => [tx.metadata.hash, tx.metadata.operationType])).toEqual([[txHash, 'buy']])
      },
      { timeout: 15_000, interval: 200 },
    )
  })

  it('a declined test card fails the order and pays nothing', async () => {
    const destination = newAddress()
    const { json } = await checkout(destination, 20)
    await pay(json.url, '4000 0000 0000 0002')
    await vi.waitFor(async () => expect((await order(json.orderId)).status).toBe('failed'), { timeout: 10_000, interval: 100 })
    expect((await order(json.orderId)).failureReason).toBe('Your card was declined.')
    expect(await balance(destination)).toBe(0n)
  })

  it('refuses forged reports, replays, orders it never issued and reports that would go back', async () => {
    const { json } = await checkout(newAddress(), 30)
    const secret = partners[0]!.webhookSecret
    const event = (eventId: string, orderId: string, status: string) =>
      JSON.stringify({ eventId, createdAt: Date.now(), order: { orderId: 'sandbox-order', partnerOrderId: orderId, status, network: 'eip155:31337', asset: 'ETH', destination: newAddress(), purchaseAmount: '1', ...(status === 'sent' ? { txHash: `0x${'1'.repeat(64)}` } : {}) } })
    const report = (body: string, signature = signSandboxEvent(secret, body), provider = 'cheap') => post(`/v1/onramp/webhooks/${provider}`, body, { [SIGNATURE_HEADER]: signature })
    const sent = event('e-1', json.orderId, 'sent')
    // A wrong signature, another provider's secret, an old timestamp: not the provider's.
    expect((await report(sent, signSandboxEvent('not-the-secret-at-all-000000', sent))).status).toBe(401)
    expect((await report(sent, signSandboxEvent(partners[1]!.webhookSecret, sent))).status).toBe(401)
    expect((await report(sent, signSandboxEvent(secret, sent, Math.floor(Date.now() / 1000) - 3_600))).status).toBe(401)
    expect((await report(sent, undefined, 'dear')).status).toBe(401)
    expect((await report(sent, 't=1,v1=zz')).status).toBe(401)
    expect((await report(event('e-2', 'f'.repeat(32), 'sent'))).status).toBe(404)
    expect((await report(sent)).status).toBe(200)
    expect(await order(json.orderId)).toMatchObject({ status: 'sent' })
    expect((await report(sent)).status).toBe(409)
    expect((await report(event('e-3', json.orderId, 'pending'))).status).toBe(409)
    expect((await post('/v1/onramp/webhooks/unknown', sent)).status).toBe(404)
    expect(await order(json.orderId)).toMatchObject({ status: 'sent' })
  })

  it('refuses a destination that is not an address of its network, an amount outside the limits and an unknown asset, each naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ destinationWallets: [{ address: "$'$'" }] }, 'destinationWallets.0.address'],
      [{ destinationWallets: [{ address: 'So11111111111111111111111111111111111111112' }] }, 'destinationWallets.0.address'],
      [{ presetFiatAmount: 5 }, 'presetFiatAmount'],
      [{ presetFiatAmount: 7_501 }, 'presetFiatAmount'],
      [{ defaultAsset: 'DOGE' }, 'defaultAsset'],
      [{ provider: 'nobody' }, 'provider'],
      [{ paymentCurrency: 'JPY' }, 'paymentCurrency'],
    ]
    for (const [change, field] of cases) {
      const response = await post('/v1/generators/onrampurl', { destinationWallets: [{ address: newAddress() }], defaultNetwork: 'eip155:31337', defaultAsset: 'ETH', partnerUserId: 'visitor-2', presetFiatAmount: 50, ...change })
      expect([response.status, (await response.json()).error.field], JSON.stringify(change)).toEqual([400, field])
    }
    expect((await get(`/v1/onramp/orders/${'0'.repeat(32)}`)).status).toBe(404)
    expect((await get('/v1/onramp/orders/not-an-id')).status).toBe(400)
  })

  it('bounds the orders a visitor may leave waiting', async () => {
    const destination = newAddress()
    const statuses: number[] = []
    for (let i = 0; i < 21; i++) statuses.push((await checkout(destination, 10, { partnerUserId: 'flooder' })).status)
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true)
    expect(statuses[20]).toBe(429)
    expect(logged.filter((line) => line.includes('500'))).toEqual([])
  }, 60_000)
})
