import { getAddress, numberToHex, type Address, type EIP1193Provider } from 'viem'
import { createWidgetError, fromRpcError, WidgetError } from '../../shared/protocol/errors'
import type { InjectedProviderDetail } from './discoverInjected'

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

/** A wallet's error as a WidgetError: classified by its EIP-1193 code (never by its text), the original as cause. */
const toWalletError = (error: unknown): WidgetError => {
  if (error instanceof WidgetError) return error
  const e = error as { code?: unknown; message?: unknown; data?: { originalError?: { code?: unknown } } } | null
  const code = typeof e?.code === 'number' ? e.code : typeof e?.data?.originalError?.code === 'number' ? e.data.originalError.code : undefined
  if (code !== undefined) return fromRpcError({ code, message: e?.message })
  return createWidgetError('UNKNOWN', { details: typeof e?.message === 'string' ? e.message : String(error), cause: error })
}

const parseChainId = (value: unknown): number => {
  const id = typeof value === 'string' ? Number.parseInt(value, value.startsWith('0x') ? 16 : 10) : Number(value)
  if (!Number.isSafeInteger(id) || id <= 0) throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet reported an invalid chain id: ${String(value)}` })
  return id
}

const parseAccounts = (value: unknown): Address[] => {
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
 * A connector for one injected wallet (EIP-6963 announced, or the legacy window.ethereum): a plain object over
 * its EIP-1193 provider. Wallet errors keep their EIP-1193 code; answers are checked before use.
 */
export function createInjectedConnector({ info, provider, isAnnounced }: InjectedProviderDetail) {
  const request = async <T = unknown>(args: { method: string; params?: unknown }): Promise<T> => {
    try {
      return (await (provider as EIP1193Provider).request(args as never)) as T
    } catch (error) {
      throw toWalletError(error)
    }
  }

  const addChain = async (network: AddableNetwork) => {
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
  }

  const connector = {
    id: info.rdns,
    name: info.name,
    type: (isAnnounced ? 'ANNOUNCED' : 'INJECTED') as ConnectorType,
    chain: 'eip155' as const,
    imageUrl: info.icon || undefined,
    info: { rdns: info.rdns },
    provider,
    request,
    getAccounts: async () => parseAccounts(await request({ method: 'eth_accounts' })),
    getChainId: async () => parseChainId(await request({ method: 'eth_chainId' })),
    /** Whether the wallet still lets this site see accounts, without asking the user (for reconnect). */
    isAuthorized: async () => (await connector.getAccounts().catch(() => [])).length > 0,
    async connect({ chainId }: { chainId?: number } = {}) {
      const accounts = parseAccounts(await request({ method: 'eth_requestAccounts' }))
      if (accounts.length === 0) throw createWidgetError('WALLET_BAD_RESPONSE', { details: 'The wallet returned no account' })
      return { accounts, chainId: chainId ?? (await connector.getChainId()) }
    },
    async disconnect() {
      // Not every wallet supports revoking; the widget forgets the connection either way.
      await request({ method: 'wallet_revokePermissions', params: [{ eth_accounts: {} }] }).catch(() => {})
    },
    /**
     * Switches the wallet to the network; when the wallet does not know it (4902), adds it and switches again.
     * A failed add is 'Chain is not supported'; the user saying no stays USER_REJECTED.
     */
    async switchChain(network: AddableNetwork) {
      try {
        await request({ method: 'wallet_switchEthereumChain', params: [{ chainId: numberToHex(network.id) }] })
        return
      } catch (error) {
        if ((error as WidgetError).rpcCode !== 4902) throw error
      }
      try {
        await addChain(network)
        await request({ method: 'wallet_switchEthereumChain', params: [{ chainId: numberToHex(network.id) }] })
      } catch (error) {
        if ((error as WidgetError).code === 'USER_REJECTED') throw error
        throw createWidgetError('CHAIN_NOT_SUPPORTED', { details: (error as WidgetError).shortMessage, cause: error })
      }
    },
    /** Follows the wallet's account, chain and disconnect events; returns the function that stops. */
    watch({ onAccountsChanged, onChainChanged, onDisconnect }: ConnectorEvents) {
      const p = provider as unknown as { on?: (e: string, l: (v: unknown) => void) => void; removeListener?: (e: string, l: (v: unknown) => void) => void }
      const accounts = (value: unknown) => {
        try {
          onAccountsChanged?.(parseAccounts(value))
        } catch {
          // a malformed event is ignored; the next eth_accounts read tells the truth
        }
      }
      const chain = (value: unknown) => {
        try {
          onChainChanged?.(parseChainId(value))
        } catch {
          // ignored, as above
        }
      }
      const disconnect = () => onDisconnect?.()
      p.on?.('accountsChanged', accounts)
      p.on?.('chainChanged', chain)
      p.on?.('disconnect', disconnect)
      return () => {
        p.removeListener?.('accountsChanged', accounts)
        p.removeListener?.('chainChanged', chain)
        p.removeListener?.('disconnect', disconnect)
      }
    },
  }
  return connector
}

export type InjectedConnector = ReturnType<typeof createInjectedConnector>
