import { generateKeyPairSync, type KeyObject } from 'node:crypto'
import { decodeProtectedHeader, jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'
import { createCoinbaseOnramp, MAX_ANSWER_BYTES, type CreateCoinbaseOnrampParameters } from './coinbase'
import { OnrampProviderError, type OnrampQuote } from './provider'
import recordedOptions from './recorded/coinbase-buy-options.json'
import recordedQuote from './recorded/coinbase-buy-quote.json'
import recordedToken from './recorded/coinbase-token.json'
import recordedTransactions from './recorded/coinbase-transactions.json'
import recordedError from './recorded/coinbase-error.json'

/** Coinbase's production hosts, as a site configures them. */
const COINBASE_HOSTS = { baseUrl: 'https://api.developer.coinbase.com', payBaseUrl: 'https://pay.coinbase.com' }
const KEY_NAME = 'organizations/3f2c6a1e-5b7d-4c8e-9a0f-1b2c3d4e5f60/apiKeys/8e7d6c5b-4a39-4281-9f0e-d1c2b3a4f5e6'
const NOW = Date.UTC(2026, 0, 1, 12, 0, 0)
const SOLANA = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const ADDRESS = '0x3d7b51da8AA41270C6e052eE261db4514Ba4D50A'

const ecKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' })
/** CDP hands out EC keys as SEC1 PEM ('BEGIN EC PRIVATE KEY'). */
const EC_SECRET = ecKeys.privateKey.export({ type: 'sec1', format: 'pem' }).toString()

type Recorded = { method: string; url: URL; headers: Headers; body: unknown }
type Answer = Response | ((request: Recorded, signal: AbortSignal) => Response | Promise<Response>)

/** A fetch that answers by `METHOD /path` and records every request it was sent. */
function fakeFetch(answers: Record<string, Answer>) {
  const requests: Recorded[] = []
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input))
    const recorded = { method: init.method ?? 'GET', url, headers: new Headers(init.headers), body: init.body === undefined ? undefined : JSON.parse(String(init.body)) }
    requests.push(recorded)
    const answer = answers[`${recorded.method} ${url.pathname}`]
    if (!answer) throw new TypeError('fetch failed')
    return typeof answer === 'function' ? answer(recorded, init.signal!) : answer.clone()
  }) as typeof globalThis.fetch
  return { fetch, requests }
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const recordedAnswers = (): Record<string, Answer> => ({
  'GET /onramp/v1/buy/options': json(recordedOptions),
  'POST /onramp/v1/buy/quote': json(recordedQuote),
  'POST /onramp/v1/token': json(recordedToken),
  'GET /onramp/v1/buy/user/order-7f3c2a/transactions': json(recordedTransactions),
})

function coinbase(answers: Record<string, Answer> = recordedAnswers(), options: Partial<CreateCoinbaseOnrampParameters> = {}) {
  const fake = fakeFetch(answers)
  const provider = createCoinbaseOnramp({ id: 'coinbase', name: 'Coinbase', apiKeyName: KEY_NAME, apiKeySecret: EC_SECRET, ...COINBASE_HOSTS, fetch: fake.fetch, now: () => NOW, ...options })
  return { provider, requests: fake.requests }
}

const quoteRequest = { paymentCurrency: 'USD', paymentMethod: 'card', amount: '100', network: 'eip155:8453', asset: 'ETH' } as const

const bearer = (request: Recorded) => {
  const [scheme, token] = request.headers.get('authorization')!.split(' ')
  expect(scheme).toBe('Bearer')
  return token!
}

async function verified(token: string, publicKey: KeyObject, algorithm: 'ES256' | 'EdDSA') {
  const { payload, protectedHeader } = await jwtVerify(token, publicKey, { algorithms: [algorithm], currentDate: new Date(NOW) })
  return { payload, protectedHeader }
}

async function rejection(promise: Promise<unknown>): Promise<OnrampProviderError> {
  const error = await promise.then(() => undefined, (reason: unknown) => reason)
  expect(error).toBeInstanceOf(OnrampProviderError)
  return error as OnrampProviderError
}

