/**
 * Meld (an on-ramp aggregator: one API, many service providers) behind OnrampProvider. The request and answer shapes
 * follow Meld's published documentation, as recorded in ./recorded/meld-*.json:
 * - Authentication (`Authorization: BASIC <apiKey>`), base URLs (https://api.meld.io, sandbox https://api-sb.meld.io)
 *   and the `Meld-Version` header: https://docs.meld.io/docs/meld-api/getting-started,
 *   https://docs.meld.io/docs/versioning
 * - Properties and limits (countries, crypto currencies, fiat purchase limits), the recommended white-label flow:
 *   https://docs.meld.io/v2023-12-19/docs/recommended-white-label-flow and
 *   https://docs.meld.io/docs/stablecoins/white-label-api-integration/whitelabel-quickstart
 * - Crypto quote (quotes[].serviceProvider, sourceAmount, sourceAmountWithoutFees, destinationAmount, totalFee,
 *   networkFee, transactionFee, partnerFee, paymentMethodType): https://docs.meld.io/reference/crypto-quote-get and
 *   https://docs.meld.io/v2022-11-10/docs/crypto-quotes
 * - Crypto widget session (sessionData, sessionType BUY, externalSessionId → id, widgetUrl):
 *   https://docs.meld.io/api-reference/crypto/retail-ramp/crypto-session-widget-create
 * - Transactions (search by externalSessionIds; status, destinationAmount, cryptoDetails.blockchainTransactionId):
 *   https://docs.meld.io/reference/payments-transactions-search and
 *   https://docs.meld.io/api-reference/crypto/retail-ramp/payments-transactions-get
 * - Statuses (PENDING → SETTLING → SETTLED; ERROR temporary; FAILED, DECLINED, CANCELLED, REFUNDED final):
 *   https://docs.meld.io/docs/stablecoins/for-all-products/transaction-statuses
 *
 * What options() maps: the account's countries, its crypto currencies on EVM chains and Solana, and the fiat purchase
 * limits of cards (CREDIT_DEBIT_CARD) and bank transfers (BANK_TRANSFER). Meld has no quote id: ours names the service
 * provider, its payment method and the country (`TRANSAK:CREDIT_DEBIT_CARD:US`), which checkout hands back to Meld.
 * Orders are found by the order id, sent to Meld as the widget session's externalSessionId.
 */
import * as z from 'zod/mini'
import {
  OnrampProviderError,
  type OnrampAsset,
  type OnrampCheckout,
  type OnrampCheckoutRequest,
  type OnrampLimit,
  type OnrampOptions,
  type OnrampOrderUpdate,
  type OnrampPaymentMethod,
  type OnrampProvider,
  type OnrampQuote,
  type OnrampQuoteRequest,
} from './provider'

export type CreateMeldOnrampParameters = {
  /** The provider's id in the data service's configuration. */
  id: string
  name: string
  /** The Meld API key, sent as `Authorization: BASIC <apiKey>`. */
  apiKey: string
  /** Production https://api.meld.io (the default), sandbox https://api-sb.meld.io. */
  baseUrl?: string
  /** The country quotes are for when the request names none; default 'US'. */
  defaultCountry?: string
  fetch?: typeof globalThis.fetch
  now?: () => number
  timeoutMs?: number
}

/** The API version asked for: Meld answers with the newest version not newer than it (docs.meld.io/docs/versioning). */
export const MELD_VERSION = '2025-03-04'
/** Largest answer read from Meld: anything longer is refused unread. */
export const MAX_ANSWER_BYTES = 1024 * 1024
/** The catalog quote() and checkout() name assets by, kept this long. */
const CATALOG_TTL_MS = 60 * 60_000
const SOLANA_MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const FIAT_AMOUNT = /^\d{1,20}(\.\d{1,18})?$/
/** Our payment methods as Meld's: a card subtype, and the bank transfer type (Meld takes a type or a subtype). */
const MELD_METHOD: Record<OnrampPaymentMethod, string> = { card: 'CREDIT_DEBIT_CARD', bank: 'BANK_TRANSFER' }
const QUOTE_ID = /^([A-Z0-9_]{1,64}):([A-Z0-9_]{1,64}):([A-Z]{2})$/

