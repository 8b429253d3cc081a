import type { Address } from 'viem'
import { createWidgetError, type WidgetError } from '../../shared/protocol/errors'

export { parseAccounts, parseChainId, toWalletError } from '../../shared/protocol/eip1193'

export { WALLET_CONNECT_ID } from './walletConnectId'

export type ConnectorType = 'ANNOUNCED' | 'INJECTED' | 'WALLET_CONNECT' | 'AUTH' | 'EXTERNAL' | 'MULTI_CHAIN'

/** What a wallet needs to add a chain (EIP-3085). */
export type AddableNetwork = {
  id: number
  name: string
  nativeCurrency: { name: string; symbol: string; decimals: number }
  rpcUrls: readonly string[]
  blockExplorerUrls?: readonly string[]
}

export type ConnectorEvents = {
  onAccountsChanged?: (accounts: Address[]) => void
  onChainChanged?: (chainId: number) => void
  onDisconnect?: () => void
}

export type WalletRequest = <T = unknown>(args: { method: string; params?: unknown }) => Promise<T>

/** The connector shape the widget drives, whatever carries the requests (an injected provider, a WalletConnect session). */
export type Connector = {
  id: string
  name: string
  type: ConnectorType
  chain: 'eip155'
  imageUrl: string | undefined
  info: { rdns: string }
  request: WalletRequest
  getAccounts: () => Promise<Address[]>
  getChainId: () => Promise<number>
  isAuthorized: () => Promise<boolean>
  disconnect: () => Promise<void>
  switchChain: (network: AddableNetwork) => Promise<void>
  watch: (events: ConnectorEvents) => () => void
  /**
   * Whether the wallet refuses `method` at once, without asking its user (the e-mail wallet's frame rules, the methods
   * a WalletConnect session approved): such a request is not reviewed before the refusal.
   */
  refusesMethod?: (method: string) => Promise<boolean>
}

/**
 * Switches the wallet to the network; when the wallet does not know it (4902), adds it (EIP-3085) and switches again.
 * A failed add is 'Chain is not supported'; the user saying no stays USER_REJECTED.
 */
export async function switchChain(request: WalletRequest, network: AddableNetwork) {
  const switchTo = () => request({ method: 'wallet_switchEthereumChain', params: [{ chainId: `0x${network.id.toString(16)}` }] })
  try {
    await switchTo()
    return
  } catch (error) {
    if ((error as WidgetError).rpcCode !== 4902) throw error
  }
  try {
    await request({
      method: 'wallet_addEthereumChain',
      params: [
        {
          chainId: `0x${network.id.toString(16)}`,
          chainName: network.name,
          nativeCurrency: network.nativeCurrency,
          rpcUrls: [...network.rpcUrls],
          blockExplorerUrls: network.blockExplorerUrls?.length ? [...network.blockExplorerUrls] : undefined,
        },
      ],
    })
    await switchTo()
  } catch (error) {
    if ((error as WidgetError).code === 'USER_REJECTED') throw error
    throw createWidgetError('CHAIN_NOT_SUPPORTED', { details: (error as WidgetError).shortMessage, cause: error })
  }
}
