import { createWidgetError } from '../../shared/protocol/errors'
import type { Pairing, SessionEvent, WalletConnectWorkerApi, WalletConnectWorkerConfig } from '../../shared/protocol/walletConnectApi'
import { createWalletConnectSession, type WalletConnectSession, type WalletConnectSessionParameters } from './createWalletConnectSession'

/** Pairings waiting for their approval to be asked for; a fresh one replaces the oldest past this. */
const MAX_PENDING_APPROVALS = 8

/**
 * The WalletConnect worker's API (`walletConnectWorker.ts` exposes it): one session, configured by the page.
 * `storage` replaces the client's IndexedDB (tests in Node; it is no part of the config the page sends).
 * @example expose(createWalletConnectWorkerApi())
 */
export function createWalletConnectWorkerApi({ storage }: Pick<WalletConnectSessionParameters, 'storage'> = {}) {
  let session: WalletConnectSession | undefined
  const approvals = new Map<string, Pairing['approval']>()
  const current = () => {
    if (!session) throw createWidgetError('WALLETCONNECT_NOT_CONFIGURED')
    return session
  }

  return {
    configure(parameters: WalletConnectWorkerConfig, onEvent: (event: SessionEvent) => void) {
      session = createWalletConnectSession({ ...parameters, storage })
      session.watch({
        onAccountsChanged: (namespace, accounts) => onEvent({ type: 'accountsChanged', namespace, accounts }),
        onNetworkChanged: (namespace, caipNetworkId) => onEvent({ type: 'networkChanged', namespace, caipNetworkId }),
        onDisconnect: () => onEvent({ type: 'disconnect' }),
      })
    },
    /** Starts a pairing and returns its URI; `approval(uri)` then waits for the wallet. */
    async pair(preferred) {
      const { uri, approval } = await current().pair(preferred)
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
    isAuthorized: (namespace, preferredCaipNetworkId) => current().isAuthorized(namespace, preferredCaipNetworkId),
    getAccounts: (namespace) => current().getAccounts(namespace),
    approvedMethods: (namespace) => current().approvedMethods(namespace),
    getCaipNetworkId: (namespace, fallback) => current().getCaipNetworkId(namespace, fallback),
    switchNetwork: (namespace, caipNetworkId) => current().switchNetwork(namespace, caipNetworkId),
    disconnect: () => current().disconnect(),
    /** The wallet's name as its session says (its icon URL is not passed on: showing it would call a host nobody configured). */
    getPeerName: () => current().getPeer()?.name,
    request: (args) => current().eip155.request(args),
    solanaSignMessage: (args) => current().solana.signMessage(args),
    solanaSignTransaction: (args) => current().solana.signTransaction(args),
    bip122SignMessage: (args) => current().bip122.signMessage(args),
    bip122SignPsbt: (args) => current().bip122.signPsbt(args),
  } satisfies WalletConnectWorkerApi
}
