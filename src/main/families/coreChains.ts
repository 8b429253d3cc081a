import type { CoreConfig } from '../../shared/protocol/core/coreApi'
import type { WidgetNetwork } from '../widget/config'
import { polkadotRpcUrls } from '../widget/polkadotRpcUrl'

/**
 * How each family's networks reach the core: a network's entry in the family's config list, with every one of its
 * endpoints (ranked with fallback in the worker), or none when it has no endpoint. EVM's networks go by numeric chain
 * id (`chains`).
 */
const coreEntryOf = {
  solana: (n: WidgetNetwork) => (n.rpcUrls.default.http.length > 0 ? { caipNetworkId: n.caipNetworkId, rpcUrls: n.rpcUrls.default.http } : undefined),
  // A Bitcoin network's http URLs are Esplora-style APIs.
  bip122: (n: WidgetNetwork) => (n.rpcUrls.default.http.length > 0 ? { caipNetworkId: n.caipNetworkId, apiUrls: n.rpcUrls.default.http } : undefined),
  // A Polkadot network is reached over WebSocket (its webSocket URLs, or its http ones as ws).
  polkadot: (n: WidgetNetwork) => {
    const rpcUrls = polkadotRpcUrls(n)
    return rpcUrls.length > 0 ? { caipNetworkId: n.caipNetworkId, rpcUrls } : undefined
  },
}

/** Whether the core reads `network`: it has an endpoint the core can use (EVM's by http, Polkadot's by WebSocket too). */
export const coreReaches = (network: WidgetNetwork): boolean =>
  network.chainNamespace === 'eip155' ? network.rpcUrls.default.http.length > 0 : coreEntryOf[network.chainNamespace](network) !== undefined

/**
 * The core's config lists of the non-EVM families, from the site's networks.
 * @example familyCoreChains([solanaLocal]) // { solanaChains: [{ caipNetworkId: 'solana:…', rpcUrls: ['http://127.0.0.1:8899'] }], bitcoinChains: [], polkadotChains: [] }
 */
export function familyCoreChains(networks: readonly WidgetNetwork[]): Pick<CoreConfig, 'solanaChains' | 'bitcoinChains' | 'polkadotChains'> {
  const entries = <F extends keyof typeof coreEntryOf>(family: F) =>
    networks.flatMap((network) => {
      const entry = network.chainNamespace === family ? coreEntryOf[family](network) : undefined
      return entry ? [entry] : []
    })
  return { solanaChains: entries('solana'), bitcoinChains: entries('bip122'), polkadotChains: entries('polkadot') }
}
