import { getAddress, numberToHex, type Address } from 'viem'
import { createWidgetError, fromRpcError, WidgetError } from '../../shared/protocol/errors'

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
}

// WalletConnect's own codes for a user saying no (USER_REJECTED, USER_REJECTED_CHAINS, USER_REJECTED_METHODS).
const walletConnectRejections = new Set([5000, 5001, 5002])

/** A wallet's error as a WidgetError: classified by its EIP-1193 code (never by its text), the original as cause. */
export const toWalletError = (error: unknown): WidgetError => {
  if (error instanceof WidgetError) return error
  const e = error as { code?: unknown; message?: unknown; data?: { originalError?: { code?: unknown } } } | null
  const code = typeof e?.code === 'number' ? e.code : typeof e?.data?.originalError?.code === 'number' ? e.data.originalError.code : undefined
  if (code !== undefined && walletConnectRejections.has(code)) return createWidgetError('USER_REJECTED', { details: typeof e?.message === 'string' ? e.message : undefined, cause: error })
  if (code !== undefined) return fromRpcError({ code, message: e?.message })
  return createWidgetError('UNKNOWN', { details: typeof e?.message === 'string' ? e.message : String(error), cause: error })
}

export const parseChainId = (value: unknown): number => {
  const id = typeof value === 'string' ? Number.parseInt(value, value.startsWith('0x') ? 16 : 10) : Number(value)
  if (!Number.isSafeInteger(id) || id <= 0) throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet reported an invalid chain id: ${String(value)}` })
  return id
}

export const parseAccounts = (value: unknown): Address[] => {
  if (!Array.isArray(value)) throw createWidgetError('WALLET_BAD_RESPONSE', { details: 'The wallet reported accounts that are not a list' })
  return value.map((a) => {
    try {
      return getAddress(String(a))
    } catch {
      throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet reported an invalid address: ${String(a)}` })
    }
  })
}

/**
 * Switches the wallet to the network; when the wallet does not know it (4902), adds it (EIP-3085) and switches again.
 * A failed add is 'Chain is not supported'; the user saying no stays USER_REJECTED.
 */
export async function switchChain(request: WalletRequest, network: AddableNetwork) {
  const switchTo = () => request({ method: 'wallet_switchEthereumChain', params: [{ chainId: numberToHex(network.id) }] })
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
          chainId: numberToHex(network.id),
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
