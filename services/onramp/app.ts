import { randomBytes, randomUUID } from 'node:crypto'
import { isAddress as isSolanaAddress } from '@solana/kit'
import { Hono, type Context } from 'hono'
import { getAddress, isAddress as isEvmAddress } from 'viem'
import type { OnrampOptions } from '../api/onramp/provider'
import { errorBody, escapeForLog } from '../api/config'
import { requestBodyLimit } from '../api/requestBodyLimit'
import { validate } from '../api/routes/validate'
import { formatDecimal, formatFiat, groupThousands, parseDecimal, PRICE_PLACES } from './amounts'
import { checkCard, TEST_CARDS_SENTENCE, testCards, type CardFields } from './cards'
import { checkoutPageHeaders, renderCheckoutPage, renderMissingOrderPage, renderTooLargePage, type CheckoutFormState } from './checkoutPage'
import { digestApiKey, parseOnrampSandboxConfig, type OnrampSandboxConfigInput, type SandboxPartner } from './config'
import { createOrderStore, isFinished, orderView, type OrderRecord } from './orders'
import { sandboxQuoteRequestSchema, sandboxSessionRequestSchema, type SandboxQuote } from './protocol'
import { createQuoteStore, priceQuote, type QuoteRecord } from './quotes'
import { createPayers, type Payer } from './settle'
import { createWebhookSender } from './webhooks'

/** What the sandbox needs besides its JSON configuration: clocks, the log, the reports' fetch, for tests to control. */
export type OnrampSandboxRuntimeOptions = {
  /** Milliseconds since the epoch; Date.now by default. */
  now?: () => number
  /** Where the sandbox writes its lines (default console.error); every line goes through escapeForLog and holds no secret. */
  log?: (line: string) => void
  /** What reports are POSTed with; globalThis.fetch by default. */
  fetch?: typeof globalThis.fetch
  /** How often a broadcast transfer is looked for on its chain (default 500 ms). */
  pollingIntervalMs?: number
}

export type CreateOnrampSandboxAppParameters = OnrampSandboxConfigInput & OnrampSandboxRuntimeOptions

export type OnrampSandboxStats = {
  orders: number
  quotes: number
  /** Reports waiting for delivery or a retry. */
  webhookQueue: number
  /** Paid orders whose transfer is being sent or confirmed. */
  settling: number
}

export type OnrampSandboxApp = {
  app: Hono<SandboxEnv>
  stats: () => OnrampSandboxStats
  /** Stops the expiry sweep, gives up waiting reports and confirmations, and resolves once no report is in flight. */
  stop: () => Promise<void>
}

type SandboxEnv = { Variables: { partner: SandboxPartner } }

const CHECKOUT_FIELDS = ['cardNumber', 'expiry', 'cvc', 'name'] as const
/** Text from the request, shortened for an answer. */
const shown = (text: string) => (text.length > 64 ? `${text.slice(0, 64)}…` : text)
const methodName = { card: 'card', bank: 'bank transfer' } as const
const reasonOf = (error: unknown) => (error instanceof Error ? ((error as Error & { shortMessage?: string }).shortMessage ?? error.message) : String(error)).split('\n')[0]!.slice(0, 300)

/**
 * The on-ramp sandbox's HTTP app: a local stand-in for a fiat on-ramp that really pays on the local chains. Partners
 * (one per configured API key) quote, open checkout sessions and read orders over JSON (services/onramp/protocol.ts);
 * the visitor pays on its checkout page with a test card or a pretend bank transfer; the sandbox then sends the asset
 * from its treasury and reports each change of the order, signed, to the partner's webhook. Bodies are bounded (413),
 * every field is checked and named when wrong (400), and nothing a client sends makes it answer 500. Throws
 * OnrampSandboxConfigError for a configuration it cannot run with.
 * @example const sandbox = createOnrampSandboxApp({ publicUrl, partners, prices, assets, treasuries }); serve({ fetch: sandbox.app.fetch, port: 8794 })
 */
