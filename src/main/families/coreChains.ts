import type { CoreConfig, FamilyNamespace } from '../../shared/protocol/core/coreApi'
import type { WidgetNetwork } from '../widget/config'
import { pageFamilies } from './index'

const familyNamespaces = Object.keys(pageFamilies).filter((namespace): namespace is FamilyNamespace => namespace !== 'eip155')

/** Whether the core reads `network`: it has an endpoint the core can use (EVM's by http, Polkadot's by WebSocket too). */
export const coreReaches = (network: WidgetNetwork): boolean =>
  network.chainNamespace === 'eip155' ? network.rpcUrls.default.http.length > 0 : pageFamilies[network.chainNamespace].coreEntry(network) !== undefined

/**
 * The core's `familyChains` from the site's networks: each network of a family besides EVM (whose networks go by
 * numeric chain id, `chains`) with every one of its endpoints, ranked with fallback in the worker; none without one.
 * @example familyCoreChains([solanaLocal]) // { familyChains: { solana: [{ caipNetworkId: 'solana:…', rpcUrls: ['http://127.0.0.1:8899'] }], bip122: [], polkadot: [] } }
 */
export function familyCoreChains(networks: readonly WidgetNetwork[]): Pick<CoreConfig, 'familyChains'> {
  const entriesOf = (namespace: FamilyNamespace) =>
    networks.flatMap((network) => {
      const entry = network.chainNamespace === namespace ? pageFamilies[namespace].coreEntry(network) : undefined
      return entry ? [entry] : []
    })
  return { familyChains: Object.fromEntries(familyNamespaces.map((namespace) => [namespace, entriesOf(namespace)])) }
}
