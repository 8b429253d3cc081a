import type { WidgetNetwork } from './config'

/**
 * The WebSocket URL the core reaches a Polkadot network by: its first webSocket URL, else its first http URL as ws(s).
 * A file of its own: the Polkadot adapter (a lazy chunk) imports it without importing the config's schemas, which keeps
 * zod in the widget's start-up chunk instead of a chunk of its own (rolldown would not merge it past config.ts).
 * @example polkadotRpcUrl({ rpcUrls: { default: { http: ['https://rpc.polkadot.io'] } } }) // 'wss://rpc.polkadot.io'
 */
export const polkadotRpcUrl = (network: Pick<WidgetNetwork, 'rpcUrls'>): string | undefined =>
  network.rpcUrls.default.webSocket?.[0] ?? network.rpcUrls.default.http[0]?.replace(/^http(s?):/, 'ws$1:')
