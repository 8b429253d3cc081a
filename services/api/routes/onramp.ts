import { base58 } from '@scure/base'
import { Hono } from 'hono'
import { isAddress } from 'viem'
import * as z from 'zod/mini'
import { errorBody, type ApiConfig } from '../config'
import { createOnrampOrders, type OnrampOrder } from '../onramp/orders'
import { OnrampProviderError, type OnrampAsset, type OnrampOptions, type OnrampPaymentMethod, type OnrampProvider, type OnrampQuote, type OnrampQuoteRequest } from '../onramp/provider'
import { createOnrampProviders } from '../onramp/providers'
import { text, validate } from './validate'
import { visitorIp } from '../visitorIp'

/** Built-in sample options (SPEC §8: used when no provider answers): card 10–7,500, bank account 10–25,000, USD and EUR. */
export const sampleOnrampOptions = {
  paymentCurrencies: [
    { id: 'USD', paymentMethodLimits: [{ id: 'card', min: '10.00', max: '7500.00' }, { id: 'ACH_BANK_ACCOUNT', min: '10.00', max: '25000.00' }] },
    { id: 'EUR', paymentMethodLimits: [{ id: 'card', min: '10.00', max: '7500.00' }, { id: 'SEPA_BANK_ACCOUNT', min: '10.00', max: '25000.00' }] },
  ],
  purchaseCurrencies: [
    { id: 'ETH', name: 'Ethereum', symbol: 'ETH', networks: [{ name: 'ethereum', display_name: 'Ethereum', chain_id: '1', contract_address: '' }] },
    { id: 'USDC', name: 'USD Coin', symbol: 'USDC', networks: [{ name: 'ethereum', display_name: 'Ethereum', chain_id: '1', contract_address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' }] },
  ],
}

/** The sample options in the shape every provider's options are merged into (the widget reads this one). */
const sampleOptions: OnrampOptions = {
  countries: [],
  paymentCurrencies: [
    { id: 'USD', methods: [{ id: 'card', min: '10.00', max: '7500.00' }, { id: 'bank', min: '10.00', max: '25000.00' }] },
    { id: 'EUR', methods: [{ id: 'card', min: '10.00', max: '7500.00' }, { id: 'bank', min: '10.00', max: '25000.00' }] },
  ],
  assets: [
    { network: 'eip155:1', symbol: 'ETH', name: 'Ethereum', decimals: 18 },
    { network: 'eip155:1', symbol: 'USDC', name: 'USD Coin', decimals: 6, address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' },
  ],
}

/** The placeholder quote (SPEC §8): zero amounts, so nothing looks like a real price. */
export const placeholderQuote = (currency: string, purchase: string) => ({
  paymentTotal: { value: '0', currency },
  paymentSubtotal: { value: '0', currency },
  purchaseAmount: { value: '0', currency: purchase },
  coinbaseFee: { value: '0', currency },
  networkFee: { value: '0', currency },
  quoteId: 'placeholder',
})

/** How long the merged options are kept: providers change them rarely, and every Buy view asks. */
const OPTIONS_CACHE_MS = 60_000
/** An order's status is read from its provider at most this often (the widget polls every few seconds). */
const ORDER_POLL_MS = 3_000

const currencyId = z.object({ id: text({ max: 16, min: 1, pattern: /^[A-Za-z0-9._-]+$/, patternMessage: 'Expected a currency id of letters and digits' }) })
const network = text({ max: 64 })
const paymentMethod = z.optional(z.enum(['card', 'bank'], 'Expected card or bank'))
const providerId = z.optional(text({ max: 64, min: 1 }))
/** A preset amount: a plain non-negative number, at most 10^15 so it prints without an exponent. */
const presetAmount = z.number().check(z.gte(0, 'must be at least 0'), z.lte(1e15, 'must be at most 1000000000000000'))

const quoteSchema = z.object({
  purchaseCurrency: currencyId,
  paymentCurrency: currencyId,
  amount: text({ max: 32, pattern: /^\d{1,20}(\.\d{1,18})?$/, patternMessage: 'Expected a decimal amount' }),
  network,
  paymentMethod,
})

const onrampUrlSchema = z.object({
  destinationWallets: z
    .array(z.object({ address: text({ max: 128, min: 1 }), blockchains: z.optional(z.array(network).check(z.maxLength(32, 'must have at most 32 items'))), assets: z.optional(z.array(text({ max: 16 })).check(z.maxLength(32, 'must have at most 32 items'))) }))
    .check(z.minLength(1, 'must have at least 1 wallet'), z.maxLength(10, 'must have at most 10 wallets')),
  defaultNetwork: z.optional(network),
  partnerUserId: text({ max: 128, min: 1 }),
  defaultExperience: z.optional(z.literal('buy')),
  presetCryptoAmount: z.optional(presetAmount),
  presetFiatAmount: z.optional(presetAmount),
  // Ours, beside the spec's: which provider, the currency and method, the asset (else the wallet's first), the page to return to.
  provider: providerId,
  paymentCurrency: z.optional(currencyId.shape.id),
  paymentMethod,
  defaultAsset: z.optional(text({ max: 16, min: 1 })),
  redirectUrl: z.optional(text({ max: 2048, pattern: /^https?:\/\//, patternMessage: 'Expected an http(s) URL' })),
})

const orderParams = z.object({ orderId: text({ max: 64, min: 1, pattern: /^[0-9a-f]{32}$/, patternMessage: 'Expected an order id of 32 hex digits' }) })
const webhookParams = z.object({ provider: text({ max: 64, min: 1 }) })

/** Whether `address` is an address of `networkId`'s family: 0x… for eip155, 32 base58 bytes for solana. */
function isAddressOf(networkId: string, address: string): boolean {
  if (networkId.startsWith('eip155:')) return isAddress(address, { strict: false })
  if (networkId.startsWith('solana:')) {
    try {
      return base58.decode(address).length === 32
    } catch {
      return false
    }
  }
  return false
}

/** '7,500.00 USD' */
const money = (value: string, currency: string) => `${Number(value).toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`

/** Merges providers' options: every currency, method and asset any of them offers, each method's widest limits. */
function mergeOptions(all: readonly OnrampOptions[]): OnrampOptions {
  const currencies = new Map<string, Map<OnrampPaymentMethod, { min: string; max: string }>>()
  const assets = new Map<string, OnrampAsset>()
  const countries = new Set<string>()
  for (const options of all) {
    for (const country of options.countries) countries.add(country)
    for (const currency of options.paymentCurrencies) {
      const methods = currencies.get(currency.id) ?? new Map()
      currencies.set(currency.id, methods)
      for (const limit of currency.methods) {
        const known = methods.get(limit.id)
        methods.set(limit.id, known ? { min: Number(limit.min) < Number(known.min) ? limit.min : known.min, max: Number(limit.max) > Number(known.max) ? limit.max : known.max } : { min: limit.min, max: limit.max })
      }
    }
    for (const asset of options.assets) assets.set(`${asset.network}|${asset.symbol}`, asset)
  }
  return {
    countries: [...countries],
    paymentCurrencies: [...currencies].map(([id, methods]) => ({ id, methods: [...methods].map(([method, limit]) => ({ id: method, ...limit })) })),
    assets: [...assets.values()],
  }
}

const orderAnswer = (order: OnrampOrder) => ({
  orderId: order.id,
  provider: order.provider,
  status: order.status,
  network: order.network,
  asset: order.asset,
  destination: order.destination,
  paymentCurrency: order.paymentCurrency,
  paymentMethod: order.paymentMethod,
  paymentTotal: order.paymentTotal,
  purchaseAmount: order.purchaseAmount,
  ...(order.txHash && { txHash: order.txHash }),
  ...(order.failureReason && { failureReason: order.failureReason }),
  createdAt: order.createdAt,
  updatedAt: order.updatedAt,
})

/**
 * On-ramp (SPEC §7): the configured providers behind one interface (services/api/onramp/provider.ts).
 * - `GET /v1/onramp/options`: every provider's options merged (SPEC §8: the built-in samples, `isEstimate`, when none answers);
 * - `POST /v1/onramp/quote`: every provider's quote side by side, most received first (SPEC §8: the placeholder when none answers);
 * - `POST /v1/generators/onrampurl`: a fresh quote from the chosen provider, the order recorded, the provider's checkout URL;
 *   the destination must be an address of the network, the amount within the provider's limits, the asset one it sells;
 * - `GET /v1/onramp/orders/:orderId`: the order's course (read from the provider at most every 3 s while under way);
 * - `POST /v1/onramp/webhooks/:provider`: the provider's signed reports; forged ones, replays, orders we never issued
 *   and reports that would go back are refused.
 * @example app.route('/', onrampRoutes(config))
 */
export function onrampRoutes(config: ApiConfig) {
  const { db, now = Date.now, log = console.error, trustedProxies = [] } = config
  const providers: readonly OnrampProvider[] = config.onrampProviders ?? createOnrampProviders(config.onramp?.providers ?? [])
  const byId = new Map(providers.map((provider) => [provider.id, provider]))
  const orders = createOnrampOrders(db, { now })
  const app = new Hono()
  let optionsCache: { at: number; answer: { provider: OnrampProvider; options: OnrampOptions }[] } | undefined
  const lastPoll = new Map<string, number>()

  /** Each provider's options (cached a minute); a provider that fails is left out and logged. */
  async function providerOptions() {
    if (optionsCache && now() - optionsCache.at < OPTIONS_CACHE_MS) return optionsCache.answer
    const settled = await Promise.allSettled(providers.map(async (provider) => ({ provider, options: await provider.options() })))
    const answer = settled.flatMap((result, i) => {
      if (result.status === 'fulfilled') return [result.value]
      log(`data service: on-ramp options of ${providers[i]!.id}: ${(result.reason as Error).message}`)
      return []
    })
    if (answer.length > 0) optionsCache = { at: now(), answer }
    return answer
  }

  /** Why `provider` cannot sell this, as a 400 naming the field; undefined when its options allow it. */
  function refusal(options: OnrampOptions, request: Pick<OnrampQuoteRequest, 'paymentCurrency' | 'paymentMethod' | 'amount' | 'network' | 'asset'>): { field: string; message: string } | undefined {
    const currency = options.paymentCurrencies.find((c) => c.id === request.paymentCurrency)
    if (!currency) return { field: 'paymentCurrency', message: `Payments in ${request.paymentCurrency} are not offered` }
    const limit = currency.methods.find((m) => m.id === request.paymentMethod)
    if (!limit) return { field: 'paymentMethod', message: `Paying by ${request.paymentMethod} is not offered in ${request.paymentCurrency}` }
    const amount = Number(request.amount)
    if (amount < Number(limit.min) || amount > Number(limit.max)) {
      return { field: 'amount', message: `The amount must be between ${money(limit.min, currency.id)} and ${money(limit.max, currency.id)} for ${request.paymentMethod === 'card' ? 'a card' : 'a bank transfer'}` }
    }
    if (!options.assets.some((a) => a.network === request.network && a.symbol === request.asset)) return { field: 'asset', message: `${request.asset} on ${request.network} is not sold here` }
    return undefined
  }

  app.get('/v1/onramp/options', async (c) => {
    const answers = await providerOptions()
    if (answers.length === 0) return c.json({ ...sampleOnrampOptions, providers: [], options: sampleOptions, isEstimate: true })
    return c.json({ ...sampleOnrampOptions, providers: answers.map(({ provider }) => ({ id: provider.id, name: provider.name })), options: mergeOptions(answers.map((a) => a.options)), isEstimate: false })
  })

  app.post('/v1/onramp/quote', async (c) => {
    const body = await validate(c, 'json', quoteSchema)
    if (!body.ok) return body.response
    const request: OnrampQuoteRequest = { paymentCurrency: body.data.paymentCurrency.id, paymentMethod: body.data.paymentMethod ?? 'card', amount: body.data.amount, network: body.data.network, asset: body.data.purchaseCurrency.id }
    const placeholder = () => c.json({ ...placeholderQuote(request.paymentCurrency, request.asset), quotes: [], failures: [], isEstimate: true })
    const answers = await providerOptions()
    if (answers.length === 0) return placeholder()
    // Only providers whose options allow it are asked; when none does, the first refusal is the answer.
    const able = answers.filter(({ options }) => !refusal(options, request))
    if (able.length === 0) {
      const first = refusal(answers[0]!.options, request)!
      return c.json(errorBody('ONRAMP_NOT_AVAILABLE', first.message, first.field), 400)
    }
    const settled = await Promise.allSettled(able.map(({ provider }) => provider.quote(request)))
    const quotes: OnrampQuote[] = []
    const failures: { provider: string; reason: 'unavailable' | 'refused'; message: string }[] = []
    settled.forEach((result, i) => {
      const provider = able[i]!.provider
      if (result.status === 'fulfilled') return void quotes.push(result.value)
      const error = result.reason
      if (error instanceof OnrampProviderError && error.kind === 'refused') return void failures.push({ provider: provider.id, reason: 'refused', message: error.message })
      log(`data service: on-ramp quote of ${provider.id}: ${(error as Error).message}`)
      failures.push({ provider: provider.id, reason: 'unavailable', message: `${provider.name} did not answer` })
    })
    if (quotes.length === 0) return c.json({ ...placeholderQuote(request.paymentCurrency, request.asset), quotes: [], failures, isEstimate: true })
    quotes.sort((a, b) => Number(b.purchaseAmount) - Number(a.purchaseAmount))
    const best = quotes[0]!
    return c.json({
      // The spec's fields, from the best quote.
      paymentTotal: { value: best.paymentTotal, currency: best.paymentCurrency },
      paymentSubtotal: { value: (Number(best.paymentTotal) - Number(best.fees.provider) - Number(best.fees.network)).toFixed(2), currency: best.paymentCurrency },
      purchaseAmount: { value: best.purchaseAmount, currency: best.asset },
      coinbaseFee: { value: best.fees.provider, currency: best.paymentCurrency },
      networkFee: { value: best.fees.network, currency: best.paymentCurrency },
      quoteId: best.quoteId ?? 'none',
      quotes: quotes.map((quote) => ({ ...quote, providerName: byId.get(quote.provider)?.name ?? quote.provider })),
      failures,
      isEstimate: false,
    })
  })

  app.post('/v1/generators/onrampurl', async (c) => {
    const body = await validate(c, 'json', onrampUrlSchema)
    if (!body.ok) return body.response
    const project = c.get('project' as never) as { id: string }
    if (providers.length === 0) return c.json(errorBody('ONRAMP_NOT_CONFIGURED', 'No on-ramp provider is configured on this service', 'provider'), 400)
    const provider = body.data.provider === undefined ? providers[0]! : byId.get(body.data.provider)
    if (!provider) return c.json(errorBody('INVALID_INPUT', `provider: ${body.data.provider} is not a configured on-ramp provider`, 'provider'), 400)
    const wallet = body.data.destinationWallets[0]!
    const networkId = body.data.defaultNetwork ?? wallet.blockchains?.[0]
    if (!networkId) return c.json(errorBody('INVALID_INPUT', 'defaultNetwork: the network to buy on is required', 'defaultNetwork'), 400)
    if (!isAddressOf(networkId, wallet.address)) return c.json(errorBody('INVALID_INPUT', `destinationWallets.0.address: not an address of ${networkId}`, 'destinationWallets.0.address'), 400)
    const asset = body.data.defaultAsset ?? wallet.assets?.[0]
    if (!asset) return c.json(errorBody('INVALID_INPUT', 'defaultAsset: the asset to buy is required', 'defaultAsset'), 400)
    if (body.data.presetFiatAmount === undefined) return c.json(errorBody('INVALID_INPUT', 'presetFiatAmount: the amount to pay is required', 'presetFiatAmount'), 400)
    const request: OnrampQuoteRequest = {
      paymentCurrency: body.data.paymentCurrency ?? 'USD',
      paymentMethod: body.data.paymentMethod ?? 'card',
      amount: body.data.presetFiatAmount.toFixed(2),
      network: networkId,
      asset,
      destination: wallet.address,
    }
    const options = (await providerOptions()).find((answer) => answer.provider === provider)?.options
    if (!options) return c.json(errorBody('ONRAMP_UNAVAILABLE', `${provider.name} is not answering: try again in a moment`, 'provider'), 503)
    const refused = refusal(options, request)
    if (refused) return c.json(errorBody('INVALID_INPUT', `${refused.field === 'amount' ? 'presetFiatAmount' : refused.field === 'asset' ? 'defaultAsset' : refused.field}: ${refused.message}`, refused.field === 'amount' ? 'presetFiatAmount' : refused.field === 'asset' ? 'defaultAsset' : refused.field), 400)
    if (!(await orders.hasRoomFor(project.id, body.data.partnerUserId))) return c.json(errorBody('TOO_MANY_ORDERS', 'Too many purchases are waiting for payment: finish or cancel one first', 'partnerUserId'), 429)
    try {
      const quote = await provider.quote(request)
      const orderId = orders.newId()
      const clientIp = visitorIp(c, trustedProxies)
      const checkout = await provider.checkout({ orderId, quote, destination: wallet.address, partnerUserId: body.data.partnerUserId, ...(body.data.redirectUrl && { redirectUrl: body.data.redirectUrl }), ...(clientIp && { clientIp }) })
      await orders.create({ id: orderId, projectId: project.id, partnerUserId: body.data.partnerUserId, destination: wallet.address, quote, ...(checkout.providerOrderId && { providerOrderId: checkout.providerOrderId }) })
      return c.json({ url: checkout.url, orderId, quote: { ...quote, providerName: provider.name } })
    } catch (error) {
      if (error instanceof OnrampProviderError && error.kind === 'refused') return c.json(errorBody('INVALID_INPUT', `${error.field ?? 'body'}: ${error.message}`, error.field ?? 'body'), 400)
      log(`data service: on-ramp checkout of ${provider.id}: ${(error as Error).message}`)
      return c.json(errorBody('ONRAMP_UNAVAILABLE', `${provider.name} is not answering: try again in a moment`, 'provider'), 503)
    }
  })

  app.get('/v1/onramp/orders/:orderId', async (c) => {
    const params = await validate(c, 'param', orderParams)
    if (!params.ok) return params.response
    const project = c.get('project' as never) as { id: string }
    let order = await orders.get(params.data.orderId)
    if (!order || order.projectId !== project.id) return c.json(errorBody('ORDER_NOT_FOUND', 'No such on-ramp order', 'orderId'), 404)
    const provider = byId.get(order.provider)
    const polledAt = lastPoll.get(order.id) ?? 0
    if (provider?.orderStatus && (order.status === 'pending' || order.status === 'sent') && now() - polledAt >= ORDER_POLL_MS) {
      lastPoll.set(order.id, now())
      if (lastPoll.size > 10_000) lastPoll.delete(lastPoll.keys().next().value!)
      const update = await provider.orderStatus({ orderId: order.id, partnerUserId: order.partnerUserId, ...(order.providerOrderId && { providerOrderId: order.providerOrderId }) }).catch((error: unknown) => {
        log(`data service: on-ramp order status of ${provider.id}: ${(error as Error).message}`)
        return undefined
      })
      if (update && update.status !== order.status) {
        await orders.update(order.id, provider.id, update)
        order = (await orders.get(order.id))!
      }
    }
    return c.json(orderAnswer(order))
  })

  app.post('/v1/onramp/webhooks/:provider', async (c) => {
    const params = await validate(c, 'param', webhookParams)
    if (!params.ok) return params.response
    const provider = byId.get(params.data.provider)
    if (!provider?.readEvent) return c.json(errorBody('NOT_FOUND', 'No on-ramp provider reports here', 'provider'), 404)
    const event = provider.readEvent({ headers: c.req.raw.headers, body: await c.req.text() })
    if (!event) return c.json(errorBody('INVALID_SIGNATURE', 'The report is not signed by the provider', 'signature'), 401)
    const result = await orders.applyEvent({ provider: provider.id, eventId: event.eventId, orderId: event.orderId, update: event.update })
    if (result === 'applied') return c.json({ received: true })
    if (result === 'unknownOrder') return c.json(errorBody('ORDER_NOT_FOUND', 'No such on-ramp order was issued to this provider', 'orderId'), 404)
    if (result === 'replayed') return c.json(errorBody('EVENT_REPLAYED', 'This report was already received', 'eventId'), 409)
    return c.json(errorBody('ORDER_STATUS_STALE', 'The report would take the order back to an earlier status', 'status'), 409)
  })

  return app
}
