import type { CaipNetworkId, ChainNamespace } from './caip'
import type { CaipNetwork } from './networks'

/** The placeholder for an active network the site did not request (SPEC §3): "Unknown Network", empty RPC lists. */
export function unknownNetwork(caipNetworkId: CaipNetworkId): CaipNetwork {
  const [namespace, reference] = caipNetworkId.split(':') as [ChainNamespace, string]
  const numeric = Number(reference)
  return {
    chainNamespace: namespace,
    caipNetworkId,
    id: Number.isSafeInteger(numeric) ? numeric : reference,
    name: 'Unknown Network',
    nativeCurrency: { name: 'Unknown', symbol: '', decimals: 18 },
    rpcUrls: { default: { http: [] }, chainDefault: { http: [] } },
    testnet: false,
  }
}
