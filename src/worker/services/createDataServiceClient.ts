import * as z from 'zod/mini'
import type { DataServiceApi } from '../../shared/protocol/core/dataService'
import type { ErrorCode } from '../../shared/protocol/errorTable'
import { createWidgetError } from '../../shared/protocol/errors'
import {
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
} from '../../shared/protocol/schemas/dataService'
import {
  swapAllowanceResponseSchema,
  swapApproveResponseSchema,
  swapGasPriceResponseSchema,
  swapQuotesResponseSchema,
  swapTokensResponseSchema,
  swapTransactionResponseSchema,
} from '../../shared/protocol/schemas/convert'
import { safeParse } from '../../shared/protocol/schemas/parse'

export { formatSdkVersion } from '../../shared/protocol/sdkVersion'

export type DataServiceClientParameters = {
  baseUrl: string
  walletRegistryUrl?: string
  projectId: string
  sdkType?: string
  sdkVersion: string
  fetch?: typeof fetch
  timeoutMs?: number
  /** False for a network the service does not cover: most calls are then skipped with empty results. */
  isNetworkSupported?: (caipNetworkId: string) => boolean
}

type Query = Record<string, string | number | boolean | readonly string[] | undefined>

const EVENTS_NEVER_SENT = new Set(['MODAL_CREATED'])

/**
 * The client for Tessera's data service and wallet registry (SPEC §7), running in the worker. Every call carries
 * st, sv and projectId; answers are validated; calls for an unsupported network return empty results.
 * @example const service = createDataServiceClient({ baseUrl, projectId, sdkVersion: 'react-wagmi-0.2.0' })
 */
