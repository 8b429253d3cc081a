import type * as z from 'zod/mini'
import type {
  analyticsConfigSchema,
  balanceResponseSchema,
  fungiblePriceResponseSchema,
  historyResponseSchema,
  identityResponseSchema,
  onrampOptionsSchema,
  onrampOrderSchema,
  onrampQuoteSchema,
  onrampUrlSchema,
  profileSchema,
  sessionNonceSchema,
  sessionSchema,
  suggestionsResponseSchema,
  supportedChainsResponseSchema,
  walletsResponseSchema,
} from '../schemas/dataService'
import type {
  swapAllowanceResponseSchema,
  swapApproveResponseSchema,
  swapGasPriceResponseSchema,
  swapQuotesResponseSchema,
  swapTokensResponseSchema,
  swapTransactionResponseSchema,
} from '../schemas/convert'

/** The data-service calls the worker serves to the page (a list the page's bundle can import cheaply). */
export const dataServiceMethods = [
  'getSupportedChains', 'getIdentity', 'getTransactionHistory', 'getBalance', 'getFungiblePrice', 'getGasPrice', 'getSwapQuote',
  'getSwapTokens', 'getAllowance', 'buildSwapTransaction', 'buildApproveTransaction', 'lookupName', 'reverseLookup',
  'getNameSuggestions', 'registerName', 'generateOnrampUrl', 'getOnrampOptions', 'getOnrampQuote', 'getOnrampOrder', 'createSessionNonce', 'createSession', 'getSession', 'revokeSession',
  'getWallets', 'getAnalyticsConfig', 'sendAnalyticsEvent',
] as const

export type DataServiceMethod = (typeof dataServiceMethods)[number]

type Answer<S extends z.ZodMiniType> = Promise<z.infer<S>>

/**
 * Tessera's data service and wallet registry (SPEC §7) as the page calls them through the core: same names and
 * arguments as the worker's client, answers validated there.
 */
export type DataServiceApi = {
  getSupportedChains(): Answer<typeof supportedChainsResponseSchema>
  getIdentity(args: { address: string; sender?: string }): Answer<typeof identityResponseSchema>
  getTransactionHistory(args: { account: string; cursor?: string; onramp?: string; chainId?: string }): Promise<z.infer<typeof historyResponseSchema> | { data: []; next: undefined }>
  getBalance(args: { address: string; chainId: string; forceUpdate?: boolean }): Answer<typeof balanceResponseSchema>
  getFungiblePrice(args: { addresses: readonly string[] }): Answer<typeof fungiblePriceResponseSchema>
  getGasPrice(args: { chainId: string }): Answer<typeof swapGasPriceResponseSchema>
  getSwapQuote(args: { chainId: string; amount: string; userAddress: string; from: string; to: string; gasPrice: string }): Answer<typeof swapQuotesResponseSchema>
  getSwapTokens(args: { chainId: string }): Answer<typeof swapTokensResponseSchema>
  getAllowance(args: { chainId: string; tokenAddress: string; userAddress: string }): Answer<typeof swapAllowanceResponseSchema>
  /** `slippage` in percent (1 is 1 %). */
  buildSwapTransaction(args: { chainId: string; amount: string; from: string; to: string; userAddress: string; slippage: number; disableEstimate?: boolean }): Answer<typeof swapTransactionResponseSchema>
  /** The approval of exactly `amount` (base units) of `from`. */
  buildApproveTransaction(args: { chainId: string; userAddress: string; from: string; to: string; amount: string }): Answer<typeof swapApproveResponseSchema>
  lookupName(args: { name: string }): Answer<typeof profileSchema>
  reverseLookup(args: { address: string; sender?: string }): Promise<z.infer<typeof profileSchema>[]>
  getNameSuggestions(args: { name: string; zone?: string }): Promise<z.infer<typeof suggestionsResponseSchema>['suggestions']>
  registerName(args: { name: string; coinType: number; address: string; message: string; signature: string }): Promise<{ success: boolean }>
  generateOnrampUrl(args: {
    destinationWallets: unknown[]
    defaultNetwork?: string
    partnerUserId: string
    presetCryptoAmount?: number
    presetFiatAmount?: number
    provider?: string
    paymentCurrency?: string
    paymentMethod?: 'card' | 'bank'
    defaultAsset?: string
    redirectUrl?: string
  }): Answer<typeof onrampUrlSchema>
  getOnrampOptions(): Answer<typeof onrampOptionsSchema>
  getOnrampQuote(args: { purchaseCurrency: unknown; paymentCurrency: unknown; amount: string; network: string; paymentMethod?: 'card' | 'bank' }): Answer<typeof onrampQuoteSchema>
  getOnrampOrder(args: { orderId: string }): Answer<typeof onrampOrderSchema>
  createSessionNonce(): Answer<typeof sessionNonceSchema>
  createSession(args: { message: string; signature: string }): Answer<typeof sessionSchema>
  getSession(args: { id: string }): Answer<typeof sessionSchema>
  revokeSession(args: { id: string; pci: string; signature: string }): Promise<unknown>
  getWallets(args: { page: number; entries: number; include?: readonly string[]; exclude?: readonly string[]; chains?: readonly string[]; search?: string; badge_type?: string }): Answer<typeof walletsResponseSchema>
  getAnalyticsConfig(): Answer<typeof analyticsConfigSchema>
  /** Sends one analytics event (never MODAL_CREATED). Resolves false when the event was not sent. */
  sendAnalyticsEvent(args: { eventId: string; event: { type: string; event: string; properties?: Record<string, unknown> }; url: string; domain: string; timestamp: number; address?: string }): Promise<boolean>
}
