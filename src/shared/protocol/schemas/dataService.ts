import * as z from 'zod/mini'
import { tokenBalanceSchema, transactionSchema, walletListingEntrySchema } from './entities'

export type { Transaction } from './entities'

/** Response shapes of the data service (SPEC §3 and §7), checked where they enter the worker. */
export const balanceResponseSchema = z.object({ balances: z.array(tokenBalanceSchema) })

export const historyResponseSchema = z.object({ data: z.array(transactionSchema), next: z.optional(z.nullable(z.string())) })

export const identityResponseSchema = z.object({ name: z.nullable(z.string()), avatar: z.nullable(z.string()) })

export const supportedChainsResponseSchema = z.object({ http: z.array(z.string()), ws: z.optional(z.array(z.string())) })

export const fungiblePriceResponseSchema = z.object({
  fungibles: z.array(z.object({ name: z.string(), symbol: z.string(), iconUrl: z.string(), price: z.number() })),
})

export const profileSchema = z.object({
  name: z.string(),
  registered: z.optional(z.number()),
  updated: z.optional(z.number()),
  addresses: z.record(z.string(), z.object({ address: z.string() })),
  attributes: z.optional(z.record(z.string(), z.string())),
})

export const suggestionsResponseSchema = z.object({ suggestions: z.array(z.object({ name: z.string(), registered: z.boolean() })) })

export const walletsResponseSchema = z.object({ count: z.number(), data: z.array(walletListingEntrySchema) })

export const analyticsConfigSchema = z.object({ isAnalyticsEnabled: z.boolean() })

const fiatLimitSchema = z.object({ id: z.enum(['card', 'bank']), min: z.string(), max: z.string() })
/** What can be bought, every provider's options merged (services/api/onramp/provider.ts OnrampOptions). */
export const onrampAssetSchema = z.object({ network: z.string(), symbol: z.string(), name: z.string(), decimals: z.number(), address: z.optional(z.string()) })
export const onrampOptionsSchema = z.object({
  paymentCurrencies: z.array(z.unknown()),
  purchaseCurrencies: z.array(z.unknown()),
  providers: z._default(z.array(z.object({ id: z.string(), name: z.string() })), []),
  options: z._default(z.object({ countries: z.array(z.string()), paymentCurrencies: z.array(z.object({ id: z.string(), methods: z.array(fiatLimitSchema) })), assets: z.array(onrampAssetSchema) }), { countries: [], paymentCurrencies: [], assets: [] }),
  /** The built-in samples (SPEC §8): shown, never bought. */
  isEstimate: z._default(z.boolean(), true),
})

const moneySchema = z.object({ value: z.string(), currency: z.string() })
/** One provider's quote, side by side with the others'. */
export const onrampProviderQuoteSchema = z.object({
  provider: z.string(),
  providerName: z.string(),
  quoteId: z.optional(z.string()),
  paymentCurrency: z.string(),
  paymentMethod: z.enum(['card', 'bank']),
  paymentTotal: z.string(),
  fees: z.object({ provider: z.string(), network: z.string() }),
  network: z.string(),
  asset: z.string(),
  purchaseAmount: z.string(),
  price: z.string(),
  expiresAt: z.optional(z.number()),
})
export const onrampQuoteSchema = z.object({
  paymentTotal: moneySchema,
  paymentSubtotal: moneySchema,
  purchaseAmount: moneySchema,
  coinbaseFee: z.optional(moneySchema),
  networkFee: z.optional(moneySchema),
  quoteId: z.string(),
  /** Every provider's quote, most received first; empty with the placeholder (SPEC §8). */
  quotes: z._default(z.array(onrampProviderQuoteSchema), []),
  failures: z._default(z.array(z.object({ provider: z.string(), reason: z.enum(['unavailable', 'refused']), message: z.string() })), []),
  isEstimate: z._default(z.boolean(), true),
})
export const onrampUrlSchema = z.object({ url: z.string(), orderId: z.optional(z.string()), quote: z.optional(onrampProviderQuoteSchema) })
export const onrampOrderSchema = z.object({
  orderId: z.string(),
  provider: z.string(),
  status: z.enum(['pending', 'sent', 'completed', 'failed']),
  network: z.string(),
  asset: z.string(),
  destination: z.string(),
  paymentCurrency: z.string(),
  paymentMethod: z.string(),
  paymentTotal: z.string(),
  purchaseAmount: z.string(),
  txHash: z.optional(z.string()),
  failureReason: z.optional(z.string()),
  createdAt: z.number(),
  updatedAt: z.number(),
})

export const sessionNonceSchema = z.object({ nonce: z.string().check(z.regex(/^[a-zA-Z0-9]{8,128}$/)), expiresAt: z.number() })
export const sessionSchema = z.object({ id: z.string(), caipAddress: z.string(), expiresAt: z.nullable(z.number()), revoked: z.boolean() })
