import * as z from 'zod/mini'

/** Response shapes of the data service (SPEC §3 and §7), checked where they enter the worker. */
const decimalString = z.string().check(z.regex(/^-?\d+(\.\d+)?$/))

export const tokenBalanceSchema = z.object({
  name: z.string(),
  symbol: z.string(),
  chainId: z.string(),
  address: z.optional(z.string()),
  value: z.number(),
  price: z.number(),
  iconUrl: z.string(),
  quantity: z.object({ decimals: z.string(), numeric: decimalString }),
})

export const balanceResponseSchema = z.object({ balances: z.array(tokenBalanceSchema) })

const transferSchema = z.object({
  fungible_info: z.optional(z.object({ name: z.optional(z.string()), symbol: z.string(), icon: z.optional(z.object({ url: z.string() })) })),
  nft_info: z.optional(z.object({ name: z.optional(z.string()), content: z.optional(z.object({ preview: z.optional(z.object({ url: z.string() })) })), flags: z.optional(z.object({ is_spam: z.boolean() })) })),
  direction: z.optional(z.enum(['in', 'out', 'self'])),
  quantity: z.object({ numeric: decimalString }),
  value: z.optional(z.number()),
  price: z.optional(z.number()),
})

export const transactionSchema = z.object({
  id: z.string(),
  metadata: z.object({
    operationType: z.string(),
    hash: z.string(),
    minedAt: z.string(),
    sentFrom: z.string(),
    sentTo: z.string(),
    status: z.string(),
    nonce: z.optional(z.number()),
    chain: z.string(),
  }),
  transfers: z.array(transferSchema),
})

export type Transaction = z.infer<typeof transactionSchema>

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

export const walletEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  image_id: z.optional(z.string()),
  rdns: z.optional(z.nullable(z.string())),
  chains: z.optional(z.array(z.string())),
  mobile_link: z.optional(z.nullable(z.string())),
  desktop_link: z.optional(z.nullable(z.string())),
  webapp_link: z.optional(z.nullable(z.string())),
})

export const walletsResponseSchema = z.object({ count: z.number(), data: z.array(walletEntrySchema) })

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

export const sessionSchema = z.object({ id: z.string(), caipAddress: z.string(), expiresAt: z.nullable(z.number()), revoked: z.boolean() })
