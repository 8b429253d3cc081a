import type { OnrampPaymentMethod } from '../api/onramp/provider'
import { PRICE_PLACES } from './amounts'
import type { SandboxAsset, SandboxPartner } from './config'

/** The most decimal places a purchase is quoted in, whatever the asset's own decimals. */
export const MAX_PURCHASE_PLACES = 6

export type PriceQuoteParameters = {
  /** What the visitor pays, fees included. */
  amountCents: bigint
  feeBasisPoints: bigint
  networkFeeCents: bigint
  /** One unit of the asset, in 10^-8 of the fiat currency. */
  priceE8: bigint
  decimals: number
}

export type PricedQuote = {
  providerFeeCents: bigint
  networkFeeCents: bigint
  /** What the visitor receives, in units of 10^-places. */
  purchaseUnits: bigint
  places: number
  /** The same in the asset's base units (wei, lamports, a token's smallest unit). */
  purchaseBaseUnits: bigint
}

/**
 * The sandbox's quote: 1. the provider fee is amount × fee %, rounded half up to the cent; 2. the network fee is the
 * configured one; 3. what is left buys at `price`, rounded down to min(decimals, 6) places, so the visitor is never
 * promised more than is paid for. Undefined when the fees take the whole amount.
 * @example priceQuote({ amountCents: 10_000n, feeBasisPoints: 150n, networkFeeCents: 50n, priceE8: 3_000n * 10n ** 8n, decimals: 18 })
 */
export function priceQuote({ amountCents, feeBasisPoints, networkFeeCents, priceE8, decimals }: PriceQuoteParameters): PricedQuote | undefined {
  const providerFeeCents = (amountCents * feeBasisPoints + 5_000n) / 10_000n
  const netCents = amountCents - providerFeeCents - networkFeeCents
  if (netCents <= 0n) return undefined
  const places = Math.min(decimals, MAX_PURCHASE_PLACES)
  // net / 100 / (price / 10^8), in units of 10^-places, floored.
  const purchaseUnits = (netCents * 10n ** BigInt(PRICE_PLACES + places)) / (100n * priceE8)
  if (purchaseUnits <= 0n) return undefined
  return { providerFeeCents, networkFeeCents, purchaseUnits, places, purchaseBaseUnits: purchaseUnits * 10n ** BigInt(decimals - places) }
}

/** A quote as the sandbox keeps it until it is turned into a session (once) or expires. */
export type QuoteRecord = {
  quoteId: string
  partner: SandboxPartner
  asset: SandboxAsset
  paymentCurrency: string
  paymentMethod: OnrampPaymentMethod
  amountCents: bigint
  priceE8: bigint
  priced: PricedQuote
  expiresAt: number
  isUsed: boolean
}

export type QuoteStore = {
  add: (quote: QuoteRecord) => void
  /** The quote, expired or used ones included, until it is dropped. */
  get: (quoteId: string) => QuoteRecord | undefined
  size: () => number
}

/**
 * The quotes issued lately, at most `maxQuotes`: every quote lives equally long, so insertion order is expiry order,
 * and adding one first drops the expired ones at the front, then the oldest while still full.
 * @example const quotes = createQuoteStore({ maxQuotes: 10_000, graceMs: 60_000, now: Date.now })
 */
export function createQuoteStore({ maxQuotes, graceMs, now }: { maxQuotes: number; /** An expired quote is kept this long to say so. */ graceMs: number; now: () => number }): QuoteStore {
  const quotes = new Map<string, QuoteRecord>()
  return {
    add: (quote) => {
      const time = now()
      for (const [quoteId, oldest] of quotes) {
        if (quotes.size < maxQuotes && oldest.expiresAt + graceMs > time) break
        quotes.delete(quoteId)
      }
      quotes.set(quote.quoteId, quote)
    },
    get: (quoteId) => quotes.get(quoteId),
    size: () => quotes.size,
  }
}