describe('Coinbase Onramp adapter on recorded answers', () => {
  it('reads the US buy options and maps them to our payment methods and CAIP-2 assets', async () => {
    const { provider, requests } = coinbase()
    const options = await provider.options()
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual(['GET https://api.developer.coinbase.com/onramp/v1/buy/options?country=US'])
    expect(requests[0]!.headers.get('accept')).toBe('application/json')
    expect(requests[0]!.body).toBeUndefined()
    expect(options).toEqual({
      countries: [],
      paymentCurrencies: [
        { id: 'USD', methods: [{ id: 'card', min: '2', max: '7500' }, { id: 'bank', min: '2', max: '25000' }] },
        { id: 'EUR', methods: [{ id: 'card', min: '2', max: '7100' }] },
        { id: 'GBP', methods: [{ id: 'card', min: '2', max: '5900' }] },
      ],
      assets: [
        { network: 'eip155:8453', symbol: 'BTC', name: 'Bitcoin', decimals: 8, address: '0xcbB7C0000aB88B473b1f5aFd9ef808440eed33Bf' },
        { network: SOLANA, symbol: 'BTC', name: 'Bitcoin', decimals: 8, address: 'cbbtcf3aa214zXHbiAZQwf4122FBYbraNdFqgw4iMij' },
        { network: 'eip155:1', symbol: 'ETH', name: 'Ethereum', decimals: 18 },
        { network: 'eip155:8453', symbol: 'ETH', name: 'Ethereum', decimals: 18 },
        { network: 'eip155:137', symbol: 'ETH', name: 'Ethereum', decimals: 18, address: '0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619' },
        { network: 'eip155:1', symbol: 'USDC', name: 'USDC', decimals: 6, address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' },
        { network: 'eip155:8453', symbol: 'USDC', name: 'USDC', decimals: 6, address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
        { network: SOLANA, symbol: 'USDC', name: 'USDC', decimals: 6, address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' },
        { network: SOLANA, symbol: 'SOL', name: 'Solana', decimals: 9 },
      ],
    })
  })

  it('signs each request with an ES256 JWT of the EC key: iss cdp, sub and kid the key name, 120 s, the method, host and path, a fresh nonce', async () => {
    const { provider, requests } = coinbase()
    await provider.options()
    await provider.quote(quoteRequest)
    const [first, second] = await Promise.all(requests.map(async (request) => ({ request, ...(await verified(bearer(request), ecKeys.publicKey, 'ES256')) })))
    expect(first!.payload).toEqual({ iss: 'cdp', sub: KEY_NAME, nbf: NOW / 1000, exp: NOW / 1000 + 120, uri: 'GET api.developer.coinbase.com/onramp/v1/buy/options' })
    expect(second!.payload.uri).toBe('POST api.developer.coinbase.com/onramp/v1/buy/quote')
    for (const { protectedHeader } of [first!, second!]) {
      expect(protectedHeader).toEqual({ alg: 'ES256', kid: KEY_NAME, typ: 'JWT', nonce: expect.stringMatching(/^[0-9a-f]{32}$/) })
    }
    expect(first!.protectedHeader.nonce).not.toBe(second!.protectedHeader.nonce)
    // A token for one key does not verify with another.
    await expect(jwtVerify(bearer(first!.request), generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey, { currentDate: new Date(NOW) })).rejects.toThrow()
  })

  it('signs with EdDSA for a base64 Ed25519 secret (seed then public key), its uri naming the host of the configured base URL', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519')
    const jwk = privateKey.export({ format: 'jwk' })
    const secret = Buffer.concat([Buffer.from(jwk.d!, 'base64url'), Buffer.from(jwk.x!, 'base64url')]).toString('base64')
    const { provider, requests } = coinbase(recordedAnswers(), { apiKeySecret: secret, baseUrl: 'https://onramp.example.test' })
    await provider.options()
    expect(String(requests[0]!.url)).toBe('https://onramp.example.test/onramp/v1/buy/options?country=US')
    const { payload, protectedHeader } = await verified(bearer(requests[0]!), publicKey, 'EdDSA')
    expect(protectedHeader.alg).toBe('EdDSA')
    expect(payload.uri).toBe('GET onramp.example.test/onramp/v1/buy/options')
  })

  it('refuses a secret that is no EC P-256 or Ed25519 key when configured, without repeating it', () => {
    const secrets = [
      'not-a-key',
      Buffer.alloc(32, 7).toString('base64'),
      generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey.export({ type: 'sec1', format: 'pem' }).toString(),
      generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    ]
    for (const apiKeySecret of secrets) {
      const create = () => createCoinbaseOnramp({ id: 'coinbase', name: 'Coinbase', apiKeyName: KEY_NAME, apiKeySecret, ...COINBASE_HOSTS })
      expect(create).toThrow(/neither an EC P-256 private key in PEM nor a base64 Ed25519 key/)
      try {
        create()
      } catch (error) {
        expect((error as Error).message).not.toContain(apiKeySecret.slice(0, 40))
      }
    }
  })

  it('accepts a PEM secret whose newlines were escaped in an environment variable', async () => {
    const { provider, requests } = coinbase(recordedAnswers(), { apiKeySecret: EC_SECRET.replace(/\n/g, '\\n') })
    await provider.options()
    await verified(bearer(requests[0]!), ecKeys.publicKey, 'ES256')
  })

  it('quotes with the asset’s id and network name from the options, and maps total, fees, amount and price', async () => {
    const { provider, requests } = coinbase()
    const quote = await provider.quote(quoteRequest)
    expect(requests.map((request) => `${request.method} ${request.url.pathname}`)).toEqual(['GET /onramp/v1/buy/options', 'POST /onramp/v1/buy/quote'])
    expect(requests[1]!.headers.get('content-type')).toBe('application/json')
    expect(requests[1]!.body).toEqual({
      purchase_currency: 'd85dce9b-5b73-5c3c-8978-522ce1d1c1b4',
      purchase_network: 'base',
      payment_amount: '100.00',
      payment_currency: 'USD',
      payment_method: 'CARD',
      country: 'US',
    })
    expect(quote).toEqual({
      provider: 'coinbase',
      quoteId: '0f0a9d8e-5e62-4f0c-8d5b-8f3a3a1c2b7d',
      paymentCurrency: 'USD',
      paymentMethod: 'card',
      paymentTotal: '100.00',
      fees: { provider: '2.49', network: '0.50' },
      network: 'eip155:8453',
      asset: 'ETH',
      purchaseAmount: '0.030314',
      // 97.01 / 0.030314, to 8 decimals (the last a zero).
      price: '3200.1715379',
    } satisfies OnrampQuote)
  })

  it('quotes a bank transfer as ACH_BANK_ACCOUNT and keeps the visitor’s country', async () => {
    const { provider, requests } = coinbase()
    await provider.quote({ ...quoteRequest, paymentMethod: 'bank', amount: '20000.5', country: 'DE', network: SOLANA, asset: 'USDC' })
    expect(requests[1]!.body).toEqual({
      purchase_currency: '2b92315d-eab7-5bef-84fa-089a131333f5',
      purchase_network: 'solana',
      payment_amount: '20000.50',
      payment_currency: 'USD',
      payment_method: 'ACH_BANK_ACCOUNT',
      country: 'DE',
    })
  })

  it('keeps the options an hour for quotes, then reads them again', async () => {
    let now = NOW
    const { provider, requests } = coinbase(recordedAnswers(), { now: () => now })
    await provider.quote(quoteRequest)
    await provider.quote(quoteRequest)
    now += 60 * 60_000 - 1
    await provider.quote(quoteRequest)
    expect(requests.filter((request) => request.url.pathname === '/onramp/v1/buy/options')).toHaveLength(1)
    now += 1
    await provider.quote(quoteRequest)
    expect(requests.filter((request) => request.url.pathname === '/onramp/v1/buy/options')).toHaveLength(2)
  })

  it('refuses what the options rule out before asking for a quote, naming the field', async () => {
    const cases: [Parameters<ReturnType<typeof coinbase>['provider']['quote']>[0], string, RegExp][] = [
      [{ ...quoteRequest, amount: '1.99' }, 'amount', /at least 2 USD/],
      [{ ...quoteRequest, amount: '7500.01' }, 'amount', /at most 7500 USD/],
      [{ ...quoteRequest, amount: '1e3' }, 'amount', /not a decimal amount/],
      [{ ...quoteRequest, paymentCurrency: 'EUR', paymentMethod: 'bank' }, 'paymentMethod', /bank payments in EUR/],
      [{ ...quoteRequest, asset: 'ZRX', network: 'eip155:1' }, 'asset', /ZRX on eip155:1/],
      [{ ...quoteRequest, network: 'eip155:10' }, 'asset', /ETH on eip155:10/],
    ]
    for (const [request, field, message] of cases) {
      const { provider, requests } = coinbase()
      const error = await rejection(provider.quote(request))
      expect([error.kind, error.field], JSON.stringify(request)).toEqual(['refused', field])
      expect(error.message).toMatch(message)
      expect(requests.some((recorded) => recorded.url.pathname === '/onramp/v1/buy/quote')).toBe(false)
    }
  })

  it('refuses a quote Coinbase gives in USD instead of the currency asked for', async () => {
    const { provider } = coinbase({ ...recordedAnswers(), 'POST /onramp/v1/buy/quote': json({ ...recordedQuote }) })
    const error = await rejection(provider.quote({ ...quoteRequest, paymentCurrency: 'EUR' }))
    expect([error.kind, error.field]).toEqual(['refused', 'paymentCurrency'])
  })

  it('checks out with a session token for the address on the quote’s network, then a pay.coinbase.com URL', async () => {
    const { provider, requests } = coinbase()
    const quote = await provider.quote(quoteRequest)
    const redirectUrl = 'https://shop.example/return?order=42&lang=en'
    const checkout = await provider.checkout({ orderId: 'order-7f3c2a', quote, destination: ADDRESS, partnerUserId: 'order-7f3c2a', redirectUrl, clientIp: '192.0.2.10' })
    const token = requests.at(-1)!
    expect(`${token.method} ${token.url}`).toBe('POST https://api.developer.coinbase.com/onramp/v1/token')
    expect(token.body).toEqual({ addresses: [{ address: ADDRESS, blockchains: ['base'] }], assets: ['ETH'], clientIp: '192.0.2.10' })
    expect((await verified(bearer(token), ecKeys.publicKey, 'ES256')).payload.uri).toBe('POST api.developer.coinbase.com/onramp/v1/token')
    expect(checkout.providerOrderId).toBeUndefined()
    const url = new URL(checkout.url)
    expect(`${url.origin}${url.pathname}`).toBe('https://pay.coinbase.com/buy/select-asset')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      sessionToken: recordedToken.token,
      defaultNetwork: 'base',
      defaultPaymentMethod: 'CARD',
      presetFiatAmount: '100.00',
      fiatCurrency: 'USD',
      quoteId: '0f0a9d8e-5e62-4f0c-8d5b-8f3a3a1c2b7d',
      partnerUserRef: 'order-7f3c2a',
      redirectUrl,
    })
    // Encoded, so the redirect's own query stays inside its parameter.
    expect(checkout.url).toContain('redirectUrl=https%3A%2F%2Fshop.example%2Freturn%3Forder%3D42%26lang%3Den')
  })

  it('checks out without a client IP or redirect when it has none, on the configured pay origin', async () => {
    const { provider, requests } = coinbase(recordedAnswers(), { payBaseUrl: 'https://pay.example.test' })
    const quote = await provider.quote({ ...quoteRequest, network: SOLANA, asset: 'SOL' })
    const checkout = await provider.checkout({ orderId: 'o1', quote, destination: 'So1anaAddress1111111111111111111111111111111', partnerUserId: 'o1' })
    expect(requests.at(-1)!.body).toEqual({ addresses: [{ address: 'So1anaAddress1111111111111111111111111111111', blockchains: ['solana'] }], assets: ['SOL'] })
    const url = new URL(checkout.url)
    expect(url.origin).toBe('https://pay.example.test')
    expect(url.searchParams.has('redirectUrl')).toBe(false)
    expect(url.searchParams.get('defaultNetwork')).toBe('solana')
  })

  it('refuses an order reference longer than Coinbase’s 50 characters before asking for a token', async () => {
    const { provider, requests } = coinbase()
    const quote = await provider.quote(quoteRequest)
    const error = await rejection(provider.checkout({ orderId: 'x'.repeat(51), quote, destination: ADDRESS, partnerUserId: 'site-user' }))
    expect([error.kind, error.field]).toEqual(['refused', 'orderId'])
    expect(requests.some((request) => request.url.pathname === '/onramp/v1/token')).toBe(false)
  })

  it('reads an order’s status from the transactions of its ref (our order id)', async () => {
    const { provider, requests } = coinbase()
    const update = await provider.orderStatus!({ orderId: 'order-7f3c2a', partnerUserId: 'site-user' })
    expect(`${requests[0]!.method} ${requests[0]!.url}`).toBe('GET https://api.developer.coinbase.com/onramp/v1/buy/user/order-7f3c2a/transactions?pageSize=10')
    expect((await verified(bearer(requests[0]!), ecKeys.publicKey, 'ES256')).payload.uri).toBe('GET api.developer.coinbase.com/onramp/v1/buy/user/order-7f3c2a/transactions')
    expect(update).toEqual({ status: 'completed', txHash: '0x31814ba2fef2a400a9816767370be09ca12d9e9753b972198fe330a0ecedcbf6', purchaseAmount: '0.030314' })
  })

  it('maps ONRAMP_TRANSACTION_STATUS_* to pending, sent, completed and failed', async () => {
    const [recorded] = recordedTransactions.transactions
    const cases: [Record<string, unknown>, unknown][] = [
      [{ status: 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS', tx_hash: '' }, { status: 'pending', purchaseAmount: '0.030314' }],
      [{ status: 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS', tx_hash: '0x' }, { status: 'pending', purchaseAmount: '0.030314' }],
      [{ status: 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS' }, { status: 'sent', txHash: recorded!.tx_hash, purchaseAmount: '0.030314' }],
      [{ status: 'ONRAMP_TRANSACTION_STATUS_CREATED', tx_hash: '' }, { status: 'pending', purchaseAmount: '0.030314' }],
      [{ status: 'ONRAMP_TRANSACTION_STATUS_FAILED', tx_hash: '' }, { status: 'failed', purchaseAmount: '0.030314', failureReason: 'Coinbase did not complete the purchase.' }],
      [{ status: 'ONRAMP_TRANSACTION_STATUS_SUCCESS', purchase_amount: '0.5' }, { status: 'completed', txHash: recorded!.tx_hash, purchaseAmount: '0.5' }],
    ]
    for (const [change, expected] of cases) {
      const { provider } = coinbase({ 'GET /onramp/v1/buy/user/order-7f3c2a/transactions': json({ transactions: [{ ...recorded, ...change }] }) })
      expect(await provider.orderStatus!({ orderId: 'order-7f3c2a', partnerUserId: 'site-user' }), JSON.stringify(change)).toEqual(expected)
    }
  })

  it('answers undefined until the order has a transaction, finds one by its Coinbase id, and encodes the ref in the path', async () => {
    const [recorded] = recordedTransactions.transactions
    const { provider, requests } = coinbase({
      'GET /onramp/v1/buy/user/order%2F1%20a/transactions': json({ transactions: [{ ...recorded, partner_user_ref: 'order/1 a', transaction_id: 'newer' }, { ...recorded, partner_user_ref: 'order/1 a' }] }),
      'GET /onramp/v1/buy/user/order-empty/transactions': json({ transactions: [], next_page_key: '', total_count: '0' }),
    })
    expect(await provider.orderStatus!({ orderId: 'order-empty', partnerUserId: 'site-user' })).toBeUndefined()
    expect((await provider.orderStatus!({ orderId: 'order/1 a', partnerUserId: 'site-user', providerOrderId: recorded!.transaction_id }))?.status).toBe('completed')
    expect(await provider.orderStatus!({ orderId: 'order/1 a', partnerUserId: 'site-user', providerOrderId: 'unknown' })).toBeUndefined()
    expect(requests.at(-1)!.url.pathname).toBe('/onramp/v1/buy/user/order%2F1%20a/transactions')
  })

  describe('failures, said without Coinbase’s text or the key', () => {
    const PROVIDER_TEXT = 'PROVIDER_TEXT'
    const cases: [string, Answer, 'unavailable' | 'refused'][] = [
      ['HTTP 500', json({ code: 13, message: `${PROVIDER_TEXT} internal`, details: [] }, 500), 'unavailable'],
      ['HTTP 401', json({ code: 16, message: `${PROVIDER_TEXT} unauthenticated`, details: [] }, 401), 'unavailable'],
      ['HTTP 429', json({ code: 8, message: `${PROVIDER_TEXT} rate_limit_exceeded`, details: [] }, 429), 'unavailable'],
      ['malformed JSON', new Response(`{"payment_total": ${PROVIDER_TEXT}`, { status: 200 }), 'unavailable'],
      ['an empty body', new Response('', { status: 200 }), 'unavailable'],
      ['a shape it does not publish', json({ paymentTotal: { value: '100.00', currency: 'USD' }, note: PROVIDER_TEXT }), 'unavailable'],
      ['an amount that is not a decimal', json({ ...recordedQuote, purchase_amount: { value: PROVIDER_TEXT, currency: 'ETH' } }), 'unavailable'],
      ['a body over 1 MB', new Response(' '.repeat(MAX_ANSWER_BYTES + 1), { status: 200 }), 'unavailable'],
      ['a declared length over 1 MB', new Response('{}', { status: 200, headers: { 'content-length': String(MAX_ANSWER_BYTES + 1) } }), 'unavailable'],
      ['a network error', () => Promise.reject(new TypeError(`fetch failed: ${PROVIDER_TEXT}`)), 'unavailable'],
      ['HTTP 400 (a refusal)', json(recordedError, 400), 'refused'],
    ]
    for (const [what, answer, kind] of cases) {
      it(`maps ${what} on a quote to ${kind}`, async () => {
        const { provider } = coinbase({ ...recordedAnswers(), 'POST /onramp/v1/buy/quote': answer })
        const error = await rejection(provider.quote(quoteRequest))
        expect(error.kind).toBe(kind)
        expect(error.message).not.toContain(PROVIDER_TEXT)
        expect(error.message).not.toContain(EC_SECRET.split('\n')[1]!)
        if (kind === 'refused') expect(error.message).toBe('Coinbase will not quote this purchase')
      })
    }

    it('maps a 400 on the session token to refused, and on the options or transactions to unavailable', async () => {
      const quote = await coinbase().provider.quote(quoteRequest)
      const checkout = coinbase({ ...recordedAnswers(), 'POST /onramp/v1/token': json(recordedError, 400) })
      const refused = await rejection(checkout.provider.checkout({ orderId: 'o', quote, destination: 'not-an-address', partnerUserId: 'o' }))
      expect([refused.kind, refused.message]).toEqual(['refused', 'Coinbase will not open a checkout for this address and asset'])
      expect((await rejection(coinbase({ 'GET /onramp/v1/buy/options': json(recordedError, 400) }).provider.options())).kind).toBe('unavailable')
      const status = coinbase({ 'GET /onramp/v1/buy/user/o/transactions': json(recordedError, 400) })
      expect((await rejection(status.provider.orderStatus!({ orderId: 'o', partnerUserId: 'site-user' }))).kind).toBe('unavailable')
    })

    it('gives up after timeoutMs, whether the headers or the body are late', async () => {
      const hang = (_: Recorded, signal: AbortSignal) => new Promise<Response>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)))
      const slowBody = (_: Recorded, signal: AbortSignal) =>
        new Response(new ReadableStream({ start: (controller) => signal.addEventListener('abort', () => controller.error(signal.reason)) }), { status: 200 })
      for (const answer of [hang, slowBody]) {
        const { provider } = coinbase({ 'GET /onramp/v1/buy/options': answer }, { timeoutMs: 50 })
        const started = performance.now()
        const error = await rejection(provider.options())
        expect(error.kind).toBe('unavailable')
        expect(error.message).toBe('Coinbase Onramp did not answer /onramp/v1/buy/options within 50 ms')
        expect(performance.now() - started).toBeLessThan(5_000)
      }
    })

    it('forgets failed options, so the next call asks again', async () => {
      let fail = true
      const { provider, requests } = coinbase({ ...recordedAnswers(), 'GET /onramp/v1/buy/options': () => (fail ? json({}, 503) : json(recordedOptions)) })
      expect((await rejection(provider.quote(quoteRequest))).kind).toBe('unavailable')
      fail = false
      await provider.quote(quoteRequest)
      expect(requests.filter((request) => request.url.pathname === '/onramp/v1/buy/options')).toHaveLength(2)
    })

    it('maps transactions in an unpublished shape to unavailable', async () => {
      const { provider } = coinbase({ 'GET /onramp/v1/buy/user/order-7f3c2a/transactions': json({ transactions: [{ status: 'DONE' }] }) })
      expect((await rejection(provider.orderStatus!({ orderId: 'order-7f3c2a', partnerUserId: 'site-user' }))).kind).toBe('unavailable')
    })
  })

  it('decodes to a header that names the key, never the secret', async () => {
    const { provider, requests } = coinbase()
    await provider.options()
    const token = bearer(requests[0]!)
    expect(decodeProtectedHeader(token).kid).toBe(KEY_NAME)
    expect(Buffer.from(token.split('.')[1]!, 'base64url').toString()).not.toContain('PRIVATE')
  })
})

describe('Coinbase Onramp behind the data service', () => {
  it('hands Coinbase the visitor’s IP with the session token: the peer, or the last X-Forwarded-For of a trusted load balancer', async () => {
    const { createApiApp } = await import('../app')
    const { openDatabase } = await import('../db/createDatabase')
    const { provider, requests } = coinbase()
    const db = await openDatabase({})
    try {
      const app = createApiApp({ db, projects: [{ id: 'site', allowedOrigins: [] }], chains: [], onrampProviders: [provider], trustedProxies: ['10.0.0.2'] })
      const body = { destinationWallets: [{ address: ADDRESS }], defaultNetwork: 'eip155:8453', defaultAsset: 'ETH', partnerUserId: 'visitor-9', presetFiatAmount: 100 }
      const checkoutFrom = async (peer: string, forwarded: string) => {
        const response = await app.request('/v1/generators/onrampurl?projectId=site', { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': forwarded }, body: JSON.stringify(body) }, { incoming: { socket: { remoteAddress: peer } } })
        expect(response.status).toBe(200)
        return requests.filter((request) => request.url.pathname === '/onramp/v1/token').at(-1)!.body as { clientIp?: string }
      }
      expect((await checkoutFrom('::ffff:10.0.0.2', '198.51.100.1, 203.0.113.7')).clientIp).toBe('203.0.113.7')
      expect((await checkoutFrom('192.0.2.44', '203.0.113.7')).clientIp).toBe('192.0.2.44')
    } finally {
      await db.close()
    }
  })
})
