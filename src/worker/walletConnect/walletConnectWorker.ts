import { expose, transferHandlers } from 'comlink'
import { createWidgetError, installErrorTransferHandler } from '../../shared/protocol/errors'
import type { Pairing, SessionEvent, WalletConnectWorkerApi, WalletConnectWorkerConfig } from '../../shared/protocol/walletConnectApi'
import { createWalletConnectSession, type WalletConnectSession } from './createWalletConnectSession'

/** Pairings waiting for their approval to be asked for; a fresh one replaces the oldest past this. */
const MAX_PENDING_APPROVALS = 8

installErrorTransferHandler(transferHandlers)


let session: WalletConnectSession | undefined
const approvals = new Map<string, Pairing['approval']>()
const current = () => {
  if (!session) throw createWidgetError('WALLETCONNECT_NOT_CONFIGURED')
  return session
}

/** The WalletConnect worker: the sign client, its crypto and its socket, off the page's main thread. */
const api = {
  configure(parameters: WalletConnectWorkerConfig, onEvent: (event: SessionEvent) => void) {
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
    for (const stale of [...approvals.keys()].slice(0, -MAX_PENDING_APPROVALS)) approvals.delete(stale)
    return uri
  },
  approval(uri: string) {
    const approval = approvals.get(uri)
    approvals.delete(uri)
    if (!approval) throw createWidgetError('WALLETCONNECT_UNAVAILABLE', { details: 'No pairing with this URI' })
    return approval
  },
} satisfies WalletConnectWorkerApi

expose(api)
