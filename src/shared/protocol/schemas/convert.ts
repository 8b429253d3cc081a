import * as z from 'zod/mini'
import { caipAddressSchema } from './entities'

/**
 * The data service's swap routes (SPEC §7 `/v1/convert/*`): the shapes AppKit's blockchain API answers, with what a
 * visitor must see before signing added (the route, the price impact, the quote's source and block). Amounts are
 * integers in the token's smallest unit, as decimal strings; tokens are CAIP-10 ids, the native currency as
 * `eip155:{chainId}:0xeeee…eeee` ({@link NATIVE_TOKEN_ADDRESS}).
 */

/** How the native currency is named among tokens (the aggregators' convention). */
export const NATIVE_TOKEN_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

/** The slippage tolerance a swap is built with by default (SPEC §9: 1 %), and the range a request may ask for. */
export const DEFAULT_SWAP_SLIPPAGE_PERCENT = 1
export const MIN_SWAP_SLIPPAGE_PERCENT = 0.05
export const MAX_SWAP_SLIPPAGE_PERCENT = 50

const units = z.string().check(z.regex(/^\d{1,78}$/, 'Expected an integer amount in base units'))
const hexAddress = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'Expected a 0x address'))
const hexData = z.string().check(z.regex(/^0x(?:[0-9a-fA-F]{2})*$/, 'Expected hex data'))

/** GET /v1/convert/tokens?chainId: the tokens a chain's swap provider trades, the native currency first. */
export const swapTokenSchema = z.object({
  name: z.string(),
  symbol: z.string(),
  address: caipAddressSchema,
  decimals: z.number().check(z.int(), z.gte(0), z.lte(36)),
  logoUri: z.string(),
})
export const swapTokensResponseSchema = z.object({ tokens: z.array(swapTokenSchema) })

/** GET /v1/convert/quotes?amount&userAddress&from&to&gasPrice: what `fromAmount` of `from` buys of `to` now. */
export const swapQuoteSchema = z.object({
  id: z.nullable(z.string()),
  fromAmount: units,
  fromAccount: caipAddressSchema,
  toAmount: units,
  toAccount: caipAddressSchema,
  /** The tokens the trade goes through, `from` first (through the wrapped native when two tokens have no pool). */
  route: z.array(caipAddressSchema),
  /** How far the trade moves the price against the visitor, in percent (0.3 is 0.3 %). */
  priceImpact: z.number().check(z.gte(0), z.lte(100)),
  /** Where the quote comes from: the provider's name and the contract the swap is sent to. */
  source: z.object({ name: z.string(), router: hexAddress }),
  /** The block whose reserves the quote was read at: a quote older than the chain's latest block is read again. */
  blockNumber: units,
  /** The swap's estimated gas, in units. */
  gas: units,
})
export const swapQuotesResponseSchema = z.object({ quotes: z.array(swapQuoteSchema) })

/** GET /v1/convert/allowance?tokenAddress&userAddress: what the router may spend of the visitor's token. */
export const swapAllowanceResponseSchema = z.object({ allowance: units })

/** GET /v1/convert/gas-price?chainId: wei per gas. */
export const swapGasPriceResponseSchema = z.object({ standard: units, fast: units, instant: units })

/** POST /v1/convert/build-transaction: the swap to sign, at the slippage asked for, with its deadline. */
export const swapTransactionResponseSchema = z.object({
  tx: z.object({ from: hexAddress, to: hexAddress, data: hexData, amount: units, eip155: z.object({ gas: units, gasPrice: units }) }),
  /** The least the visitor receives at the slippage (the router refuses to pay less). */
  minimumReceived: units,
  /** Unix seconds after which the router refuses the swap. */
  deadline: z.number().check(z.int()),
})

/** GET /v1/convert/build-approve?userAddress&from&to&amount: the approval of `amount` (by default, the exact amount). */
export const swapApproveResponseSchema = z.object({
  tx: z.object({ from: hexAddress, to: hexAddress, data: hexData, value: units, eip155: z.object({ gas: units, gasPrice: units }) }),
})

export type SwapToken = z.infer<typeof swapTokenSchema>
export type SwapQuote = z.infer<typeof swapQuoteSchema>
export type SwapTransaction = z.infer<typeof swapTransactionResponseSchema>
export type SwapApproveTransaction = z.infer<typeof swapApproveResponseSchema>
