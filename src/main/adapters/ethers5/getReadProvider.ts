import { providers } from 'ethers5'
import { createWidgetError } from '../../../shared/protocol/errors'
import { createEip1193Provider } from '../../widget/createEip1193Provider'
import type { Widget } from '../../widget/createWidget'

export type GetReadProviderParameters = {
  /** One of the widget's EVM networks. */
  chainId: number
}
export type GetReadProviderReturnType = providers.Web3Provider

const readProvidersByWidget = new WeakMap<Widget, Map<number, providers.Web3Provider>>()

/** Throws NETWORK_NOT_FOUND unless `chainId` is one of the widget's EVM networks (the core knows no other). */
function assertEvmNetwork(widget: Widget, chainId: number) {
  if (widget.getNetworks().some((n) => n.chainNamespace === 'eip155' && Number(n.id) === chainId)) return
  throw createWidgetError('NETWORK_NOT_FOUND', { details: `eip155:${chainId} is not one of the widget's networks.` })
}

/**
 * An ethers 5 provider for reads on one of the widget's chains, whatever chain the wallet is on: its JSON-RPC goes
 * through the widget's worker core (ranked fallback, batching, caching). For reads only: sign with `getSigner`.
 * @example
 * const provider = getReadProvider(widget, { chainId: 1 })
 * const blockNumber = await provider.getBlockNumber()
 */
export function getReadProvider(widget: Widget, { chainId }: GetReadProviderParameters): GetReadProviderReturnType {
  assertEvmNetwork(widget, chainId)
  let byChain = readProvidersByWidget.get(widget)
  if (!byChain) readProvidersByWidget.set(widget, (byChain = new Map()))
  let provider = byChain.get(chainId)
  if (!provider) byChain.set(chainId, (provider = new providers.Web3Provider(createEip1193Provider(widget, { chainId }), chainId)))
  return provider
}
