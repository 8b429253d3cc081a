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

export const onrampOptionsSchema = z.object({ paymentCurrencies: z.array(z.unknown()), purchaseCurrencies: z.array(z.unknown()) })

export const onrampQuoteSchema = z.object({
  paymentTotal: z.object({ value: z.string(), currency: z.string() }),
  paymentSubtotal: z.object({ value: z.string(), currency: z.string() }),
  purchaseAmount: z.object({ value: z.string(), currency: z.string() }),
  coinbaseFee: z.optional(z.object({ value: z.string(), currency: z.string() })),
  networkFee: z.optional(z.object({ value: z.string(), currency: z.string() })),
  quoteId: z.string(),
})

export const sessionNonceSchema = z.object({ nonce: z.string().check(z.regex(/^[a-zA-Z0-9]{8,128}$/)), expiresAt: z.number() })
export const sessionSchema = z.object({ id: z.string(), caipAddress: z.string(), expiresAt: z.nullable(z.number()), revoked: z.boolean() })
