import type { ChainNamespace } from '../../shared/protocol/caip'
import { createWidgetError } from '../../shared/protocol/errors'

/**
 * The worker's chain clients, keyed by CAIP-2 network id so each namespace (eip155 now; solana, polkadot and bip122
 * with their issues) keeps its own clients side by side.
 */
export function createChainClientRegistry<Client>() {
  const clients = new Map<string, Client>()
  return {
    set: (namespace: ChainNamespace, reference: string | number, client: Client) => void clients.set(`${namespace}:${reference}`, client),
    /** The client of a configured network; NETWORK_NOT_FOUND otherwise. */
    get(namespace: ChainNamespace, reference: string | number): Client {
      const client = clients.get(`${namespace}:${reference}`)
      if (!client) throw createWidgetError('NETWORK_NOT_FOUND', { details: `${namespace}:${reference} is not configured in the core` })
      return client
    },
    has: (namespace: ChainNamespace, reference: string | number) => clients.has(`${namespace}:${reference}`),
    values: () => [...clients.values()],
    clear: () => clients.clear(),
  }
}
