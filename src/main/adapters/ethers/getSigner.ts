import type { JsonRpcSigner } from 'ethers'
import type { Widget } from '../../widget/createWidget'
import { getBrowserProvider } from './getBrowserProvider'

export type GetSignerReturnType = JsonRpcSigner

/**
 * The connected account's ethers 6 signer, on the widget's active chain. Without a connection it opens Connect and
 * resolves once the visitor connects; closing the modal rejects with ethers' ACTION_REJECTED (action "requestAccess").
 * @example
 * const signer = await getSigner(widget)
 * const signature = await signer.signMessage('hello')
 */
export async function getSigner(widget: Widget): Promise<GetSignerReturnType> {
  const provider = getBrowserProvider(widget)
  const signer = await provider.getSigner()
  // Connecting can move the widget to the wallet's chain: the signer then comes from that chain's provider.
  const current = getBrowserProvider(widget)
  return current === provider ? signer : current.getSigner()
}
