import { BrowserProvider } from 'ethers'
import { assertEvmNetwork, perWidgetAndChain } from '../perWidgetAndChain'
import { createEip1193Provider } from '../../widget/createEip1193Provider'
import type { Widget } from '../../widget/createWidget'

export type GetReadProviderParameters = {
  /** One of the widget's EVM networks. */
  chainId: number
}
export type GetReadProviderReturnType = BrowserProvider

// The chain is fixed, so ethers need not ask for it before each call.
const readProviderOf = perWidgetAndChain((widget, chainId) => new BrowserProvider(createEip1193Provider(widget, { chainId }), chainId, { staticNetwork: true }))

/**
 * An ethers 6 provider for reads on one of the widget's chains, whatever chain the wallet is on: its JSON-RPC goes
 * through the widget's worker core (ranked fallback, batching, caching). For reads only: sign with `getSigner`.
 * @example
 * const provider = getReadProvider(widget, { chainId: 1 })
 * const blockNumber = await provider.getBlockNumber()
 */
export function getReadProvider(widget: Widget, { chainId }: GetReadProviderParameters): GetReadProviderReturnType {
  assertEvmNetwork(widget, chainId)
  return readProviderOf(widget, chainId)
}
