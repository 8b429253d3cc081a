/**
 * The data service's adapter for our on-ramp sandbox (services/onramp): the sandbox's own API (services/onramp/protocol.ts),
 * called with the partner key the site configured, and its signed reports read back.
 */
import * as z from 'zod/mini'
import {
  sandboxOrderEventSchema,
  sandboxOrderSchema,
  sandboxQuoteSchema,
  sandboxSessionSchema,
  SIGNATURE_HEADER,
  verifySandboxSignature,
  type SandboxOrder,
} from '../../onramp/protocol'
import { OnrampProviderError, type OnrampOptions, type OnrampOrderUpdate, type OnrampProvider } from './provider'

export type SandboxOnrampConfig = {
  type: 'sandbox'
  id: string
  name: string
  /** The sandbox's API origin, as the data service reaches it. */
  url: string
  apiKey: string
  /** The secret its reports are signed with. */
  webhookSecret: string
}

const decimal = z.string().check(z.regex(/^\d{1,20}(\.\d{1,18})?$/))
const methodLimit = z.object({ id: z.enum(['card', 'bank']), min: decimal, max: decimal })
export const onrampOptionsSchema = z.object({
  countries: z.array(z.string()),
  paymentCurrencies: z.array(z.object({ id: z.string(), methods: z.array(methodLimit) })),
  assets: z.array(z.object({ network: z.string(), symbol: z.string(), name: z.string(), decimals: z.number(), address: z.optional(z.string()) })),
})

/** The most of an answer read: the sandbox's answers are a few kilobytes. */
const MAX_ANSWER_BYTES = 1_000_000

const toUpdate = (order: SandboxOrder): OnrampOrderUpdate => ({
  status: order.status,
  purchaseAmount: order.purchaseAmount,
  ...(order.txHash && { txHash: order.txHash }),
  ...(order.failureReason && { failureReason: order.failureReason }),
})

/** @example const sandbox = createSandboxOnramp({ type: 'sandbox', id: 'sandbox', name: 'Tessera Sandbox', url, apiKey, webhookSecret }) */
export function createSandboxOnramp({ id, name, url, apiKey, webhookSecret, fetch = globalThis.fetch, timeoutMs = 10_000, now = Date.now }: SandboxOnrampConfig & { fetch?: typeof globalThis.fetch; timeoutMs?: number; now?: () => number }): OnrampProvider {
  const base = url.replace(/\/+$/, '')

  async function call<S extends z.ZodMiniType>(path: string, schema: S, body?: unknown): Promise<z.infer<S>> {
    let response: Response
    try {
      response = await fetch(`${base}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${apiKey}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch {
      throw new OnrampProviderError('unavailable', `${name} could not be reached`)
    }
    const text = await response.text().catch(() => '')
    if (text.length > MAX_ANSWER_BYTES) throw new OnrampProviderError('unavailable', `${name} answered more than expected`)
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new OnrampProviderError('unavailable', `${name} answered something other than JSON`)
    }
    if (response.status === 400) {
      // Our own sandbox words its refusals as sentences naming the field.
      const error = (json as { error?: { message?: unknown; field?: unknown } } | null)?.error
      throw new OnrampProviderError('refused', typeof error?.message === 'string' ? error.message.slice(0, 300) : `${name} refused the request`, typeof error?.field === 'string' ? error.field : undefined)
    }
    if (!response.ok) throw new OnrampProviderError('unavailable', `${name} answered ${response.status}`)
    const parsed = schema.safeParse(json)
    if (!parsed.success) throw new OnrampProviderError('unavailable', `${name} answered in an unexpected shape`)
    return parsed.data
  }

  return {
    id,
    name,
    options: async (): Promise<OnrampOptions> => call('/v1/options', onrampOptionsSchema),
    async quote(request) {
      const quote = await call('/v1/quote', sandboxQuoteSchema, { paymentCurrency: request.paymentCurrency, paymentMethod: request.paymentMethod, amount: request.amount, network: request.network, asset: request.asset })
      return { provider: id, ...quote }
    },
    async checkout({ orderId, quote, destination, partnerUserId, redirectUrl }) {
      if (!quote.quoteId) throw new OnrampProviderError('refused', 'The quote has no id to check out', 'quoteId')
      const session = await call('/v1/sessions', sandboxSessionSchema, { quoteId: quote.quoteId, partnerOrderId: orderId, destination, partnerUserId, ...(redirectUrl && { redirectUrl }) })
      return { url: session.url, providerOrderId: session.orderId }
    },
    async orderStatus({ providerOrderId }) {
      if (!providerOrderId) return undefined
      return toUpdate(await call(`/v1/orders/${encodeURIComponent(providerOrderId)}`, sandboxOrderSchema))
    },
    readEvent({ headers, body }) {
      if (!verifySandboxSignature({ secret: webhookSecret, header: headers.get(SIGNATURE_HEADER) ?? undefined, body, now: now() })) return undefined
      let json: unknown
      try {
        json = JSON.parse(body)
      } catch {
        return undefined
      }
      const parsed = sandboxOrderEventSchema.safeParse(json)
      if (!parsed.success) return undefined
      return { eventId: parsed.data.eventId, orderId: parsed.data.order.partnerOrderId, update: toUpdate(parsed.data.order) }
    },
  }
}
