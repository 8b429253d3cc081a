/**
 * Coinbase Onramp (CDP Onramp API v1) behind OnrampProvider, in the request and answer shapes its published documentation gives (recorded in
 * ./recorded/coinbase-*.json; the pages are listed in ./recorded/SOURCES.md). Its hosts come from the site's configuration
 * (`baseUrl`, `payBaseUrl`): nothing of this adapter names a vendor host by default.
 *
 * Orders are found by `partnerUserRef` (the URL parameter Coinbase's current docs name; older docs call it
 * partnerUserId): Coinbase lists a ref's transactions newest first, so checkout hands it our order id (32 hex
 * characters, unique to the order) and orderStatus reads that ref's newest transaction.
 */
import { createPrivateKey, randomBytes, sign, type KeyObject } from 'node:crypto'
import * as z from 'zod/mini'
import {
  OnrampProviderError,
  type OnrampAsset,
  type OnrampCheckout,
  type OnrampCheckoutRequest,
  type OnrampLimit,
  type OnrampOptions,
  type OnrampOrderStatus,
  type OnrampOrderUpdate,
  type OnrampPaymentMethod,
  type OnrampProvider,
  type OnrampQuote,
  type OnrampQuoteRequest,
} from './provider'
import { compareDecimal, decimalsOf, divideDecimal, maxDecimal, minDecimal, SOLANA_MAINNET, twoDecimals } from './decimals'
import { CATALOG_TTL_MS, createCatalogCache, FIAT_AMOUNT, requestJson } from './providerHttp'

export type CreateCoinbaseOnrampParameters = {
  /** The provider's id in the data service's configuration. */
  id: string
  name: string
  /** The CDP Secret API key's name (its id, or `organizations/…/apiKeys/…`): the JWT's `sub` and `kid`. */
  apiKeyName: string
  /** The CDP Secret API key's secret: an EC P-256 private key in PEM, or a base64 Ed25519 key (seed and public key). */
  apiKeySecret: string
  /** The Onramp API's origin, as the site configures it (Coinbase's production API is api.developer.<coinbase's domain>). */
  baseUrl: string
  /** Where the visitor buys (Coinbase's hosted checkout origin), as the site configures it. */
  payBaseUrl: string
  /** The country whose buy options `options()` lists and quotes default to; default 'US'. */
  optionsCountry?: string
  fetch?: typeof globalThis.fetch
  now?: () => number
  timeoutMs?: number
}

/** Largest answer read from Coinbase: anything longer is refused unread. */
export { MAX_ANSWER_BYTES } from './providerHttp'
/** Coinbase's JWTs live two minutes (its SDKs' default). */
const JWT_LIFETIME_S = 120
/** Coinbase's URL parameter partnerUserRef holds at most this many characters. */
const MAX_PARTNER_USER_REF = 50

const decimal = z.string().check(z.regex(/^\d{1,30}(\.\d{1,30})?$/))
const amount = z.object({ value: decimal, currency: z.string().check(z.maxLength(64)) })
const text = (max: number) => z.string().check(z.maxLength(max))

const optionsSchema = z.object({
  payment_currencies: z.array(
    z.object({ id: text(16), limits: z.array(z.object({ id: text(64), min: decimal, max: decimal })).check(z.maxLength(64)) }),
  ).check(z.maxLength(500)),
  purchase_currencies: z.array(
    z.object({
      id: text(128),
      name: text(256),
      symbol: text(32),
      networks: z.array(
        z.object({ name: text(64), display_name: z.optional(text(256)), chain_id: z.optional(text(32)), contract_address: z.optional(text(128)) }),
      ).check(z.maxLength(100)),
    }),
  ).check(z.maxLength(5_000)),
})

const quoteSchema = z.object({
  payment_total: amount,
  payment_subtotal: amount,
  purchase_amount: amount,
  coinbase_fee: amount,
  network_fee: amount,
  quote_id: text(256),
})

const tokenSchema = z.object({ token: z.string().check(z.minLength(1), z.maxLength(4_096)) })

const transactionsSchema = z.object({
  transactions: z.array(
    z.object({
      status: z.string().check(z.regex(/^ONRAMP_TRANSACTION_STATUS_[A-Z_]{1,40}$/)),
      transaction_id: z.optional(text(128)),
      partner_user_ref: z.optional(text(256)),
      tx_hash: z.optional(text(256)),
      // The reference table says String; its example (and the webhooks) an amount object.
      purchase_amount: z.optional(z.union([decimal, amount])),
    }),
  ).check(z.maxLength(1_000)),
})