const text = (max: number) => z.string().check(z.maxLength(max))
const amount = z.number().check(z.gte(0))
const code = z.string().check(z.regex(/^[A-Z0-9_]{1,64}$/))

const countriesSchema = z.array(z.object({ countryCode: z.string().check(z.regex(/^[A-Z]{2}$/)), name: z.nullish(text(256)) })).check(z.maxLength(1_000))
const cryptoCurrenciesSchema = z.array(
  z.object({
    currencyCode: text(64),
    name: z.nullish(text(256)),
    chainCode: z.nullish(text(64)),
    chainName: z.nullish(text(256)),
    chainId: z.nullish(text(32)),
    contractAddress: z.nullish(text(128)),
  }),
).check(z.maxLength(10_000))
const limitsSchema = z.array(
  z.object({ currencyCode: z.string().check(z.regex(/^[A-Z]{3}$/)), defaultAmount: z.nullish(amount), minimumAmount: amount, maximumAmount: amount }),
).check(z.maxLength(1_000))
const quoteSchema = z.object({
  quotes: z.nullish(
    z.array(
      z.object({
        serviceProvider: code,
        sourceAmount: amount,
        sourceAmountWithoutFees: z.nullish(amount),
        destinationAmount: amount,
        sourceCurrencyCode: text(64),
        destinationCurrencyCode: text(64),
        totalFee: z.nullish(amount),
        networkFee: z.nullish(amount),
        transactionFee: z.nullish(amount),
        partnerFee: z.nullish(amount),
        paymentMethodType: z.nullish(code),
      }),
    ).check(z.maxLength(200)),
  ),
})
const widgetSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(128)), widgetUrl: z.url({ protocol: /^https$/ }).check(z.maxLength(8_192)) })
const transactionsSchema = z.object({
  transactions: z.array(
    z.object({
      id: text(128),
      status: z.string().check(z.regex(/^[A-Z_ ]{1,64}$/)),
      sessionId: z.nullish(text(128)),
      externalSessionId: z.nullish(text(256)),
      destinationAmount: z.nullish(amount),
      cryptoDetails: z.nullish(z.object({ blockchainTransactionId: z.nullish(text(256)) })),
    }),
  ).check(z.maxLength(100)),
})

type Catalog = {
  options: OnrampOptions
  /** `${network}|${symbol}` → Meld's currency code. */
  codes: Map<string, string>
  /** `${currency}|${method}` → the purchase limits. */
  limits: Map<string, OnrampLimit>
}

/**
 * Meld as an OnrampProvider: its account's countries, assets and limits, the best of its service providers' quotes
 * (the most crypto), a widget checkout, and order status by our order id.
 * @example const meld = createMeldOnramp({ id: 'meld', name: 'Meld', apiKey, baseUrl: 'https://api-sb.meld.io' })
 */