export function createOnrampSandboxApp({ now = Date.now, log: writeLine = console.error, fetch = globalThis.fetch, pollingIntervalMs, ...input }: CreateOnrampSandboxAppParameters): OnrampSandboxApp {
  const config = parseOnrampSandboxConfig(input)
  const { limits } = config
  const log = (line: string) => writeLine(escapeForLog(line))
  const partnersByDigest = new Map(config.partners.map((partner) => [partner.apiKeyDigest, partner]))
  const quotes = createQuoteStore({ maxQuotes: limits.quotes, graceMs: limits.quoteTtlMs, now })
  const orders = createOrderStore({ maxOrders: limits.orders })
  const payers = createPayers({ assets: config.assets, treasuries: config.treasuries, ...(pollingIntervalMs !== undefined ? { pollingIntervalMs } : {}) })
  const webhooks = createWebhookSender({
    fetch,
    now,
    log,
    maxQueued: limits.webhookQueue,
    attempts: limits.webhookAttempts,
    retryBaseMs: limits.webhookRetryBaseMs,
    timeoutMs: limits.webhookTimeoutMs,
  })
  const stopping = new AbortController()
  const settling = new Set<Promise<void>>()
  const expiredReason = `The order expired: it was not paid within ${Math.round(limits.orderTtlMs / 60_000)} minutes.`

  /** Applies a change to an order and reports it to its partner. */
  const change = (order: OrderRecord, update: Pick<OrderRecord, 'status'> & Partial<Pick<OrderRecord, 'txHash' | 'failureReason'>>) => {
    if (stopping.signal.aborted) return
    Object.assign(order, update)
    if (isFinished(order.status)) orders.markFinished(order)
    webhooks.report(order.partner, orderView(order))
  }

  const isDue = (order: OrderRecord, time: number) => order.status === 'pending' && order.paidAt === undefined && order.createdAt + limits.orderTtlMs <= time
  const expireIfDue = (order: OrderRecord) => {
    if (isDue(order, now())) change(order, { status: 'failed', failureReason: expiredReason })
  }
  /** Fails every unpaid order past its time; orders are kept in the order they were made, so it stops at the first young one. */
  const expireOrders = () => {
    const time = now()
    for (const order of orders.values()) {
      if (order.createdAt + limits.orderTtlMs > time) break
      if (isDue(order, time)) change(order, { status: 'failed', failureReason: expiredReason })
    }
  }
  const sweep = setInterval(expireOrders, Math.min(30_000, limits.orderTtlMs))
  sweep.unref()

  /** Sends a paid order's asset and follows it on chain: pending → sent → completed, or failed (then refunded). */
  const settle = async (order: OrderRecord, payer: Payer) => {
    let txHash: string
    try {
      txHash = await payer.send({ asset: order.asset, to: order.destination, amount: order.purchaseBaseUnits })
    } catch (error) {
      log(`onramp sandbox: order ${order.orderId}: the transfer of ${order.purchaseAmount} ${order.asset.symbol} on ${order.asset.network} could not be sent: ${reasonOf(error)}`)
      change(order, { status: 'failed', failureReason: 'The transfer could not be sent, so the payment was refunded.' })
      return
    }
    change(order, { status: 'sent', txHash })
    try {
      const isSuccess = await payer.confirm(txHash, { timeoutMs: limits.confirmTimeoutMs, signal: stopping.signal })
      change(order, isSuccess ? { status: 'completed' } : { status: 'failed', failureReason: 'The transfer failed on chain, so the payment was refunded.' })
    } catch (error) {
      if (stopping.signal.aborted) return
      log(`onramp sandbox: order ${order.orderId}: transaction ${txHash} was not confirmed: ${reasonOf(error)}`)
      change(order, { status: 'failed', failureReason: 'The transfer was not confirmed in time, so the payment was refunded.' })
    }
  }

  const app = new Hono<SandboxEnv>()
  const page = (c: Context, html: string, status: 200 | 400 | 404 | 409 | 413, nonce: string) => c.body(html, status, checkoutPageHeaders(nonce))
  const newNonce = () => randomBytes(16).toString('base64')

  // Connection: close, because the rest of a refused body is never read.
  app.use(
    '*',
    requestBodyLimit({
      maxBytes: limits.bodyBytes,
      onTooLarge: (c) => {
        if (c.req.path.startsWith('/checkout/')) {
          const nonce = newNonce()
          return c.body(renderTooLargePage({ nonce }), 413, { ...checkoutPageHeaders(nonce), connection: 'close' })
        }
        return c.json(errorBody('PAYLOAD_TOO_LARGE', `The request body is larger than the limit of ${limits.bodyBytes} bytes.`, 'body'), 413, { connection: 'close' })
      },
    }),
  )

  // Partners: their API key as a bearer token, compared by its digest.
  app.use('/v1/*', async (c, next) => {
    const match = /^Bearer +(\S{1,256}) *$/.exec(c.req.header('authorization') ?? '')
    const partner = match ? partnersByDigest.get(digestApiKey(match[1]!)) : undefined
    if (!partner) {
      return c.json(errorBody('UNAUTHORIZED', 'A partner API key is required: send the header authorization: Bearer <apiKey> with a key the sandbox is configured with.', 'authorization'), 401, {
        'www-authenticate': 'Bearer',
      })
    }
    c.set('partner', partner)
    await next()
  })

  app.get('/v1/options', (c) => {
    const options: OnrampOptions = {
      countries: config.countries,
      paymentCurrencies: [...config.fiat.values()].map((fiat) => ({
        id: fiat.id,
        methods: [...fiat.methods].map(([id, limit]) => ({ id, min: formatFiat(limit.minCents), max: formatFiat(limit.maxCents) })),
      })),
      assets: config.assets.map(({ network, symbol, name, decimals, address }) => ({ network, symbol, name, decimals, ...(address ? { address } : {}) })),
    }
    return c.json(options)
  })

  app.post('/v1/quote', async (c) => {
    const parsed = await validate(c, 'json', sandboxQuoteRequestSchema)
    if (!parsed.ok) return parsed.response
    const request = parsed.data
    const refuse = (field: string, message: string) => c.json(errorBody('INVALID_INPUT', message, field), 400)
    const fiat = config.fiat.get(request.paymentCurrency)
    if (!fiat) return refuse('paymentCurrency', `The sandbox takes payments in ${[...config.fiat.keys()].join(' or ')}, not ${request.paymentCurrency}.`)
    const limit = fiat.methods.get(request.paymentMethod)
    if (!limit) return refuse('paymentMethod', `The sandbox takes no ${methodName[request.paymentMethod]} payments in ${fiat.id}.`)
    const onNetwork = config.assets.filter((asset) => asset.network === request.network)
    if (onNetwork.length === 0) return refuse('network', `The sandbox sells nothing on the network ${shown(request.network)}.`)
    const asset = onNetwork.find((candidate) => candidate.symbol === request.asset)
    if (!asset) return refuse('asset', `The sandbox sells ${onNetwork.map((candidate) => candidate.symbol).join(', ')} on ${request.network}, not ${shown(request.asset)}.`)
    const amountCents = parseDecimal(request.amount, 2)
    if (amountCents === undefined) return refuse('amount', `The amount must have at most 2 decimal places in ${fiat.id}.`)
    if (amountCents < limit.minCents || amountCents > limit.maxCents) {
      return refuse('amount', `The amount must be between ${groupThousands(formatFiat(limit.minCents))} and ${groupThousands(formatFiat(limit.maxCents))} ${fiat.id} for ${methodName[request.paymentMethod]}.`)
    }
    const priceE8 = asset.prices.get(fiat.id)!
    const priced = priceQuote({ amountCents, feeBasisPoints: c.var.partner.feeBasisPoints, networkFeeCents: fiat.networkFeeCents, priceE8, decimals: asset.decimals })
    if (!priced) return refuse('amount', `The amount does not cover the fees: pay more than ${formatFiat(fiat.networkFeeCents)} ${fiat.id} and the provider fee.`)
    const quote: QuoteRecord = {
      quoteId: `quo_${randomUUID()}`,
      partner: c.var.partner,
      asset,
      paymentCurrency: fiat.id,
      paymentMethod: request.paymentMethod,
      amountCents,
      priceE8,
      priced,
      expiresAt: now() + limits.quoteTtlMs,
      isUsed: false,
    }
    quotes.add(quote)
    const answer: SandboxQuote = {
      quoteId: quote.quoteId,
      paymentCurrency: fiat.id,
      paymentMethod: request.paymentMethod,
      paymentTotal: formatFiat(amountCents),
      fees: { provider: formatFiat(priced.providerFeeCents), network: formatFiat(priced.networkFeeCents) },
      network: asset.network,
      asset: asset.symbol,
      purchaseAmount: formatDecimal(priced.purchaseUnits, priced.places, { minPlaces: 0 }),
      price: formatDecimal(priceE8, PRICE_PLACES, { minPlaces: 2 }),
      expiresAt: quote.expiresAt,
    }
    return c.json(answer)
  })

  app.post('/v1/sessions', async (c) => {
    const parsed = await validate(c, 'json', sandboxSessionRequestSchema)
    if (!parsed.ok) return parsed.response
    const request = parsed.data
    const partner = c.var.partner
    const quote = quotes.get(request.quoteId)
    // Another partner's quote is as unknown as one never made.
    if (!quote || quote.partner !== partner) return c.json(errorBody('QUOTE_NOT_FOUND', 'No quote has this id: ask for a new quote.', 'quoteId'), 400)
    if (quote.isUsed) return c.json(errorBody('QUOTE_USED', 'This quote was used already: ask for a new quote.', 'quoteId'), 400)
    if (quote.expiresAt <= now()) return c.json(errorBody('QUOTE_EXPIRED', 'This quote expired: ask for a new quote.', 'quoteId'), 400)
    const { asset } = quote
    let destination = request.destination
    if (asset.namespace === 'eip155') {
      if (!isEvmAddress(destination)) return c.json(errorBody('INVALID_INPUT', `The destination must be an address on ${asset.network}: 0x and 40 hex digits (checksummed if mixed case).`, 'destination'), 400)
      destination = getAddress(destination)
    } else if (!isSolanaAddress(destination)) {
      return c.json(errorBody('INVALID_INPUT', `The destination must be a Solana address (a base58 public key) on ${asset.network}.`, 'destination'), 400)
    }
    if (request.redirectUrl !== undefined) {
      const url = URL.canParse(request.redirectUrl) ? new URL(request.redirectUrl) : undefined
      if (url?.protocol !== 'http:' && url?.protocol !== 'https:') return c.json(errorBody('INVALID_INPUT', 'The redirectUrl must be an http(s) URL.', 'redirectUrl'), 400)
    }
    const order: OrderRecord = {
      orderId: `ord_${randomUUID()}`,
      partner,
      partnerOrderId: request.partnerOrderId,
      partnerUserId: request.partnerUserId,
      ...(request.redirectUrl !== undefined ? { redirectUrl: request.redirectUrl } : {}),
      asset,
      destination,
      paymentCurrency: quote.paymentCurrency,
      paymentMethod: quote.paymentMethod,
      paymentTotalCents: quote.amountCents,
      providerFeeCents: quote.priced.providerFeeCents,
      networkFeeCents: quote.priced.networkFeeCents,
      purchaseAmount: formatDecimal(quote.priced.purchaseUnits, quote.priced.places, { minPlaces: 0 }),
      purchaseBaseUnits: quote.priced.purchaseBaseUnits,
      createdAt: now(),
      status: 'pending',
    }
    if (orders.size() >= limits.orders) expireOrders()
    if (!orders.add(order)) {
      log(`onramp sandbox: ${limits.orders} orders are open (limits.orders): a session of ${partner.name} was refused`)
      return c.json(errorBody('AT_CAPACITY', 'The sandbox holds as many open orders as it may: try again once some are paid or expire.'), 503)
    }
    quote.isUsed = true
    webhooks.report(partner, orderView(order))
    const origin = config.publicUrl ?? new URL(c.req.url).origin
    return c.json({ url: `${origin}/checkout/${encodeURIComponent(order.orderId)}`, orderId: order.orderId })
  })

  app.get('/v1/orders/:orderId', (c) => {
    const order = orders.get(c.req.param('orderId'))
    if (!order || order.partner !== c.var.partner) return c.json(errorBody('ORDER_NOT_FOUND', 'No order has this id.', 'orderId'), 404)
    expireIfDue(order)
    return c.json(orderView(order))
  })

  app.get('/checkout/:orderId', (c) => {
    const nonce = newNonce()
    const order = orders.get(c.req.param('orderId'))
    if (!order) return page(c, renderMissingOrderPage({ nonce }), 404, nonce)
    expireIfDue(order)
    return page(c, renderCheckoutPage({ order, nonce, pagePath: `/checkout/${encodeURIComponent(order.orderId)}` }), 200, nonce)
  })

  app.post('/checkout/:orderId/pay', async (c) => {
    const nonce = newNonce()
    const order = orders.get(c.req.param('orderId'))
    if (!order) return page(c, renderMissingOrderPage({ nonce }), 404, nonce)
    const pagePath = `/checkout/${encodeURIComponent(order.orderId)}`
    const form = new URLSearchParams(await c.req.text())
    const answer = (status: 400 | 409, state: CheckoutFormState) => page(c, renderCheckoutPage({ order, nonce, pagePath, form: state }), status, nonce)

    // From here to paidAt nothing is awaited: of two payments sent at once, only the first is taken.
    expireIfDue(order)
    if (order.paidAt !== undefined) return answer(409, { alert: 'This order is paid already: it is not charged twice.' })
    if (order.status !== 'pending') return answer(409, { alert: 'This order can no longer be paid.' })
    if (order.paymentMethod === 'card') {
      const fields = Object.fromEntries(CHECKOUT_FIELDS.map((field) => [field, form.get(field) ?? ''])) as CardFields
      const values = { cardNumber: fields.cardNumber.slice(0, 30), expiry: fields.expiry.slice(0, 10), name: fields.name.slice(0, 100) }
      const checked = checkCard(fields, now())
      if (!checked.ok) return answer(400, { errors: checked.errors, values })
      const outcome = testCards[checked.digits]
      if (!outcome) return answer(400, { alert: TEST_CARDS_SENTENCE, values })
      if (outcome === 'declined') {
        change(order, { status: 'failed', failureReason: 'Your card was declined.' })
        return c.redirect(pagePath, 303)
      }
    }
    order.paidAt = now()
    const settlement = settle(order, payers.get(order.asset.network)!).finally(() => settling.delete(settlement))
    settling.add(settlement)
    return c.redirect(pagePath, 303)
  })

  app.get('/health', (c) => c.json({ status: 'ok', service: 'tessera-onramp-sandbox' }))
  app.notFound((c) => {
    if (c.req.path.startsWith('/checkout/')) {
      const nonce = newNonce()
      return page(c, renderMissingOrderPage({ nonce }), 404, nonce)
    }
    return c.json(errorBody('NOT_FOUND', `No route for ${c.req.method} ${shown(c.req.path)}.`), 404)
  })
  // The last resort: the client learns nothing of the cause; the operator gets it on one line.
  app.onError((error, c) => {
    log(`onramp sandbox: ${c.req.method} ${shown(c.req.path)}: ${error.name}: ${reasonOf(error)}`)
    return c.json(errorBody('INTERNAL', 'The sandbox failed to answer this request.'), 500)
  })

  return {
    app,
    stats: () => ({ orders: orders.size(), quotes: quotes.size(), webhookQueue: webhooks.queued(), settling: settling.size }),
    stop: async () => {
      clearInterval(sweep)
      stopping.abort(new Error('The on-ramp sandbox stopped'))
      await webhooks.stop()
    },
  }
}
