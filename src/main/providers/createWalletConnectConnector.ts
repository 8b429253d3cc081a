import { proxy, transferHandlers, wrap, type Remote } from 'comlink'
import { installErrorTransferHandler } from '../../shared/protocol/errors'
import type { Pairing, WalletConnectSessionParameters } from '../../worker/walletConnect/createWalletConnectSession'
import type { SessionEvent, WalletConnectWorkerApi } from '../../worker/walletConnect/walletConnectWorker'
import { switchChain, WALLET_CONNECT_ID, type AddableNetwork, type Connector, type ConnectorEvents } from './eip1193'

installErrorTransferHandler(transferHandlers)

export type { Pairing } from '../../worker/walletConnect/createWalletConnectSession'

export type WalletConnectConnectorParameters = Omit<WalletConnectSessionParameters, 'loadSignClient' | 'storage'> & {
  /** The chain to act on when the wallet approves several: the widget's active one. */
  getPreferredChainId?: () => number | undefined
  /** Starts the WalletConnect worker; hosts with their own bundling (and tests) can pass one. */
  createWorker?: () => Worker
}

function startWorker() {
  return new Worker(new URL('../../worker/walletConnect/walletConnectWorker.ts', import.meta.url), { type: 'module', name: 'tessera-walletconnect' })
}

/**
 * The WalletConnect connector. Its sign client (142 kB gzipped, plus the crypto of every message) runs in a worker of
 * its own: `npm run bench:wc` measured 265 ms of main-thread blocking per pairing with the client on the page (CPU
 * slowed 4×), none with it in the worker. The worker exists only once a visitor opens a WalletConnect view or a
 * stored session is reconnected.
 */
export function createWalletConnectConnector({ createWorker = startWorker, getPreferredChainId = () => undefined, ...parameters }: WalletConnectConnectorParameters) {
  const watchers = new Set<ConnectorEvents>()
  let remote: Remote<WalletConnectWorkerApi> | undefined
  const onEvent = (event: SessionEvent) => {
    for (const watcher of watchers) {
      if (event.type === 'accountsChanged') watcher.onAccountsChanged?.(event.accounts)
      else if (event.type === 'chainChanged') watcher.onChainChanged?.(event.chainId)
      else watcher.onDisconnect?.()
    }
  }
  const worker = async () => {
    if (!remote) {
      remote = wrap<WalletConnectWorkerApi>(createWorker())
      await remote.configure(parameters, proxy(onEvent))
    }
    return remote
  }

  const request = async <T = unknown,>(args: { method: string; params?: unknown }) => (await (await worker()).request(args)) as T

  const connector = {
    id: WALLET_CONNECT_ID,
    name: 'WalletConnect',
    type: 'WALLET_CONNECT' as const,
    chain: 'eip155' as const,
    imageUrl: undefined,
    info: { rdns: '' },
    request,
    getAccounts: async () => (await worker()).getAccounts(),
    getChainId: async () => (await worker()).getChainId(),
    isAuthorized: async () => (await worker()).isAuthorized(getPreferredChainId()),
    /** Proposes a session: the URI goes into the QR code or a deep link, the approval settles when the wallet answers. */
    async pair(): Promise<Pairing> {
      const api = await worker()
      const uri = await api.pair(getPreferredChainId())
      return { uri, approval: api.approval(uri) }
    },
    disconnect: async () => (await worker()).disconnect(),
    /** The connected wallet's name, from the session. */
    getPeerName: async () => (await worker()).getPeerName(),
    switchChain: (network: AddableNetwork) => switchChain(request, network),
    watch(handlers: ConnectorEvents) {
      watchers.add(handlers)
      return () => void watchers.delete(handlers)
    },
  }
  return connector satisfies Connector
}
