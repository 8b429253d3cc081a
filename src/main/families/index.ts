import type { ChainNamespace } from '../../shared/protocol/caip'
import type { CoreFamilies, FamilyNamespace } from '../../shared/protocol/core/coreApi'
import type { WidgetNetwork } from '../widget/config'
import { polkadotRpcUrls } from '../widget/polkadotRpcUrl'
import type { NamespaceAdapter } from './types'
import { retryingImport } from '../lazy/retryingImport'

/** A family's adapter, from its module's chunk loaded on first use (a failed load is asked for anew by the next call). */
function adapterFrom<Module extends object, Name extends keyof Module & string>(load: () => Promise<Module>, name: Name) {
  const code = retryingImport(load, name)
  return () => code().then((module) => module[name] as NamespaceAdapter)
}

/** A chain family on the page: its adapter, and how one of its networks reaches the core. */
export type PageFamily<N extends ChainNamespace> = {
  /** The family's code (a chunk of its own), fetched when the host configures one of its networks. */
  loadAdapter: () => Promise<NamespaceAdapter>
  /** The network's entry in the core's `familyChains`, with every one of its endpoints; none without an endpoint the core can use. */
  coreEntry: N extends FamilyNamespace ? (network: WidgetNetwork) => CoreFamilies[N]['chain'] | undefined : undefined
  /** Whether its wallets also connect through WalletConnect (a codec in src/worker/families/<namespace>/walletConnect.ts). */
  hasWalletConnect: boolean
}

/**
 * The chain families on the page, one line each: a site with EVM networks only never downloads Solana's, Bitcoin's or
 * Polkadot's code, and the reverse. What the core needs of a family (its calls, its worker module) is in
 * src/main/core/familyModules.ts.
 */
export const pageFamilies: { [N in ChainNamespace]: PageFamily<N> } = {
  // EVM is the core's own: its networks go by numeric chain id (`chains`).
  eip155: { loadAdapter: adapterFrom(() => import('./eip155/adapter'), 'eip155Adapter'), coreEntry: undefined, hasWalletConnect: true },
  solana: {
    loadAdapter: adapterFrom(() => import('./solana/adapter'), 'solanaAdapter'),
    hasWalletConnect: true,
    coreEntry: (n) => (n.rpcUrls.default.http.length > 0 ? { caipNetworkId: n.caipNetworkId, rpcUrls: n.rpcUrls.default.http } : undefined),
  },
  // A Bitcoin network's http URLs are Esplora-style APIs.
  bip122: {
    loadAdapter: adapterFrom(() => import('./bip122/adapter'), 'bip122Adapter'),
    hasWalletConnect: true,
    coreEntry: (n) => (n.rpcUrls.default.http.length > 0 ? { caipNetworkId: n.caipNetworkId, apiUrls: n.rpcUrls.default.http } : undefined),
  },
  // A Polkadot network is reached over WebSocket (its webSocket URLs, or its http ones as ws).
  polkadot: {
    loadAdapter: adapterFrom(() => import('./polkadot/adapter'), 'polkadotAdapter'),
    hasWalletConnect: false,
    coreEntry: (n) => {
      const rpcUrls = polkadotRpcUrls(n)
      return rpcUrls.length > 0 ? { caipNetworkId: n.caipNetworkId, rpcUrls } : undefined
    },
  },
}
