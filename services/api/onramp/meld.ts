/**
 * Meld behind OnrampProvider, in the request and answer shapes its published documentation gives (recorded in
 * ./recorded/meld-*.json; the pages are listed in ./recorded/SOURCES.md). Its hosts come from the site's configuration
 * (`baseUrl`): nothing of this adapter names a vendor host by default.
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
import { addDecimal, compareDecimal, decimalOf, decimalsOf, divideDecimal, maxDecimal, SOLANA_MAINNET, subtractDecimal } from './decimals'
import { CATALOG_TTL_MS, createCatalogCache, FIAT_AMOUNT, requestJson } from './providerHttp'

export type CreateMeldOnrampParameters = {
  /** The provider's id in the data service's configuration. */
  id: string
  name: string
  /** The Meld API key, sent as `Authorization: BASIC <apiKey>`. */
  apiKey: string
  /** Meld's API origin (production or sandbox), as the site configures it. */
  baseUrl: string
  /** The country quotes are for when the request names none; default 'US'. */
  defaultCountry?: string
  fetch?: typeof globalThis.fetch
  now?: () => number
  timeoutMs?: number
}

/** The API version asked for: Meld answers with the newest version not newer than it (see recorded/SOURCES.md, versioning). */
export const MELD_VERSION = '2025-03-04'
/** Largest answer read from Meld: anything longer is refused unread. */
export { MAX_ANSWER_BYTES } from './providerHttp'
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
 * @example const meld = createMeldOnramp({ id: 'meld', name: 'Meld', apiKey, baseUrl: configured.meld.baseUrl })
 */
export function createMeldOnramp({
  id,
  name,
  apiKey,
  baseUrl,
  defaultCountry = 'US',
  fetch = globalThis.fetch,
  now = Date.now,
  timeoutMs = 10_000,
}: CreateMeldOnrampParameters): OnrampProvider {
  const api = new URL(baseUrl)

  /** The one way to Meld: the key and version headers, then requestJson (bounded, checked, no redirect). */
  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    schema: z.ZodMiniType<T>,
    { query, body, refusal }: { query?: Record<string, string>; body?: unknown; refusal?: { message: string } } = {},
  ): Promise<T> {
    const url = new URL(path, api)
    for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value)
    const headers = { authorization: `BASIC ${apiKey}`, 'meld-version': MELD_VERSION }
    return requestJson({ provider: 'Meld', fetch, method, url, path, headers, body, schema, timeoutMs, refusal })
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

  // The catalog quote() and checkout() name assets by.
  const catalog = createCatalogCache({ load: fetchCatalog, ttlMs: CATALOG_TTL_MS, now })

  const codeOf = async (network: string, asset: string) => {
    const meldCode = (await catalog.get()).codes.get(`${network}|${asset}`)
    if (!meldCode) throw new OnrampProviderError('refused', `Meld does not sell ${asset} on ${network}`, 'asset')
    return meldCode
  }

  return {
    id,
    name,

    async options() {
      return (await catalog.refresh()).options
    },

    async quote(request: OnrampQuoteRequest): Promise<OnrampQuote> {
      if (!FIAT_AMOUNT.test(request.amount)) throw new OnrampProviderError('refused', 'The amount is not a decimal amount', 'amount')
      const destinationCurrencyCode = await codeOf(request.network, request.asset)
      const limit = (await catalog.get()).limits.get(`${request.paymentCurrency}|${request.paymentMethod}`)
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
        refusal: { message: 'Meld has no quote for this purchase' },
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
        refusal: { message: 'Meld will not open a checkout for this purchase' },
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
