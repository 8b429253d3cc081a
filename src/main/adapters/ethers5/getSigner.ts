import type { providers } from 'ethers5'
import type { Widget } from '../../widget/createWidget'
import { getWeb3Provider } from './getWeb3Provider'

export type GetSignerReturnType = providers.JsonRpcSigner

/**
 * The connected account's ethers 5 signer. Without a connection it opens Connect and resolves once the visitor
 * connects; closing the modal rejects with the EIP-1193 code 4001 (as ethers 5 passes `eth_requestAccounts` refusals
 * on), while refused signatures and transactions are ethers 5's ACTION_REJECTED.
 * @example
 * const signer = await getSigner(widget)
 * const tx = await signer.sendTransaction({ to, value: utils.parseEther('0.1') })
 */
export async function getSigner(widget: Widget): Promise<GetSignerReturnType> {
  const provider = getWeb3Provider(widget)
  const [address] = (await provider.send('eth_requestAccounts', [])) as string[]
  return provider.getSigner(address)
}
