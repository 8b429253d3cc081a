import type { ChainNamespace } from '../../shared/protocol/caip'
import { createWidgetError } from '../../shared/protocol/errors'
import type { NamespaceAdapter } from './types'

/**
 * A chain family's code, fetched when the host configures one of its networks (each is a chunk of its own): a site
 * with EVM networks only never downloads Solana's, Bitcoin's or Polkadot's, and the reverse.
 */
export function loadAdapter(namespace: ChainNamespace): Promise<NamespaceAdapter> {
  switch (namespace) {
    case 'eip155':
      return import('./eip155/adapter').then((m) => m.eip155Adapter)
    case 'solana':
      return import('./solana/adapter').then((m) => m.solanaAdapter)
    case 'bip122':
      return import('./bip122/adapter').then((m) => m.bip122Adapter)
    case 'polkadot':
      return import('./polkadot/adapter').then((m) => m.polkadotAdapter)
    default:
      return Promise.reject(createWidgetError('CHAIN_ADAPTER_NOT_FOUND', { details: `${namespace} networks are not supported yet` }))
  }
}
