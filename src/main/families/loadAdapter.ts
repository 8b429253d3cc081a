import type { ChainNamespace } from '../../shared/protocol/caip'
import { createWidgetError } from '../../shared/protocol/errors'
import { pageFamilies } from './index'
import type { NamespaceAdapter } from './types'

/**
 * A chain family's code, fetched when the host configures one of its networks (each is a chunk of its own, see
 * pageFamilies); CHAIN_ADAPTER_NOT_FOUND for a namespace Tessera has no family for.
 * @example const adapter = await loadAdapter('solana')
 */
export function loadAdapter(namespace: ChainNamespace): Promise<NamespaceAdapter> {
  if (!Object.hasOwn(pageFamilies, namespace)) return Promise.reject(createWidgetError('CHAIN_ADAPTER_NOT_FOUND', { details: `${namespace} networks are not supported yet` }))
  return pageFamilies[namespace].loadAdapter()
}
