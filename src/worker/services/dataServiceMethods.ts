import type { DataServiceClient } from './createDataServiceClient'

/** The data-service calls the worker serves to the main thread (a list the main bundle can import cheaply). */
export const dataServiceMethods = [
  'getSupportedChains', 'getIdentity', 'getTransactionHistory', 'getBalance', 'getFungiblePrice', 'getGasPrice', 'getSwapQuote',
  'getSwapTokens', 'getAllowance', 'buildSwapTransaction', 'buildApproveTransaction', 'lookupName', 'reverseLookup',
  'getNameSuggestions', 'registerName', 'generateOnrampUrl', 'getOnrampOptions', 'getOnrampQuote', 'createSessionNonce', 'createSession', 'getSession', 'revokeSession',
  'getWallets', 'getAnalyticsConfig', 'sendAnalyticsEvent',
] as const satisfies readonly (keyof DataServiceClient)[]

export type DataServiceMethod = (typeof dataServiceMethods)[number]