export function createMeldOnramp({
  id,
  name,
  apiKey,
  baseUrl = 'https://api.meld.io',
  defaultCountry = 'US',
  fetch = globalThis.fetch,
  now = Date.now,
  timeoutMs = 10_000,
}: CreateMeldOnrampParameters): OnrampProvider {
  const api = new URL(baseUrl)

  /**
   * The one way to Meld:
   * 1. send with the key and version, a timeout, and no redirect followed;
   * 2. read at most MAX_ANSWER_BYTES;
   * 3. a 2xx must be JSON in the published shape; a 400 or 422 is `refused` where the call says what a refusal is,
   *    anything else `unavailable`. Meld's own text never reaches the error.
   */
  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    schema: z.ZodMiniType<T>,
    { query, body, refusal }: { query?: Record<string, string>; body?: unknown; refusal?: string } = {},
  ): Promise<T> {
    const url = new URL(path, api)
    for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value)
    let response: Response
    try {
      response = await fetch(url, {
        method,
        headers: { authorization: `BASIC ${apiKey}`, 'meld-version': MELD_VERSION, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (error) {
      throw unreachable(error, path, timeoutMs)
    }
    const answerText = await readBounded(response, path, timeoutMs)
    if (response.status < 200 || response.status > 299) {
      if (refusal && (response.status === 400 || response.status === 422)) throw new OnrampProviderError('refused', refusal)
      throw new OnrampProviderError('unavailable', `Meld answered ${path} with HTTP ${response.status}`)
    }
    let json: unknown
    try {
      json = JSON.parse(answerText)
    } catch {
      throw new OnrampProviderError('unavailable', `Meld answered ${path} with a body that is not JSON`)
    }
    const parsed = schema.safeParse(json)
    if (!parsed.success) throw new OnrampProviderError('unavailable', `Meld answered ${path} in a shape it does not publish`)
    return parsed.data
  }

  async function fetchCatalog(): Promise<Catalog> {
    const account = { categories: 'CRYPTO_ONRAMP', accountFilter: 'true' }
    const [countries, currencies, cardLimits, bankLimits] = await Promise.all([
      call('GET', '/service-providers/properties/countries', countriesSchema, { query: account }),
      call('GET', '/service-providers/properties/crypto-currencies', cryptoCurrenciesSchema, { query: account }),
      call('GET', '/service-providers/limits/fiat-currency-purchases', limitsSchema, { query: { ...account, paymentMethodTypes: MELD_METHOD.card } }),
      call('GET', '/service-providers/limits/fiat-currency-purchases', limitsSchema, { query: { ...account, paymentMethodTypes: MELD_METHOD.bank } }),
    ])
    return toCatalog(countries, currencies, { card: cardLimits, bank: bankLimits })
  }

  let cached: { catalog: Promise<Catalog>; expiresAt: number } | undefined
  const remember = (catalog: Promise<Catalog>) => {
    const entry = { catalog, expiresAt: now() + CATALOG_TTL_MS }
    cached = entry
    catalog.catch(() => {
      if (cached === entry) cached = undefined
    })
    return catalog
  }
  const catalog = () => (cached && cached.expiresAt > now() ? cached.catalog : remember(fetchCatalog()))

  const codeOf = async (network: string, asset: string) => {
    const meldCode = (await catalog()).codes.get(`${network}|${asset}`)
    if (!meldCode) throw new OnrampProviderError('refused', `Meld does not sell ${asset} on ${network}`, 'asset')
    return meldCode
  }

  return {
    id,
    name,

    async options() {
      return (await remember(fetchCatalog())).options
    },

    async quote(request: OnrampQuoteRequest): Promise<OnrampQuote> {
      if (!FIAT_AMOUNT.test(request.amount)) throw new OnrampProviderError('refused', 'The amount is not a decimal amount', 'amount')
      const destinationCurrencyCode = await codeOf(request.network, request.asset)
      const limit = (await catalog()).limits.get(`${request.paymentCurrency}|${request.paymentMethod}`)
      if (limit && compareDecimal(request.amount, limit.min) < 0) throw new OnrampProviderError('refused', `Meld takes at least ${limit.min} ${request.paymentCurrency}`, 'amount')
      if (limit && compareDecimal(request.amount, limit.max) > 0) throw new OnrampProviderError('refused', `Meld takes at most ${limit.max} ${request.paymentCurrency}`, 'amount')
      const countryCode = request.country ?? defaultCountry
      const answer = await call('POST', '/payments/crypto/quote', quoteSchema, {
        body: {
          countryCode,
          sourceCurrencyCode: request.paymentCurrency,
          sourceAmount: Number(request.amount),
          destinationCurrencyCode,
          paymentMethodType: MELD_METHOD[request.paymentMethod],
          ...(request.destination ? { walletAddress: request.destination } : {}),
        },
        refusal: 'Meld has no quote for this purchase',
      })
      // The best of the service providers' quotes: the most crypto for the money.
      const best = (answer.quotes ?? [])
        .filter((quote) => quote.destinationCurrencyCode === destinationCurrencyCode && quote.sourceCurrencyCode === request.paymentCurrency && quote.destinationAmount > 0)
        .reduce<NonNullable<typeof answer.quotes>[number] | undefined>((found, quote) => (!found || quote.destinationAmount > found.destinationAmount ? quote : found), undefined)
      if (!best) throw new OnrampProviderError('refused', 'Meld has no quote for this purchase')
      const paymentTotal = decimalOf(best.sourceAmount)
      const networkFee = decimalOf(best.networkFee ?? 0)
      // The total fee less the network's is the provider's (its transaction fee and the partner fee, and any other).
      const providerFee =
        best.totalFee != null ? maxDecimal(subtractDecimal(decimalOf(best.totalFee), networkFee), '0') : addDecimal(decimalOf(best.transactionFee ?? 0), decimalOf(best.partnerFee ?? 0))
      const subtotal = best.sourceAmountWithoutFees != null ? decimalOf(best.sourceAmountWithoutFees) : subtractDecimal(paymentTotal, addDecimal(providerFee, networkFee))
      const purchaseAmount = decimalOf(best.destinationAmount)
      if (compareDecimal(purchaseAmount, '0') <= 0 || compareDecimal(subtotal, '0') <= 0) throw new OnrampProviderError('unavailable', 'Meld quoted amounts that do not add up')
      return {
        provider: id,
        quoteId: `${best.serviceProvider}:${best.paymentMethodType ?? MELD_METHOD[request.paymentMethod]}:${countryCode}`,
        paymentCurrency: request.paymentCurrency,
        paymentMethod: request.paymentMethod,
        paymentTotal,
        fees: { provider: providerFee, network: networkFee },
        network: request.network,
        asset: request.asset,
        purchaseAmount,
        price: divideDecimal(subtotal, purchaseAmount),
      }
    },

    async checkout(request: OnrampCheckoutRequest): Promise<OnrampCheckout> {
      const { quote } = request
      const [, serviceProvider, paymentMethodType, countryCode] = QUOTE_ID.exec(quote.quoteId ?? '') ?? []
      if (!serviceProvider || !paymentMethodType || !countryCode) throw new OnrampProviderError('refused', 'The quote is not one of Meld’s', 'quote')
      const destinationCurrencyCode = await codeOf(quote.network, quote.asset)
      const widget = await call('POST', '/crypto/session/widget', widgetSchema, {
        body: {
          sessionType: 'BUY',
          externalSessionId: request.orderId,
          externalCustomerId: request.partnerUserId,
          sessionData: {
            walletAddress: request.destination,
            countryCode,
            sourceCurrencyCode: quote.paymentCurrency,
            sourceAmount: quote.paymentTotal,
            destinationCurrencyCode,
            paymentMethodType,
            serviceProvider,
            ...(request.redirectUrl ? { redirectUrl: request.redirectUrl } : {}),
          },
        },
        refusal: 'Meld will not open a checkout for this purchase',
      })
      return { url: widget.widgetUrl, providerOrderId: widget.id }
    },

    async orderStatus({ orderId, providerOrderId }): Promise<OnrampOrderUpdate | undefined> {
      const { transactions } = await call('GET', '/payments/transactions', transactionsSchema, { query: { externalSessionIds: orderId, limit: '10' } })
      const transaction = transactions.find((candidate) => candidate.externalSessionId === orderId || (providerOrderId !== undefined && candidate.sessionId === providerOrderId))
      if (!transaction) return undefined
      const update = updateOf(transaction.status)
      const txHash = transaction.cryptoDetails?.blockchainTransactionId || undefined
      return {
        ...update,
        ...(txHash && update.status !== 'failed' && update.status !== 'pending' ? { txHash } : {}),
        ...(transaction.destinationAmount ? { purchaseAmount: decimalOf(transaction.destinationAmount) } : {}),
      }
    },
  }
}

/** Meld's statuses as ours: SETTLING is sent, SETTLED landed, the terminal failures failed; the rest (ERROR too: Meld may retry) wait. */
function updateOf(status: string): Pick<OnrampOrderUpdate, 'status' | 'failureReason'> {
  switch (status.replace(/ /g, '_')) {
    case 'SETTLING':
    case 'ONRAMP_SETTLED':
      return { status: 'sent' }
    case 'SETTLED':
      return { status: 'completed' }
    case 'DECLINED':
      return { status: 'failed', failureReason: 'The payment was declined.' }
    case 'CANCELLED':
    case 'VOIDED':
      return { status: 'failed', failureReason: 'The purchase was cancelled.' }
    case 'REFUNDED':
      return { status: 'failed', failureReason: 'The payment was refunded.' }
    case 'AUTHORIZATION_EXPIRED':
      return { status: 'failed', failureReason: 'The payment authorization expired.' }
    case 'FAILED':
      return { status: 'failed', failureReason: 'The purchase did not complete.' }
    default:
      return { status: 'pending' }
  }
}

/** A Meld chain as CAIP-2: an EVM chain id, or Solana by its code or name; undefined for the rest (skipped). */
function networkOf(currency: { chainId?: string | null; chainCode?: string | null; chainName?: string | null }): string | undefined {
  if (currency.chainId && /^[1-9]\d{0,15}$/.test(currency.chainId)) return `eip155:${currency.chainId}`
  if (currency.chainCode === 'SOL' || currency.chainName === 'Solana') return SOLANA_MAINNET
  return undefined
}

/** Native-currency placeholders some lists give instead of no address. */
const NATIVE_ADDRESSES = new Set(['0x0000000000000000000000000000000000000000', '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'])

function toCatalog(
  countries: z.infer<typeof countriesSchema>,
  currencies: z.infer<typeof cryptoCurrenciesSchema>,
  limitsByMethod: Record<OnrampPaymentMethod, z.infer<typeof limitsSchema>>,
): Catalog {
  const limits: Catalog['limits'] = new Map()
  const byCurrency = new Map<string, OnrampLimit[]>()
  for (const method of ['card', 'bank'] as const) {
    for (const limit of limitsByMethod[method]) {
      const entry: OnrampLimit = { id: method, min: decimalOf(limit.minimumAmount), max: decimalOf(limit.maximumAmount) }
      limits.set(`${limit.currencyCode}|${method}`, entry)
      byCurrency.set(limit.currencyCode, [...(byCurrency.get(limit.currencyCode) ?? []), entry])
    }
  }
  const codes: Catalog['codes'] = new Map()
  const assets: OnrampAsset[] = []
  for (const currency of currencies) {
    const network = networkOf(currency)
    if (!network) continue
    // Meld's codes name the asset and, past the first chain, its chain: ETH, ETH_BASE, USDC_SOL.
    const symbol = currency.currencyCode.split('_')[0]!
    const address = currency.contractAddress && !NATIVE_ADDRESSES.has(currency.contractAddress.toLowerCase()) ? currency.contractAddress : undefined
    const decimals = decimalsOf(network, symbol, !address)
    if (!symbol || decimals === undefined || codes.has(`${network}|${symbol}`)) continue
    codes.set(`${network}|${symbol}`, currency.currencyCode)
    assets.push({ network, symbol, name: currency.name ?? symbol, decimals, ...(address ? { address } : {}) })
  }
  return {
    options: {
      countries: countries.map((country) => country.countryCode),
      paymentCurrencies: [...byCurrency].map(([currency, methods]) => ({ id: currency, methods })),
      assets,
    },
    codes,
    limits,
  }
}

/**
 * Meld's currency list carries no decimals. The native currency of an EVM chain has 18 and SOL 9; a token only where
 * its network and symbol settle it: USDC, USDT, EURC and PYUSD 6 on the networks listed, ETH, WETH and DAI 18 on EVM
 * chains, wrapped bitcoin 8 on EVM chains and Solana. Anything else is skipped rather than guessed.
 */
function decimalsOf(network: string, symbol: string, isNative: boolean): number | undefined {
  const isEvm = network.startsWith('eip155:')
  if (isNative) return isEvm ? 18 : network === SOLANA_MAINNET ? 9 : undefined
  const upper = symbol.toUpperCase()
  if (['USDC', 'USDT', 'EURC', 'PYUSD'].includes(upper)) return SIX_DECIMAL_STABLECOIN_NETWORKS.has(network) ? 6 : undefined
  if (['ETH', 'WETH', 'DAI'].includes(upper)) return isEvm ? 18 : undefined
  if (['BTC', 'CBBTC', 'WBTC'].includes(upper)) return isEvm || network === SOLANA_MAINNET ? 8 : undefined
  return undefined
}
/** Ethereum, Optimism, Polygon, Base, Arbitrum One, Avalanche C-Chain and Solana: their dollar and euro coins have 6 decimals. */
const SIX_DECIMAL_STABLECOIN_NETWORKS = new Set(['eip155:1', 'eip155:10', 'eip155:137', 'eip155:8453', 'eip155:42161', 'eip155:43114', SOLANA_MAINNET])

function unreachable(error: unknown, path: string, timeoutMs: number) {
  const isTimeout = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
  return new OnrampProviderError('unavailable', isTimeout ? `Meld did not answer ${path} within ${timeoutMs} ms` : `Meld could not be reached for ${path}`)
}

/** The answer's text, at most MAX_ANSWER_BYTES of it: a longer one is cancelled (not awaited) and left unread. */
async function readBounded(response: Response, path: string, timeoutMs: number): Promise<string> {
  const tooLong = () => new OnrampProviderError('unavailable', `Meld answered ${path} with more than ${MAX_ANSWER_BYTES} bytes`)
  if (Number(response.headers.get('content-length') ?? 0) > MAX_ANSWER_BYTES) {
    void response.body?.cancel().catch(() => undefined)
    throw tooLong()
  }
  const reader = response.body?.getReader()
  const chunks: Uint8Array[] = []
  let bytes = 0
  try {
    while (reader) {
      const { done, value } = await reader.read()
      if (done) break
      bytes += value.byteLength
      if (bytes > MAX_ANSWER_BYTES) {
        void reader.cancel().catch(() => undefined)
        throw tooLong()
      }
      chunks.push(value)
    }
  } catch (error) {
    if (error instanceof OnrampProviderError) throw error
    throw unreachable(error, path, timeoutMs)
  }
  return Buffer.concat(chunks).toString('utf8')
}

// Meld's amounts are JSON numbers; ours decimal strings, added and divided as scaled bigints, never as floats.
const SCALE = 30
/** A non-negative number as a plain decimal string (no exponent): 0.00066413 → '0.00066413'. */
const decimalOf = (value: number) => value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 })
const scaled = (value: string) => {
  const negative = value.startsWith('-')
  const [whole = '0', fraction = ''] = (negative ? value.slice(1) : value).split('.')
  const magnitude = BigInt(whole + fraction.padEnd(SCALE, '0').slice(0, SCALE))
  return negative ? -magnitude : magnitude
}
const unscaled = (value: bigint) => {
  const digits = (value < 0n ? -value : value).toString().padStart(SCALE + 1, '0')
  const fraction = digits.slice(-SCALE).replace(/0+$/, '')
  return `${value < 0n ? '-' : ''}${digits.slice(0, -SCALE)}${fraction ? `.${fraction}` : ''}`
}
const compareDecimal = (a: string, b: string) => {
  const difference = scaled(a) - scaled(b)
  return difference < 0n ? -1 : difference > 0n ? 1 : 0
}
const maxDecimal = (a: string, b: string) => (compareDecimal(a, b) >= 0 ? a : b)
const addDecimal = (a: string, b: string) => unscaled(scaled(a) + scaled(b))
const subtractDecimal = (a: string, b: string) => unscaled(scaled(a) - scaled(b))

/** a ÷ b to `places` decimals, rounded half up, trailing zeros dropped. */
function divideDecimal(a: string, b: string, places = 8): string {
  const numerator = scaled(a) * 10n ** BigInt(places) * 2n
  const quotient = (numerator / scaled(b) + 1n) / 2n
  const digits = quotient.toString().padStart(places + 1, '0')
  const fraction = digits.slice(-places).replace(/0+$/, '')
  return fraction ? `${digits.slice(0, -places)}.${fraction}` : digits.slice(0, -places)
}
