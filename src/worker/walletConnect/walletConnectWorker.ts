import { expose, transferHandlers } from 'comlink'
import { createWidgetError, installErrorTransferHandler } from '../../shared/protocol/errors'
import { createWalletConnectSession, type Pairing, type WalletConnectSession, type WalletConnectSessionParameters } from './createWalletConnectSession'

installErrorTransferHandler(transferHandlers)

export type SessionEvent = { type: 'accountsChanged'; accounts: `0x${string}`[] } | { type: 'chainChanged'; chainId: number } | { type: 'disconnect' }

let session: WalletConnectSession | undefined
const approvals = new Map<string, Pairing['approval']>()
const current = () => {
  if (!session) throw createWidgetError('WALLETCONNECT_NOT_CONFIGURED')
  return session
}

/** The WalletConnect worker: the sign client, its crypto and its socket, off the page's main thread. */
const api = {
  configure(parameters: Omit<WalletConnectSessionParameters, 'loadSignClient' | 'storage'>, onEvent: (event: SessionEvent) => void) {
    session = createWalletConnectSession(parameters)
    session.watch({
      onAccountsChanged: (accounts) => onEvent({ type: 'accountsChanged', accounts }),
      onChainChanged: (chainId) => onEvent({ type: 'chainChanged', chainId }),
      onDisconnect: () => onEvent({ type: 'disconnect' }),
    })
  },
  isAuthorized: (preferredChainId?: number) => current().isAuthorized(preferredChainId),
  getAccounts: () => current().getAccounts(),
  getChainId: () => current().getChainId(),
  request: (args: { method: string; params?: unknown }) => current().request(args),
  disconnect: () => current().disconnect(),
  /** The wallet's name as its session says (its icon URL is not passed on: showing it would call a host nobody configured). */
  getPeerName: () => current().getPeer()?.name,
  /** Starts a pairing and returns its URI; `approval(uri)` then waits for the wallet. */
  async pair(preferredChainId?: number) {
    const { uri, approval } = await current().pair(preferredChainId)
    approval.catch(() => {})
    approvals.set(uri, approval)
    return uri
  },
  approval(uri: string) {
    const approval = approvals.get(uri)
    approvals.delete(uri)
    if (!approval) throw createWidgetError('WALLETCONNECT_UNAVAILABLE', { details: 'No pairing with this URI' })
    return approval
  },
}

export type WalletConnectWorkerApi = typeof api

expose(api)