/** What buy options name an asset on a network by, for quote() and checkout(). */
type CatalogEntry = { asset: OnrampAsset; currencyId: string; networkName: string }
type Catalog = {
  options: OnrampOptions
  /** `${network}|${symbol}` → how Coinbase names it. */
  assets: Map<string, CatalogEntry>
  /** `${currency}|${method}` → Coinbase's payment method and its limits. */
  methods: Map<string, { coinbaseMethod: string; min: string; max: string }>
}

/**
 * Coinbase Onramp as an OnrampProvider: buy options, quotes, a session-token checkout URL on its hosted checkout, and
 * the status of an order's transaction, every call signed with the site's CDP Secret API key.
 * @example const coinbase = createCoinbaseOnramp({ id: 'coinbase', name: 'Coinbase', apiKeyName, apiKeySecret })
 */
export function createCoinbaseOnramp({
  id,
  name,
  apiKeyName,
  apiKeySecret,
  baseUrl,
  payBaseUrl,
  optionsCountry = 'US',
  fetch = globalThis.fetch,
  now = Date.now,
  timeoutMs = 10_000,
}: CreateCoinbaseOnrampParameters): OnrampProvider {
  const signer = cdpSigner(apiKeyName, apiKeySecret)
  const api = new URL(baseUrl)

  /** The one way to Coinbase: a JWT signed for this method, host and path, then requestJson (bounded, checked, no redirect). */
  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    schema: z.ZodMiniType<T>,
    { query, body, refusal }: { query?: Record<string, string>; body?: unknown; refusal?: { message: string; field?: string } } = {},
  ): Promise<T> {
    const url = new URL(path, api)
    for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value)
    const jwt = signer({ method, host: url.host, path: url.pathname, nowS: Math.floor(now() / 1000) })
    return requestJson({ provider: 'Coinbase Onramp', fetch, method, url, path, headers: { authorization: `Bearer ${jwt}` }, body, schema, timeoutMs, refusal })
  }

  async function fetchCatalog(): Promise<Catalog> {
    const answer = await call('GET', '/onramp/v1/buy/options', optionsSchema, { query: { country: optionsCountry } })
    return toCatalog(answer)
  }

  // The buy options quote() and checkout() name networks and assets by.
  const catalog = createCatalogCache({ load: fetchCatalog, ttlMs: CATALOG_TTL_MS, now })

  const assetOn = async (network: string, asset: string) => {
    const entry = (await catalog.get()).assets.get(`${network}|${asset}`)
    if (!entry) throw new OnrampProviderError('refused', `Coinbase does not sell ${asset} on ${network}`, 'asset')
    return entry
  }

  return {
    id,
    name,

    async options() {
      return (await catalog.refresh()).options
    },

    async quote(request: OnrampQuoteRequest): Promise<OnrampQuote> {
      if (!FIAT_AMOUNT.test(request.amount)) throw new OnrampProviderError('refused', 'The amount is not a decimal amount', 'amount')
      const entry = await assetOn(request.network, request.asset)
      const country = request.country ?? optionsCountry
      const method = (await catalog.get()).methods.get(`${request.paymentCurrency}|${request.paymentMethod}`)
      // The limits are those of the options' country: elsewhere Coinbase alone knows them.
      if (country === optionsCountry) {
        if (!method) throw new OnrampProviderError('refused', `Coinbase does not take ${request.paymentMethod} payments in ${request.paymentCurrency}`, 'paymentMethod')
        if (compareDecimal(request.amount, method.min) < 0) throw new OnrampProviderError('refused', `Coinbase takes at least ${method.min} ${request.paymentCurrency}`, 'amount')
        if (compareDecimal(request.amount, method.max) > 0) throw new OnrampProviderError('refused', `Coinbase takes at most ${method.max} ${request.paymentCurrency}`, 'amount')
      }
      const answer = await call('POST', '/onramp/v1/buy/quote', quoteSchema, {
        body: {
          purchase_currency: entry.currencyId,
          purchase_network: entry.networkName,
          // Coinbase asks for two decimals ('100.00'); an amount with more is sent as given.
          payment_amount: twoDecimals(request.amount),
          payment_currency: request.paymentCurrency,
          payment_method: method?.coinbaseMethod ?? (request.paymentMethod === 'card' ? 'CARD' : 'ACH_BANK_ACCOUNT'),
          country,
        },
        refusal: { message: 'Coinbase will not quote this purchase' },
      })
      // Coinbase falls back to USD for a currency it does not take.
      if (answer.payment_total.currency !== request.paymentCurrency) {
        throw new OnrampProviderError('refused', `Coinbase does not take payment in ${request.paymentCurrency}`, 'paymentCurrency')
      }
      if (compareDecimal(answer.purchase_amount.value, '0') <= 0) throw new OnrampProviderError('unavailable', 'Coinbase Onramp quoted nothing to buy')
      return {
        provider: id,
        quoteId: answer.quote_id,
        paymentCurrency: request.paymentCurrency,
        paymentMethod: request.paymentMethod,
        paymentTotal: answer.payment_total.value,
        fees: { provider: answer.coinbase_fee.value, network: answer.network_fee.value },
        network: request.network,
        asset: request.asset,
        purchaseAmount: answer.purchase_amount.value,
        price: divideDecimal(answer.payment_subtotal.value, answer.purchase_amount.value),
      }
    },

    async checkout(request: OnrampCheckoutRequest): Promise<OnrampCheckout> {
      const { quote } = request
      if (request.orderId.length > MAX_PARTNER_USER_REF) {
        throw new OnrampProviderError('refused', `Coinbase takes an order reference of at most ${MAX_PARTNER_USER_REF} characters`, 'orderId')
      }
      const entry = await assetOn(quote.network, quote.asset)
      const method = (await catalog.get()).methods.get(`${quote.paymentCurrency}|${quote.paymentMethod}`)
      const { token } = await call('POST', '/onramp/v1/token', tokenSchema, {
        body: {
          addresses: [{ address: request.destination, blockchains: [entry.networkName] }],
          assets: [entry.asset.symbol],
          ...(request.clientIp ? { clientIp: request.clientIp } : {}),
        },
        refusal: { message: 'Coinbase will not open a checkout for this address and asset' },
      })
      const parameters = new URLSearchParams({
        sessionToken: token,
        defaultNetwork: entry.networkName,
        defaultPaymentMethod: method?.coinbaseMethod ?? (quote.paymentMethod === 'card' ? 'CARD' : 'ACH_BANK_ACCOUNT'),
        presetFiatAmount: quote.paymentTotal,
        fiatCurrency: quote.paymentCurrency,
        ...(quote.quoteId ? { quoteId: quote.quoteId } : {}),
        partnerUserRef: request.orderId,
        ...(request.redirectUrl ? { redirectUrl: request.redirectUrl } : {}),
      })
      return { url: `${new URL('/buy/select-asset', payBaseUrl)}?${parameters}` }
    },

    async orderStatus({ providerOrderId, orderId }): Promise<OnrampOrderUpdate | undefined> {
      const { transactions } = await call('GET', `/onramp/v1/buy/user/${encodeURIComponent(orderId)}/transactions`, transactionsSchema, {
        query: { pageSize: '10' },
      })
      const mine = transactions.filter((transaction) => transaction.partner_user_ref === undefined || transaction.partner_user_ref === orderId)
      // Newest first: with a ref unique to the order, the first is the order's.
      const transaction = providerOrderId ? mine.find((candidate) => candidate.transaction_id === providerOrderId) : mine[0]
      if (!transaction) return undefined
      const txHash = transaction.tx_hash && !/^(0x)?$/.test(transaction.tx_hash) ? transaction.tx_hash : undefined
      const status = statusOf(transaction.status, txHash)
      const purchase = typeof transaction.purchase_amount === 'string' ? transaction.purchase_amount : transaction.purchase_amount?.value
      return {
        status,
        ...(txHash && status !== 'failed' ? { txHash } : {}),
        ...(purchase && compareDecimal(purchase, '0') > 0 ? { purchaseAmount: purchase } : {}),
        ...(status === 'failed' ? { failureReason: 'Coinbase did not complete the purchase.' } : {}),
      }
    },
  }
}

