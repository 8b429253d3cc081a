/**
 * The on-ramp sandbox's wire contract, shared by the sandbox (services/onramp) and the data service's adapter for it
 * (services/api/onramp/sandbox.ts):
 *
 * Server to server, `authorization: Bearer <partner API key>`, JSON:
 * - `GET  /v1/options` → OnrampOptions (services/api/onramp/provider.ts);
 * - `POST /v1/quote` SandboxQuoteRequest → SandboxQuote;
 * - `POST /v1/sessions` SandboxSessionRequest → { url, orderId } (the checkout page for this order, on the sandbox's origin);
 * - `GET  /v1/orders/:orderId` → SandboxOrder.
 *
 * The visitor's browser: `GET /checkout/:orderId` (the page), `POST /checkout/:orderId/pay` (its form).
 *
 * Reports: each change of an order is POSTed to the partner's `webhookUrl` as a SandboxOrderEvent, signed in the
 * header `tessera-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(webhookSecret, "<t>.<raw body>")>` (Stripe's scheme).
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import * as z from 'zod/mini'

export const SIGNATURE_HEADER = 'tessera-signature'
/** A report older or newer than this (clock skew included) is refused: a replay outside it fails on its time alone. */
export const SIGNATURE_TOLERANCE_SECONDS = 300

const decimal = z.string().check(z.regex(/^\d{1,20}(\.\d{1,18})?$/, 'Expected a decimal amount'))
const id = z.string().check(z.minLength(1), z.maxLength(128))
const paymentMethod = z.enum(['card', 'bank'])

export const sandboxQuoteRequestSchema = z.object({
  paymentCurrency: z.string().check(z.regex(/^[A-Z]{3}$/)),
  paymentMethod,
  amount: decimal,
  network: id,
  asset: z.string().check(z.minLength(1), z.maxLength(16)),
})
export type SandboxQuoteRequest = z.infer<typeof sandboxQuoteRequestSchema>

export const sandboxQuoteSchema = z.object({
  quoteId: id,
  paymentCurrency: z.string(),
  paymentMethod,
  paymentTotal: decimal,
  fees: z.object({ provider: decimal, network: decimal }),
  network: id,
  asset: z.string(),
  purchaseAmount: decimal,
  price: decimal,
  expiresAt: z.number(),
})
export type SandboxQuote = z.infer<typeof sandboxQuoteSchema>

export const sandboxSessionRequestSchema = z.object({
  quoteId: id,
  /** The data service's order id: the reports name it. */
  partnerOrderId: id,
  destination: z.string().check(z.minLength(1), z.maxLength(128)),
  partnerUserId: id,
  redirectUrl: z.optional(z.string().check(z.maxLength(2048))),
})
export type SandboxSessionRequest = z.infer<typeof sandboxSessionRequestSchema>

export const sandboxSessionSchema = z.object({ url: z.string(), orderId: id })

export const sandboxOrderStatus = z.enum(['pending', 'sent', 'completed', 'failed'])
export const sandboxOrderSchema = z.object({
  orderId: id,
  partnerOrderId: id,
  status: sandboxOrderStatus,
  network: id,
  asset: z.string(),
  destination: z.string(),
  purchaseAmount: decimal,
  txHash: z.optional(z.string()),
  failureReason: z.optional(z.string()),
})
export type SandboxOrder = z.infer<typeof sandboxOrderSchema>

/** One change of an order, reported to the partner; `eventId` is unique, so a report is accepted once. */
export const sandboxOrderEventSchema = z.object({ eventId: id, createdAt: z.number(), order: sandboxOrderSchema })
export type SandboxOrderEvent = z.infer<typeof sandboxOrderEventSchema>

const hmac = (secret: string, timestamp: number, body: string) => createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')

/** The `tessera-signature` header for `body` at `timestamp` (unix seconds). */
export const signSandboxEvent = (secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)) => `t=${timestamp},v1=${hmac(secret, timestamp, body)}`

/**
 * Whether `header` signs `body` with `secret` within the tolerance of `now` (ms). Compared in constant time; a
 * malformed header is simply not a valid signature.
 */
export function verifySandboxSignature({ secret, header, body, now = Date.now() }: { secret: string; header: string | undefined; body: string; now?: number }): boolean {
  const match = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header ?? '')
  if (!match) return false
  const timestamp = Number(match[1])
  if (Math.abs(now / 1000 - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return false
  const expected = Buffer.from(hmac(secret, timestamp, body), 'hex')
  return timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'))
}
