import { createWidgetError } from '../../shared/protocol/errors'
import type { Bip122SignMessageParameters, Bip122SignPsbtParameters, Pairing, SessionEvent, SolanaSignMessageParameters, SolanaSignTransactionParameters, WalletConnectWorkerApi, WalletConnectWorkerConfig } from '../../shared/protocol/walletConnectApi'
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
        onAccountsChanged: (accounts) => onEvent({ type: 'accountsChanged', accounts }),
        onChainChanged: (chainId) => onEvent({ type: 'chainChanged', chainId }),
        onSolanaAccountsChanged: (accounts) => onEvent({ type: 'solanaAccountsChanged', accounts }),
        onBip122AccountsChanged: (accounts) => onEvent({ type: 'bip122AccountsChanged', accounts }),
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
    async pair(preferredChainId?: number, preferredSolanaCaipNetworkId?: string, preferredBip122CaipNetworkId?: string) {
      const { uri, approval } = await current().pair(preferredChainId, preferredSolanaCaipNetworkId, preferredBip122CaipNetworkId)
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
    solanaIsAuthorized: (preferredCaipNetworkId?: string) => current().solana.isAuthorized(preferredCaipNetworkId),
    solanaGetAccounts: () => current().solana.getAccounts(),
    solanaGetCaipNetworkId: (fallback?: string) => current().solana.getCaipNetworkId(fallback),
    solanaSwitchNetwork: (caipNetworkId: string) => current().solana.switchNetwork(caipNetworkId),
    solanaSignMessage: (args: SolanaSignMessageParameters) => current().solana.signMessage(args),
    solanaSignTransaction: (args: SolanaSignTransactionParameters) => current().solana.signTransaction(args),
    bip122IsAuthorized: (preferredCaipNetworkId?: string) => current().bip122.isAuthorized(preferredCaipNetworkId),
    bip122GetAccounts: () => current().bip122.getAccounts(),
    bip122GetCaipNetworkId: (fallback?: string) => current().bip122.getCaipNetworkId(fallback),
    bip122SwitchNetwork: (caipNetworkId: string) => current().bip122.switchNetwork(caipNetworkId),
    bip122SignMessage: (args: Bip122SignMessageParameters) => current().bip122.signMessage(args),
    bip122SignPsbt: (args: Bip122SignPsbtParameters) => current().bip122.signPsbt(args),
  } satisfies WalletConnectWorkerApi
}
