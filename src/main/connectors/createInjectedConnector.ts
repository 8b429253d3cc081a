import type { EIP1193Provider } from 'viem'
import { createWidgetError } from '../../shared/protocol/errors'
import type { InjectedProviderDetail } from './discoverInjected'
import { parseAccounts, parseChainId, switchChain, toWalletError, type AddableNetwork, type Connector, type ConnectorEvents, type ConnectorType } from './eip1193'

export type { AddableNetwork, ConnectorEvents, ConnectorType } from './eip1193'

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
    switchChain: (network: AddableNetwork) => switchChain(request, network),
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
  return connector satisfies Connector & { connect: unknown }
}

export type InjectedConnector = ReturnType<typeof createInjectedConnector>