/** ONRAMP_TRANSACTION_STATUS_*: SUCCESS landed, FAILED failed, IN_PROGRESS sent once it has a hash; anything else waits. */
function statusOf(status: string, txHash: string | undefined): OnrampOrderStatus {
  if (status === 'ONRAMP_TRANSACTION_STATUS_SUCCESS') return 'completed'
  if (status === 'ONRAMP_TRANSACTION_STATUS_FAILED') return 'failed'
  if (status === 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS' && txHash) return 'sent'
  return 'pending'
}

/** Coinbase's payment methods as ours: cards, and bank transfers (ACH, SEPA); the rest (wallets, Apple Pay…) skipped. */
function methodOf(coinbaseMethod: string): OnrampPaymentMethod | undefined {
  const upper = coinbaseMethod.toUpperCase()
  if (upper === 'CARD') return 'card'
  if (upper === 'ACH_BANK_ACCOUNT' || upper.startsWith('SEPA')) return 'bank'
  return undefined
}

/** A Coinbase network as CAIP-2: an EVM chain id, or Solana mainnet by name; undefined for the rest (skipped). */
function networkOf(network: { name: string; chain_id?: string }): string | undefined {
  if (network.chain_id && /^[1-9]\d{0,15}$/.test(network.chain_id)) return `eip155:${network.chain_id}`
  if (network.name === 'solana') return SOLANA_MAINNET
  return undefined
}

function toCatalog(answer: z.infer<typeof optionsSchema>): Catalog {
  const methods: Catalog['methods'] = new Map()
  const paymentCurrencies: OnrampOptions['paymentCurrencies'] = []
  for (const currency of answer.payment_currencies) {
    for (const limit of currency.limits) {
      const method = methodOf(limit.id)
      if (!method) continue
      const key = `${currency.id}|${method}`
      const known = methods.get(key)
      // Two of Coinbase's methods behind one of ours (ACH and SEPA): the widest range, quoted with the first.
      methods.set(key, known ? { ...known, min: minDecimal(known.min, limit.min), max: maxDecimal(known.max, limit.max) } : { coinbaseMethod: limit.id.toUpperCase(), min: limit.min, max: limit.max })
    }
    const limits: OnrampLimit[] = (['card', 'bank'] as const).flatMap((method) => {
      const known = methods.get(`${currency.id}|${method}`)
      return known ? [{ id: method, min: known.min, max: known.max }] : []
    })
    if (limits.length) paymentCurrencies.push({ id: currency.id, methods: limits })
  }
  const assets: Catalog['assets'] = new Map()
  for (const currency of answer.purchase_currencies) {
    for (const network of currency.networks) {
      const caip = networkOf(network)
      if (!caip) continue
      const address = network.contract_address || undefined
      const decimals = decimalsOf(caip, currency.symbol, !address)
      if (decimals === undefined) continue
      const asset: OnrampAsset = { network: caip, symbol: currency.symbol, name: currency.name, decimals, ...(address ? { address } : {}) }
      assets.set(`${caip}|${currency.symbol}`, { asset, currencyId: currency.id, networkName: network.name })
    }
  }
  return { options: { countries: [], paymentCurrencies, assets: [...assets.values()].map((entry) => entry.asset) }, assets, methods }
}

type Signer = (request: { method: string; host: string; path: string; nowS: number }) => string

/**
 * Signs CDP API key JWTs with node:crypto: ES256 for an EC P-256 PEM secret, EdDSA for a base64 Ed25519 secret
 * (32-byte seed then 32-byte public key). A secret of neither kind fails here, at configuration, never in a request.
 */
function cdpSigner(keyName: string, secret: string): Signer {
  const { key, alg } = privateKeyOf(secret)
  const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url')
  return ({ method, host, path, nowS }) => {
    const header = base64url(JSON.stringify({ alg, kid: keyName, typ: 'JWT', nonce: randomBytes(16).toString('hex') }))
    const claims = base64url(JSON.stringify({ iss: 'cdp', sub: keyName, nbf: nowS, exp: nowS + JWT_LIFETIME_S, uri: `${method} ${host}${path}` }))
    const input = Buffer.from(`${header}.${claims}`)
    const signature = alg === 'ES256' ? sign('sha256', input, { key, dsaEncoding: 'ieee-p1363' }) : sign(null, input, key)
    return `${header}.${claims}.${base64url(signature)}`
  }
}

function privateKeyOf(secret: string): { key: KeyObject; alg: 'ES256' | 'EdDSA' } {
  const invalid = () => new Error('The Coinbase API key secret is neither an EC P-256 private key in PEM nor a base64 Ed25519 key')
  // Secrets pasted into environment variables often keep their newlines escaped.
  const text = secret.trim().replace(/\\n/g, '\n')
  if (text.includes('-----BEGIN')) {
    let key: KeyObject
    try {
      key = createPrivateKey(text)
    } catch {
      throw invalid()
    }
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw invalid()
    return { key, alg: 'ES256' }
  }
  const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(text) ? Buffer.from(text, 'base64') : Buffer.alloc(0)
  if (bytes.length !== 64) throw invalid()
  try {
    const key = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: bytes.subarray(0, 32).toString('base64url'), x: bytes.subarray(32).toString('base64url') }, format: 'jwk' })
    return { key, alg: 'EdDSA' }
  } catch {
    throw invalid()
  }
}
