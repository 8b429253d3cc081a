import { getAddress, numberToHex, type Address, type EIP1193Provider } from 'viem'
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

/** An error from the wallet, classified by its EIP-1193 code (never by its text). */
export class WalletRequestError extends Error {
  constructor(readonly code: number | string, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'WalletRequestError'
  }
}

const codeOf = (error: unknown): number | undefined => {
  const e = error as { code?: unknown; data?: { originalError?: { code?: unknown } } } | null
  if (typeof e?.code === 'number') return e.code
  const original = e?.data?.originalError?.code
  return typeof original === 'number' ? original : undefined
}

const toWalletError = (error: unknown): WalletRequestError => {
  if (error instanceof WalletRequestError) return error
  const code = codeOf(error) ?? -1
  const message = (error as { message?: unknown } | null)?.message
  return new WalletRequestError(code, typeof message === 'string' && message ? message : 'The wallet refused the request', { cause: error })
}

const parseChainId = (value: unknown): number => {
  const id = typeof value === 'string' ? Number.parseInt(value, value.startsWith('0x') ? 16 : 10) : Number(value)
  if (!Number.isSafeInteger(id) || id <= 0) throw new WalletRequestError('INVALID_CHAIN_ID', `The wallet reported an invalid chain id: ${String(value)}`)
  return id
}

const parseAccounts = (value: unknown): Address[] => {
  if (!Array.isArray(value)) throw new WalletRequestError('INVALID_ACCOUNTS', 'The wallet reported accounts that are not a list')
  return value.map((a) => {
    try {
      return getAddress(String(a))
    } catch {
      throw new WalletRequestError('INVALID_ACCOUNTS', `The wallet reported an invalid address: ${String(a)}`)
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
      if (accounts.length === 0) throw new WalletRequestError(4100, 'The wallet returned no account')
      return { accounts, chainId: chainId ?? (await connector.getChainId()) }
    },
    async disconnect() {
      // Not every wallet supports revoking; the widget forgets the connection either way.
      await request({ method: 'wallet_revokePermissions', params: [{ eth_accounts: {} }] }).catch(() => {})
    },
    /**
     * Switches the wallet to the network; when the wallet does not know it (4902), adds it and switches again.
     * A failed add is 'Chain is not supported'; the user saying no stays a 4001.
     */
    async switchChain(network: AddableNetwork) {
      try {
        await request({ method: 'wallet_switchEthereumChain', params: [{ chainId: numberToHex(network.id) }] })
        return
      } catch (error) {
        if ((error as WalletRequestError).code !== 4902) throw error
      }
      try {
        await addChain(network)
        await request({ method: 'wallet_switchEthereumChain', params: [{ chainId: numberToHex(network.id) }] })
      } catch (error) {
        if ((error as WalletRequestError).code === 4001) throw error
        throw new WalletRequestError('CHAIN_NOT_SUPPORTED', 'Chain is not supported', { cause: error })
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
