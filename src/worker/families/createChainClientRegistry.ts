import type { ChainNamespace } from '../../shared/protocol/caip'
import { createWidgetError } from '../../shared/protocol/errors'

/**
 * Chain clients keyed by CAIP-2 network id: the core worker's EVM chains, and each family's networks in its worker
 * API, every namespace's clients side by side.
 * @example const clients = createChainClientRegistry<SolanaClient>(); clients.set('solana', reference, client); clients.get('solana', reference)
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
