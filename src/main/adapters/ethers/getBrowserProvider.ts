import { BrowserProvider } from 'ethers'
import { parseCaipNetworkId } from '../../../shared/protocol/caip'
import { createWidgetError } from '../../../shared/protocol/errors'
import { createEip1193Provider } from '../../widget/createEip1193Provider'
import type { Widget } from '../../widget/createWidget'
import { perWidgetAndChain } from '../perWidgetAndChain'

export type GetBrowserProviderReturnType = BrowserProvider

// The EIP-1193 provider follows the widget's chain, so ethers' check before each call sees a switch.
const providerOf = perWidgetAndChain((widget, chainId) => new BrowserProvider(createEip1193Provider(widget), chainId))

/** The chain id of the widget's active EVM network; NETWORK_NOT_FOUND when it has none. */
function activeEvmChainId(widget: Widget): number {
  const caipNetworkId = widget.getState().namespaces.eip155?.activeCaipNetworkId
  const chainId = Number(parseCaipNetworkId(caipNetworkId ?? '')?.reference)
  if (!Number.isSafeInteger(chainId)) throw createWidgetError('NETWORK_NOT_FOUND', { details: 'The widget has no active EVM network.' })
  return chainId
}

/**
 * An ethers 6 `BrowserProvider` on the widget's active EVM chain: reads go through the worker core, signing and sending
 * to the connected wallet. Like every ethers 6 provider it keeps its network: after a switch in the widget, its calls
 * fail with ethers' NETWORK_ERROR ("network changed") rather than answer for another chain, and calling
 * `getBrowserProvider` again gives the new chain's provider (the same object for as long as the chain stays).
 * @example
 * const provider = getBrowserProvider(widget)
 * const balance = await provider.getBalance('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
 */
export function getBrowserProvider(widget: Widget): GetBrowserProviderReturnType {
  const chainId = activeEvmChainId(widget)
  return providerOf(widget, chainId)
}
