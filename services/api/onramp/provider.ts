/**
 * One on-ramp provider behind one interface (SPEC §7 `/v1/onramp/*`, `/v1/generators/onrampurl`): what it sells, a
 * quote, the hand-off to its checkout, and its orders' status. The data service asks every configured provider and
 * shows their quotes side by side; a provider is an adapter in the request shapes of its real API (coinbase.ts,
 * meld.ts) or our sandbox (sandbox.ts), used only when a site configures its keys.
 */

/** How the visitor pays: a card, or a bank transfer (ACH, SEPA, …). */
export type OnrampPaymentMethod = 'card' | 'bank'

/** What a provider sells on one network: `network` is CAIP-2; `address` names a token (none for the native currency). */
export type OnrampAsset = { network: string; symbol: string; name: string; decimals: number; address?: string }

/** Fiat amounts are decimal strings in the currency's units ('50.00'); crypto amounts decimal strings in the asset's. */
export type OnrampLimit = { id: OnrampPaymentMethod; min: string; max: string }

export type OnrampOptions = {
  /** ISO 3166-1 alpha-2 codes the provider serves; empty: it does not say. */
  countries: string[]
  /** Fiat currencies (ISO 4217) with the payment methods and their limits in that currency. */
  paymentCurrencies: { id: string; methods: OnrampLimit[] }[]
  assets: OnrampAsset[]
}

export type OnrampQuoteRequest = {
  paymentCurrency: string
  paymentMethod: OnrampPaymentMethod
  /** What the visitor pays, fees included, in `paymentCurrency`. */
  amount: string
  network: string
  /** The asset's symbol on `network`. */
  asset: string
  country?: string
  /** The address the asset goes to (some providers quote per wallet). */
  destination?: string
}

export type OnrampQuote = {
  /** The provider's id in the data service's configuration. */
  provider: string
  /** The provider's own quote id, handed back at checkout; undefined when it has none. */
  quoteId?: string
  paymentCurrency: string
  paymentMethod: OnrampPaymentMethod
  /** What the visitor pays in all (fiat). */
  paymentTotal: string
  /** The provider's fee and the network fee, in fiat. */
  fees: { provider: string; network: string }
  network: string
  asset: string
  /** What the visitor receives (crypto). */
  purchaseAmount: string
  /** The price of one unit of the asset in fiat, before fees. */
  price: string
  /** Epoch ms after which the provider may not honour it; undefined when it does not say. */
  expiresAt?: number
}

export type OnrampCheckoutRequest = {
  /** Ours: the data service's order id, which the provider reports back. */
  orderId: string
  quote: OnrampQuote
  destination: string
  /** The site's id for the visitor (SPEC §7 partnerUserId). */
  partnerUserId: string
  /** Where the provider's page sends the visitor once done; undefined: it stays. */
  redirectUrl?: string
  /** The visitor's IP address as the data service saw it (Coinbase binds its session token to it); undefined: unknown. */
  clientIp?: string
}

export type OnrampCheckout = {
  /** The provider's checkout page, opened in a new window. */
  url: string
  /** The provider's id of the order, when it makes one up front. */
  providerOrderId?: string
}

/** An order's course: waiting for payment, paid and sent on chain, landed; or failed (declined, expired, refunded). */
export type OnrampOrderStatus = 'pending' | 'sent' | 'completed' | 'failed'

export type OnrampOrderUpdate = {
  status: OnrampOrderStatus
  /** The transaction that paid the destination, once sent. */
  txHash?: string
  /** What was bought, once known (may differ from the quote for a provider that re-prices at payment). */
  purchaseAmount?: string
  /** A sentence for the visitor when failed. */
  failureReason?: string
}

/** One report of an order's change from its provider: `eventId` is unique per provider, so a report counts once. */
export type OnrampEvent = { eventId: string; /** Our order id, as the provider was told it at checkout. */ orderId: string; update: OnrampOrderUpdate }

export type OnrampProvider = {
  id: string
  /** Shown beside its quote. */
  name: string
  options: () => Promise<OnrampOptions>
  quote: (request: OnrampQuoteRequest) => Promise<OnrampQuote>
  checkout: (request: OnrampCheckoutRequest) => Promise<OnrampCheckout>
  /**
   * Reads a report the provider POSTed (a webhook): undefined when its signature is not the provider's or its body is
   * not in the provider's shape. The route then refuses orders we never issued, replays and going back in status.
   */
  readEvent?: (request: { headers: Headers; body: string }) => OnrampEvent | undefined
  /** Reads an order's status from the provider, for providers polled rather than (or as well as) reporting. */
  orderStatus?: (order: { orderId: string; providerOrderId?: string; partnerUserId: string }) => Promise<OnrampOrderUpdate | undefined>
}

/**
 * A provider's failure, said without its text: `unavailable` (down, timed out, an answer not in its published shape),
 * `refused` (it answered that it will not do this: out of limits, unsupported country or asset) with the field.
 */
export class OnrampProviderError extends Error {
  constructor(
    readonly kind: 'unavailable' | 'refused',
    message: string,
    readonly field?: string,
  ) {
    super(message)
    this.name = 'OnrampProviderError'
  }
}
