import { describe, expect, it } from 'vitest'
import { createMeldOnramp, MAX_ANSWER_BYTES, MELD_VERSION, type CreateMeldOnrampParameters } from './meld'
import { OnrampProviderError, type OnrampQuote } from './provider'
import recordedCountries from './recorded/meld-countries.json'
import recordedCurrencies from './recorded/meld-crypto-currencies.json'
import recordedError from './recorded/meld-error.json'
import recordedBankLimits from './recorded/meld-limits-bank.json'
import recordedCardLimits from './recorded/meld-limits-card.json'
import recordedQuoteNone from './recorded/meld-quote-none.json'
import recordedQuote from './recorded/meld-quote.json'
import recordedTransactions from './recorded/meld-transactions.json'
import recordedWidget from './recorded/meld-widget.json'

const API_KEY = 'W9kZTT7332okCEc1A9aqAq:3sYKoXQv6oHVHSts7G2agw9vTCXz'
const SOLANA = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const ADDRESS = '0x3d7b51da8AA41270C6e052eE261db4514Ba4D50A'
const NOW = Date.UTC(2026, 0, 1, 12, 0, 0)

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
  'GET /service-providers/properties/countries': json(recordedCountries),
  'GET /service-providers/properties/crypto-currencies': json(recordedCurrencies),
  'GET /service-providers/limits/fiat-currency-purchases': ({ url }) => json(url.searchParams.get('paymentMethodTypes') === 'BANK_TRANSFER' ? recordedBankLimits : recordedCardLimits),
  'POST /payments/crypto/quote': json(recordedQuote),
  'POST /crypto/session/widget': json(recordedWidget),
  'GET /payments/transactions': json(recordedTransactions),
})

function meld(answers: Record<string, Answer> = recordedAnswers(), options: Partial<CreateMeldOnrampParameters> = {}) {
  const fake = fakeFetch(answers)
  const provider = createMeldOnramp({ id: 'meld', name: 'Meld', apiKey: API_KEY, baseUrl: 'https://api.meld.io', fetch: fake.fetch, now: () => NOW, ...options })
  return { provider, requests: fake.requests }
}

const quoteRequest = { paymentCurrency: 'USD', paymentMethod: 'card', amount: '100', network: 'eip155:8453', asset: 'ETH' } as const
const catalogPaths = ['/service-providers/properties/countries', '/service-providers/properties/crypto-currencies', '/service-providers/limits/fiat-currency-purchases']
const isCatalog = (request: Recorded) => catalogPaths.includes(request.url.pathname)

async function rejection(promise: Promise<unknown>): Promise<OnrampProviderError> {
  const error = await promise.then(() => undefined, (reason: unknown) => reason)
  expect(error).toBeInstanceOf(OnrampProviderError)
  return error as OnrampProviderError
}