export function createDataServiceClient({
  baseUrl,
  walletRegistryUrl = baseUrl,
  projectId,
  sdkType = 'tessera',
  sdkVersion,
  fetch: fetchFn = globalThis.fetch,
  timeoutMs = 10_000,
  isNetworkSupported = () => true,
}: DataServiceClientParameters) {
  const url = (base: string, path: string, query: Query = {}) => {
    const result = new URL(path, base.endsWith('/') ? base : `${base}/`)
    for (const [name, value] of Object.entries({ ...query, st: sdkType, sv: sdkVersion, projectId })) {
      if (value === undefined) continue
      result.searchParams.set(name, Array.isArray(value) ? value.join(',') : String(value))
    }
    return result.toString()
  }

  async function call<S extends z.ZodMiniType>(
    endpoint: string,
    {
      base = baseUrl,
      path,
      query,
      method = 'GET',
      body,
      schema,
      failure,
      params,
    }: { base?: string; path: string; query?: Query; method?: 'GET' | 'POST'; body?: unknown; schema: S; failure?: ErrorCode; params?: Record<string, string> },
  ): Promise<z.infer<S>> {
    // A call the spec names a failure for fails with that sentence; others with what went wrong.
    const fail = (code: ErrorCode, details: string, extra: { cause?: unknown; status?: number; field?: string } = {}) =>
      createWidgetError(failure ?? code, { params, details: `${endpoint}: ${details}`, ...extra })
    let response: Response
    try {
      response = await fetchFn(url(base, path, query), {
        method,
        headers: body === undefined ? undefined : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (cause) {
      const isTimeout = (cause as Error)?.name === 'TimeoutError'
      throw fail(isTimeout ? 'SERVICE_TIMEOUT' : 'SERVICE_UNREACHABLE', isTimeout ? `no answer within ${timeoutMs} ms` : `${base} could not be reached`, { cause })
    }
    const text = await response.text()
    let json: unknown
    try {
      json = text ? JSON.parse(text) : undefined
    } catch (cause) {
      throw fail('SERVICE_BAD_RESPONSE', `answered with invalid JSON (HTTP ${response.status})`, { cause, status: response.status })
    }
    if (!response.ok) {
      const error = (json as { error?: { code?: unknown; message?: unknown; reasons?: { description?: unknown }[] } } | undefined)?.error
      const reason = error?.reasons?.[0]?.description
      const message = typeof reason === 'string' ? reason : typeof error?.message === 'string' ? error.message : `HTTP ${response.status}`
      if (response.status === 403 && endpoint === 'sendAnalyticsEvent') {
        throw createWidgetError('INVALID_APP_CONFIGURATION', {
          details: `${message}: this origin is not on the project's allowlist; update the project's configuration`,
          status: 403,
        })
      }
      // The service's own word that a network has no swaps is the spec's sentence, as when the widget knows it first.
      if (error?.code === 'SWAP_NETWORK_UNSUPPORTED' || error?.code === 'GAS_PRICE_NETWORK_UNSUPPORTED') {
        throw createWidgetError(error.code, { details: `${endpoint}: ${message}`, status: response.status })
      }
      const field = (error as { field?: unknown } | undefined)?.field
      throw fail('SERVICE_BAD_RESPONSE', message, { status: response.status, field: typeof field === 'string' ? field : undefined })
    }
    const parsed = safeParse(schema, json)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      throw fail('SERVICE_BAD_RESPONSE', `answered with an invalid ${issue.path.join('.') || 'body'}: ${issue.message}`, { status: response.status })
    }
    return parsed.data
  }

  const unsupported = (chainId: string | undefined) => chainId !== undefined && !isNetworkSupported(chainId)
  const requireSupported = (chainId: string, code: 'GAS_PRICE_NETWORK_UNSUPPORTED' | 'SWAP_NETWORK_UNSUPPORTED') => {
    if (unsupported(chainId)) throw createWidgetError(code, { details: chainId })
  }
  const ok = z.unknown()

  const client = {
    getSupportedChains: () => call('getSupportedChains', { path: 'v1/supported-chains', schema: supportedChainsResponseSchema }),
    getIdentity: ({ address, sender }: { address: string; sender?: string }) =>
      call('getIdentity', { path: `v1/identity/${address}`, query: { sender }, schema: identityResponseSchema }),
    getTransactionHistory: async ({ account, cursor, onramp, chainId }: { account: string; cursor?: string; onramp?: string; chainId?: string }) => {
      if (unsupported(chainId)) return { data: [], next: undefined }
      return call('getTransactionHistory', { path: `v1/account/${account}/history`, query: { cursor, onramp, chainId }, schema: historyResponseSchema, failure: 'FETCH_TRANSACTIONS_FAILED' })
    },
    getBalance: async ({ address, chainId, forceUpdate }: { address: string; chainId: string; forceUpdate?: boolean }) => {
      if (unsupported(chainId)) return { balances: [] }
      return call('getBalance', { path: `v1/account/${address}/balance`, query: { currency: 'usd', chainId, forceUpdate }, schema: balanceResponseSchema, failure: 'TOKEN_BALANCE_UNAVAILABLE' })
    },
    getFungiblePrice: ({ addresses }: { addresses: readonly string[] }) =>
      call('getFungiblePrice', { path: 'v1/fungible/price', method: 'POST', body: { currency: 'usd', addresses, projectId }, schema: fungiblePriceResponseSchema }),
    getGasPrice: ({ chainId }: { chainId: string }) => {
      requireSupported(chainId, 'GAS_PRICE_NETWORK_UNSUPPORTED')
      return call('getGasPrice', { path: 'v1/convert/gas-price', query: { chainId }, schema: swapGasPriceResponseSchema })
    },
    getSwapQuote: (query: { chainId: string; amount: string; userAddress: string; from: string; to: string; gasPrice: string }) => {
      requireSupported(query.chainId, 'SWAP_NETWORK_UNSUPPORTED')
      const { chainId: _chainId, ...rest } = query
      return call('getSwapQuote', { path: 'v1/convert/quotes', query: rest, schema: swapQuotesResponseSchema })
    },
    getSwapTokens: ({ chainId }: { chainId: string }) => {
      requireSupported(chainId, 'SWAP_NETWORK_UNSUPPORTED')
      return call('getSwapTokens', { path: 'v1/convert/tokens', query: { chainId }, schema: swapTokensResponseSchema })
    },
    getAllowance: ({ chainId, tokenAddress, userAddress }: { chainId: string; tokenAddress: string; userAddress: string }) => {
      requireSupported(chainId, 'SWAP_NETWORK_UNSUPPORTED')
      return call('getAllowance', { path: 'v1/convert/allowance', query: { tokenAddress, userAddress }, schema: swapAllowanceResponseSchema })
    },
    /** The swap to sign; `slippage` in percent (1 is 1 %), sent as the number it is. */
    buildSwapTransaction: ({ chainId, ...body }: { chainId: string; amount: string; from: string; to: string; userAddress: string; slippage: number; disableEstimate?: boolean }) => {
      requireSupported(chainId, 'SWAP_NETWORK_UNSUPPORTED')
      const { slippage, ...rest } = body
      return call('buildSwapTransaction', { path: 'v1/convert/build-transaction', method: 'POST', body: { ...rest, eip155: { slippage }, projectId }, schema: swapTransactionResponseSchema })
    },
    /** The approval of exactly `amount` (base units) of `from` to the swap's router. */
    buildApproveTransaction: ({ chainId, userAddress, from, to, amount }: { chainId: string; userAddress: string; from: string; to: string; amount: string }) => {
      requireSupported(chainId, 'SWAP_NETWORK_UNSUPPORTED')
      return call('buildApproveTransaction', { path: 'v1/convert/build-approve', query: { userAddress, from, to, amount }, schema: swapApproveResponseSchema })
    },
    lookupName: ({ name }: { name: string }) =>
      call('lookupName', { path: `v1/profile/account/${encodeURIComponent(name)}`, query: { apiVersion: 2 }, schema: profileSchema, failure: 'NAME_RESOLVE_FAILED' }),
    reverseLookup: ({ address, sender }: { address: string; sender?: string }) =>
      call('reverseLookup', { path: `v1/profile/reverse/${address}`, query: { sender, apiVersion: 2 }, schema: z.array(profileSchema), failure: 'NAMES_FOR_ADDRESS_FAILED' }),
    getNameSuggestions: async ({ name, zone }: { name: string; zone?: string }) =>
      (await call('getNameSuggestions', { path: `v1/profile/suggestions/${encodeURIComponent(name)}`, query: { zone }, schema: suggestionsResponseSchema, failure: 'NAME_SUGGESTIONS_FAILED' })).suggestions,
    registerName: ({ name, coinType, address, message, signature }: { name: string; coinType: number; address: string; message: string; signature: string }) =>
      call('registerName', { path: 'v1/profile/account', method: 'POST', body: { coin_type: coinType, address, message, signature }, schema: z.object({ success: z.boolean() }), failure: 'NAME_REGISTER_FAILED', params: { name } }),
    generateOnrampUrl: (body: Parameters<DataServiceApi['generateOnrampUrl']>[0]) =>
      call('generateOnrampUrl', { path: 'v1/generators/onrampurl', method: 'POST', body: { ...body, defaultExperience: 'buy' }, schema: onrampUrlSchema, failure: 'ONRAMP_UNAVAILABLE' }),
    getOnrampOptions: () => call('getOnrampOptions', { path: 'v1/onramp/options', schema: onrampOptionsSchema }),
    getOnrampQuote: (body: Parameters<DataServiceApi['getOnrampQuote']>[0]) => call('getOnrampQuote', { path: 'v1/onramp/quote', method: 'POST', body, schema: onrampQuoteSchema, failure: 'ONRAMP_UNAVAILABLE' }),
    getOnrampOrder: ({ orderId }: { orderId: string }) => call('getOnrampOrder', { path: `v1/onramp/orders/${encodeURIComponent(orderId)}`, schema: onrampOrderSchema, failure: 'ONRAMP_UNAVAILABLE' }),
    createSessionNonce: () => call('createSessionNonce', { path: 'v1/sessions/nonce', method: 'POST', body: {}, schema: sessionNonceSchema, failure: 'SIWX_INIT_FAILED' }),
    createSession: ({ message, signature }: { message: string; signature: string }) =>
      call('createSession', { path: 'v1/sessions', method: 'POST', body: { message, signature }, schema: sessionSchema, failure: 'SIWX_INIT_FAILED' }),
    getSession: ({ id }: { id: string }) => call('getSession', { path: `v1/sessions/${encodeURIComponent(id)}`, schema: sessionSchema }),
    revokeSession: ({ id, pci, signature }: { id: string; pci: string; signature: string }) =>
      call('revokeSession', { path: `v1/sessions/${encodeURIComponent(id)}/revoke`, method: 'POST', body: { pci, signature }, schema: ok }),

    getWallets: (query: { page: number; entries: number; include?: readonly string[]; exclude?: readonly string[]; chains?: readonly string[]; search?: string; badge_type?: string }) =>
      call('getWallets', { base: walletRegistryUrl, path: 'getWallets', query, schema: walletsResponseSchema }),
    walletImageUrl: (id: string) => url(walletRegistryUrl, `getWalletImage/${encodeURIComponent(id)}`),
    assetImageUrl: (id: string) => url(walletRegistryUrl, `public/getAssetImage/${encodeURIComponent(id)}`),
    currencyImageUrl: (id: string) => url(walletRegistryUrl, `public/getCurrencyImage/${encodeURIComponent(id)}`),
    tokenImageUrl: (id: string) => url(walletRegistryUrl, `public/getTokenImage/${encodeURIComponent(id)}`),
    getAnalyticsConfig: () => call('getAnalyticsConfig', { base: walletRegistryUrl, path: 'getAnalyticsConfig', schema: analyticsConfigSchema }),
    /** Sends one analytics event (never MODAL_CREATED). Resolves false when the event was not sent. */
    async sendAnalyticsEvent({ eventId, event, url: pageUrl, domain, timestamp, address }: { eventId: string; event: { type: string; event: string; properties?: Record<string, unknown> }; url: string; domain: string; timestamp: number; address?: string }) {
      if (EVENTS_NEVER_SENT.has(event.event)) return false
      await call('sendAnalyticsEvent', { path: 'e', method: 'POST', body: { eventId, url: pageUrl, domain, timestamp, props: { ...event, address } }, schema: ok })
      return true
    },
  }
  // The page calls these through the core by their protocol type: any drift is a type error here.
  client satisfies DataServiceApi
  return client
}

export type DataServiceClient = ReturnType<typeof createDataServiceClient>
