import type { WidgetNetwork } from './config'

/**
 * The WebSocket URLs the core reaches a Polkadot network by, in order: its webSocket URLs, else its http URLs as ws(s).
 * @example polkadotRpcUrls({ rpcUrls: { default: { http: ['https://a.test', 'https://b.test'] } } }) // ['wss://a.test', 'wss://b.test']
 */
export const polkadotRpcUrls = (network: Pick<WidgetNetwork, 'rpcUrls'>): string[] =>
  network.rpcUrls.default.webSocket?.length ? [...network.rpcUrls.default.webSocket] : network.rpcUrls.default.http.map((url) => url.replace(/^http(s?):/, 'ws$1:'))

/**
 * The first of them.
 * A file of its own: the Polkadot adapter (a lazy chunk) imports it without importing the config's schemas, which keeps
 * zod in the widget's start-up chunk instead of a chunk of its own (rolldown would not merge it past config.ts).
 * @example polkadotRpcUrl({ rpcUrls: { default: { http: ['https://rpc.polkadot.io'] } } }) // 'wss://rpc.polkadot.io'
 */
export const polkadotRpcUrl = (network: Pick<WidgetNetwork, 'rpcUrls'>): string | undefined => polkadotRpcUrls(network)[0]