describe('Meld adapter on recorded answers', () => {
  it('lists the account’s countries, card and bank limits, and assets on EVM chains and Solana', async () => {
    const { provider, requests } = meld()
    const options = await provider.options()
    expect(requests.map((request) => `${request.method} ${request.url}`).sort()).toEqual([
      'GET https://api.meld.io/service-providers/limits/fiat-currency-purchases?categories=CRYPTO_ONRAMP&accountFilter=true&paymentMethodTypes=BANK_TRANSFER',
      'GET https://api.meld.io/service-providers/limits/fiat-currency-purchases?categories=CRYPTO_ONRAMP&accountFilter=true&paymentMethodTypes=CREDIT_DEBIT_CARD',
      'GET https://api.meld.io/service-providers/properties/countries?categories=CRYPTO_ONRAMP&accountFilter=true',
      'GET https://api.meld.io/service-providers/properties/crypto-currencies?categories=CRYPTO_ONRAMP&accountFilter=true',
    ])
    for (const request of requests) {
      expect(Object.fromEntries(request.headers)).toEqual({ authorization: `BASIC ${API_KEY}`, 'meld-version': MELD_VERSION, accept: 'application/json' })
      expect(request.body).toBeUndefined()
    }
    expect(options).toEqual({
      countries: ['US', 'DE', 'GB'],
      paymentCurrencies: [
        { id: 'USD', methods: [{ id: 'card', min: '20', max: '20000' }, { id: 'bank', min: '30', max: '50000' }] },
        { id: 'EUR', methods: [{ id: 'card', min: '20', max: '18000' }, { id: 'bank', min: '30', max: '30000.5' }] },
      ],
      assets: [
        { network: 'eip155:1', symbol: 'ETH', name: 'Ethereum', decimals: 18 },
        { network: 'eip155:8453', symbol: 'ETH', name: 'Ethereum', decimals: 18 },
        { network: 'eip155:1', symbol: 'USDC', name: 'USD Coin', decimals: 6, address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' },
        { network: 'eip155:8453', symbol: 'USDC', name: 'USD Coin', decimals: 6, address: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' },
        { network: SOLANA, symbol: 'SOL', name: 'Solana', decimals: 9 },
        { network: SOLANA, symbol: 'USDC', name: 'USD Coin', decimals: 6, address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' },
      ],
    })
  })

  it('quotes with Meld’s currency code and keeps the service provider that gives the most crypto', async () => {
    const { provider, requests } = meld()
    const quote = await provider.quote({ ...quoteRequest, destination: ADDRESS })
    const sent = requests.find((request) => request.url.pathname === '/payments/crypto/quote')!
    expect(`${sent.method} ${sent.url}`).toBe('POST https://api.meld.io/payments/crypto/quote')
    expect(Object.fromEntries(sent.headers)).toEqual({ authorization: `BASIC ${API_KEY}`, 'meld-version': MELD_VERSION, accept: 'application/json', 'content-type': 'application/json' })
    expect(sent.body).toEqual({ countryCode: 'US', sourceCurrencyCode: 'USD', sourceAmount: 100, destinationCurrencyCode: 'ETH_BASE', paymentMethodType: 'CREDIT_DEBIT_CARD', walletAddress: ADDRESS })
    expect(quote).toEqual({
      provider: 'meld',
      quoteId: 'TRANSAK:CREDIT_DEBIT_CARD:US',
      paymentCurrency: 'USD',
      paymentMethod: 'card',
      paymentTotal: '100',
      // The total fee (3.49) less the network's (0.24).
      fees: { provider: '3.25', network: '0.24' },
      network: 'eip155:8453',
      asset: 'ETH',
      purchaseAmount: '0.03015938',
      // 96.51 / 0.03015938, to 8 decimals.
      price: '3199.99946949',
    } satisfies OnrampQuote)
  })

  it('adds the transaction and partner fees when Meld gives no total, and quotes a bank transfer in the visitor’s country', async () => {
    const moonpay = { ...recordedQuote.quotes[2]!, destinationCurrencyCode: 'USDC_SOL', sourceCurrencyCode: 'EUR', paymentMethodType: 'SEPA', destinationAmount: 95.5 }
    const { provider, requests } = meld({ ...recordedAnswers(), 'POST /payments/crypto/quote': json({ quotes: [moonpay], message: null, error: null }) })
    const quote = await provider.quote({ paymentCurrency: 'EUR', paymentMethod: 'bank', amount: '100.00', network: SOLANA, asset: 'USDC', country: 'DE' })
    expect(requests.at(-1)!.body).toEqual({ countryCode: 'DE', sourceCurrencyCode: 'EUR', sourceAmount: 100, destinationCurrencyCode: 'USDC_SOL', paymentMethodType: 'BANK_TRANSFER' })
    expect(quote).toMatchObject({ quoteId: 'MOONPAY:SEPA:DE', paymentTotal: '100', fees: { provider: '3.6', network: '0.3' }, purchaseAmount: '95.5', price: '1.00628272' })
  })

  it('ignores quotes for another currency than asked, and refuses when none is left', async () => {
    const other = recordedQuote.quotes.map((quote) => ({ ...quote, destinationCurrencyCode: 'ETH' }))
    const { provider } = meld({ ...recordedAnswers(), 'POST /payments/crypto/quote': json({ quotes: other, message: null, error: null }) })
    const error = await rejection(provider.quote(quoteRequest))
    expect([error.kind, error.message]).toEqual(['refused', 'Meld has no quote for this purchase'])
  })

  it('refuses what its catalog rules out before asking for a quote, naming the field', async () => {
    const cases: [Parameters<ReturnType<typeof meld>['provider']['quote']>[0], string, RegExp][] = [
      [{ ...quoteRequest, amount: '19.99' }, 'amount', /at least 20 USD/],
      [{ ...quoteRequest, paymentMethod: 'bank', amount: '50000.01' }, 'amount', /at most 50000 USD/],
      [{ ...quoteRequest, amount: '-5' }, 'amount', /not a decimal amount/],
      [{ ...quoteRequest, asset: 'BTC' }, 'asset', /BTC on eip155:8453/],
      [{ ...quoteRequest, network: 'eip155:321', asset: 'USDT' }, 'asset', /USDT on eip155:321/],
    ]
    for (const [request, field, message] of cases) {
      const { provider, requests } = meld()
      const error = await rejection(provider.quote(request))
      expect([error.kind, error.field], JSON.stringify(request)).toEqual(['refused', field])
      expect(error.message).toMatch(message)
      expect(requests.some((recorded) => recorded.url.pathname === '/payments/crypto/quote')).toBe(false)
    }
  })

  it('keeps its catalog an hour, and asks again after a failure', async () => {
    let now = NOW
    let failCountries = true
    const { provider, requests } = meld(
      { ...recordedAnswers(), 'GET /service-providers/properties/countries': () => (failCountries ? json(recordedError, 503) : json(recordedCountries)) },
      { now: () => now },
    )
    expect((await rejection(provider.quote(quoteRequest))).kind).toBe('unavailable')
    failCountries = false
    await provider.quote(quoteRequest)
    await provider.quote(quoteRequest)
    expect(requests.filter((request) => request.url.pathname === '/service-providers/properties/countries')).toHaveLength(2)
    now += 60 * 60_000
    await provider.quote(quoteRequest)
    expect(requests.filter((request) => request.url.pathname === '/service-providers/properties/countries')).toHaveLength(3)
    expect(requests.filter(isCatalog)).toHaveLength(12)
  })

  it('checks out through a widget session for the quoted service provider, with our order id as its externalSessionId', async () => {
    const { provider, requests } = meld()
    const quote = await provider.quote(quoteRequest)
    const checkout = await provider.checkout({ orderId: 'order-7f3c2a', quote, destination: ADDRESS, partnerUserId: 'visitor-51', redirectUrl: 'https://shop.example/return?order=42' })
    const sent = requests.at(-1)!
    expect(`${sent.method} ${sent.url}`).toBe('POST https://api.meld.io/crypto/session/widget')
    expect(sent.headers.get('authorization')).toBe(`BASIC ${API_KEY}`)
    expect(sent.body).toEqual({
      sessionType: 'BUY',
      externalSessionId: 'order-7f3c2a',
      externalCustomerId: 'visitor-51',
      sessionData: {
        walletAddress: ADDRESS,
        countryCode: 'US',
        sourceCurrencyCode: 'USD',
        sourceAmount: '100',
        destinationCurrencyCode: 'ETH_BASE',
        paymentMethodType: 'CREDIT_DEBIT_CARD',
        serviceProvider: 'TRANSAK',
        redirectUrl: 'https://shop.example/return?order=42',
      },
    })
    expect(checkout).toEqual({ url: recordedWidget.widgetUrl, providerOrderId: 'WXDpzmm2cNmtJWLDHgu1GT' })
  })

  it('refuses to check out a quote that is not Meld’s', async () => {
    const { provider, requests } = meld()
    const quote = await provider.quote(quoteRequest)
    for (const quoteId of [undefined, 'placeholder', 'TRANSAK:CREDIT_DEBIT_CARD', 'transak:card:us']) {
      const error = await rejection(provider.checkout({ orderId: 'o', quote: { ...quote, quoteId }, destination: ADDRESS, partnerUserId: 'v' }))
      expect([error.kind, error.field]).toEqual(['refused', 'quote'])
    }
    expect(requests.some((request) => request.url.pathname === '/crypto/session/widget')).toBe(false)
  })

  it('refuses a widget URL that is not https', async () => {
    const { provider } = meld({ ...recordedAnswers(), 'POST /crypto/session/widget': json({ ...recordedWidget, widgetUrl: 'javascript:alert(1)' }) })
    const quote = await provider.quote(quoteRequest)
    expect((await rejection(provider.checkout({ orderId: 'o', quote, destination: ADDRESS, partnerUserId: 'v' }))).kind).toBe('unavailable')
  })

  it('reads an order’s status by its externalSessionId', async () => {
    const { provider, requests } = meld()
    const update = await provider.orderStatus!({ orderId: 'order-7f3c2a', partnerUserId: 'visitor-51' })
    expect(`${requests[0]!.method} ${requests[0]!.url}`).toBe('GET https://api.meld.io/payments/transactions?externalSessionIds=order-7f3c2a&limit=10')
    expect(update).toEqual({ status: 'completed', txHash: recordedTransactions.transactions[0]!.cryptoDetails.blockchainTransactionId, purchaseAmount: '0.03015938' })
  })

  it('maps Meld’s statuses to pending, sent, completed and failed', async () => {
    const [recorded] = recordedTransactions.transactions
    const hash = recorded!.cryptoDetails.blockchainTransactionId
    const cases: [string, unknown][] = [
      ['PENDING_CREATED', { status: 'pending', purchaseAmount: '0.03015938' }],
      ['PENDING CREATED', { status: 'pending', purchaseAmount: '0.03015938' }],
      ['PENDING', { status: 'pending', purchaseAmount: '0.03015938' }],
      ['TWO_FA_REQUIRED', { status: 'pending', purchaseAmount: '0.03015938' }],
      ['ERROR', { status: 'pending', purchaseAmount: '0.03015938' }],
      ['SETTLING', { status: 'sent', txHash: hash, purchaseAmount: '0.03015938' }],
      ['SETTLED', { status: 'completed', txHash: hash, purchaseAmount: '0.03015938' }],
      ['FAILED', { status: 'failed', failureReason: 'The purchase did not complete.', purchaseAmount: '0.03015938' }],
      ['DECLINED', { status: 'failed', failureReason: 'The payment was declined.', purchaseAmount: '0.03015938' }],
      ['CANCELLED', { status: 'failed', failureReason: 'The purchase was cancelled.', purchaseAmount: '0.03015938' }],
      ['REFUNDED', { status: 'failed', failureReason: 'The payment was refunded.', purchaseAmount: '0.03015938' }],
    ]
    for (const [status, expected] of cases) {
      const { provider } = meld({ 'GET /payments/transactions': json({ ...recordedTransactions, transactions: [{ ...recorded, status }] }) })
      expect(await provider.orderStatus!({ orderId: 'order-7f3c2a', partnerUserId: 'visitor-51' }), status).toEqual(expected)
    }
  })

  it('answers undefined while the order has no transaction, and finds one by its widget session when the external id is missing', async () => {
    const [recorded] = recordedTransactions.transactions
    const none = meld({ 'GET /payments/transactions': json({ transactions: [], count: 0, remaining: 0, totalCount: 0 }) })
    expect(await none.provider.orderStatus!({ orderId: 'order-7f3c2a', partnerUserId: 'visitor-51' })).toBeUndefined()
    const bySession = meld({ 'GET /payments/transactions': json({ transactions: [{ ...recorded, externalSessionId: null, status: 'SETTLING', cryptoDetails: { blockchainTransactionId: null } }] }) })
    expect(await bySession.provider.orderStatus!({ orderId: 'order-7f3c2a', providerOrderId: 'WXDpzmm2cNmtJWLDHgu1GT', partnerUserId: 'v' })).toEqual({ status: 'sent', purchaseAmount: '0.03015938' })
    expect(await bySession.provider.orderStatus!({ orderId: 'order-7f3c2a', partnerUserId: 'v' })).toBeUndefined()
  })

  it('talks to the sandbox when configured with its base URL', async () => {
    const { provider, requests } = meld(recordedAnswers(), { baseUrl: 'https://api-sb.meld.io' })
    await provider.orderStatus!({ orderId: 'order-7f3c2a', partnerUserId: 'v' })
    expect(requests[0]!.url.origin).toBe('https://api-sb.meld.io')
  })

  describe('failures, said without Meld’s text or the key', () => {
    const PROVIDER_TEXT = 'PROVIDER_TEXT'
    const cases: [string, Answer, 'unavailable' | 'refused'][] = [
      ['HTTP 500', json({ code: 'INTERNAL', message: `${PROVIDER_TEXT} internal` }, 500), 'unavailable'],
      ['HTTP 401', json({ code: 'UNAUTHORIZED', message: `${PROVIDER_TEXT} invalid credentials` }, 401), 'unavailable'],
      ['HTTP 403', json({ code: 'FORBIDDEN', message: `${PROVIDER_TEXT} forbidden` }, 403), 'unavailable'],
      ['malformed JSON', new Response(`{"quotes": [${PROVIDER_TEXT}`, { status: 200 }), 'unavailable'],
      ['a shape it does not publish', json({ quotes: [{ serviceProvider: 'TRANSAK', note: PROVIDER_TEXT }] }), 'unavailable'],
      ['an amount that is not a number', json({ quotes: [{ ...recordedQuote.quotes[1], destinationAmount: PROVIDER_TEXT }] }), 'unavailable'],
      ['a body over 1 MB', new Response(' '.repeat(MAX_ANSWER_BYTES + 1), { status: 200 }), 'unavailable'],
      ['a network error', () => Promise.reject(new TypeError(`fetch failed: ${PROVIDER_TEXT}`)), 'unavailable'],
      ['HTTP 400 with Meld’s error', json(recordedError, 400), 'refused'],
      ['HTTP 400 with no valid quote combination', json(recordedQuoteNone, 400), 'refused'],
      ['HTTP 200 with no quotes', json(recordedQuoteNone), 'refused'],
    ]
    for (const [what, answer, kind] of cases) {
      it(`maps ${what} on a quote to ${kind}`, async () => {
        const { provider } = meld({ ...recordedAnswers(), 'POST /payments/crypto/quote': answer })
        const error = await rejection(provider.quote(quoteRequest))
        expect(error.kind).toBe(kind)
        expect(error.message).not.toContain(PROVIDER_TEXT)
        expect(error.message).not.toContain(API_KEY)
        if (kind === 'refused') expect(error.message).toBe('Meld has no quote for this purchase')
      })
    }

    it('maps a 400 on a checkout to refused, and on the catalog or status to unavailable', async () => {
      const quote = await meld().provider.quote(quoteRequest)
      const checkout = meld({ ...recordedAnswers(), 'POST /crypto/session/widget': json(recordedError, 400) })
      const refused = await rejection(checkout.provider.checkout({ orderId: 'o', quote, destination: 'not-an-address', partnerUserId: 'v' }))
      expect([refused.kind, refused.message]).toEqual(['refused', 'Meld will not open a checkout for this purchase'])
      const catalog = meld({ ...recordedAnswers(), 'GET /service-providers/properties/crypto-currencies': json(recordedError, 400) })
      expect((await rejection(catalog.provider.options())).kind).toBe('unavailable')
      const status = meld({ 'GET /payments/transactions': json(recordedError, 400) })
      expect((await rejection(status.provider.orderStatus!({ orderId: 'o', partnerUserId: 'v' }))).kind).toBe('unavailable')
    })

    it('gives up after timeoutMs, whether the headers or the body are late', async () => {
      const hang = (_: Recorded, signal: AbortSignal) => new Promise<Response>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)))
      const slowBody = (_: Recorded, signal: AbortSignal) =>
        new Response(new ReadableStream({ start: (controller) => signal.addEventListener('abort', () => controller.error(signal.reason)) }), { status: 200 })
      for (const answer of [hang, slowBody]) {
        const { provider } = meld({ 'GET /payments/transactions': answer }, { timeoutMs: 50 })
        const error = await rejection(provider.orderStatus!({ orderId: 'o', partnerUserId: 'v' }))
        expect([error.kind, error.message]).toEqual(['unavailable', 'Meld did not answer /payments/transactions within 50 ms'])
      }
    })
  })
})
