import { providers } from 'ethers5'
import { assertEvmNetwork, perWidgetAndChain } from '../perWidgetAndChain'
import { createEip1193Provider } from '../../widget/createEip1193Provider'
import type { Widget } from '../../widget/createWidget'

export type GetReadProviderParameters = {
  /** One of the widget's EVM networks. */
  chainId: number
}
export type GetReadProviderReturnType = providers.Web3Provider

const readProviderOf = perWidgetAndChain((widget, chainId) => new providers.Web3Provider(createEip1193Provider(widget, { chainId }), chainId))

/**
 * An ethers 5 provider for reads on one of the widget's chains, whatever chain the wallet is on: its JSON-RPC goes
 * through the widget's worker core (ranked fallback, batching, caching). For reads only: sign with `getSigner`.
 * @example
 * const provider = getReadProvider(widget, { chainId: 1 })
 * const blockNumber = await provider.getBlockNumber()
 */
export function getReadProvider(widget: Widget, { chainId }: GetReadProviderParameters): GetReadProviderReturnType {
  assertEvmNetwork(widget, chainId)
  return readProviderOf(widget, chainId)
}
