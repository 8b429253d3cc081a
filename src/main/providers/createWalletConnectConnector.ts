import { proxy, transferHandlers } from 'comlink'
import { installErrorTransferHandler } from '../../shared/protocol/errors'
import type { Pairing, SessionEvent, WalletConnectWorkerApi, WalletConnectWorkerConfig } from '../../shared/protocol/walletConnectApi'
import { createWorkerClient } from '../core/createWorkerClient'
import { switchChain, WALLET_CONNECT_ID, type AddableNetwork, type Connector, type ConnectorEvents } from './eip1193'

installErrorTransferHandler(transferHandlers)

export type { Pairing } from '../../shared/protocol/walletConnectApi'

export type WalletConnectConnectorParameters = WalletConnectWorkerConfig & {
  /** The chain to act on when the wallet approves several: the widget's active one. */
  getPreferredChainId?: () => number | undefined
  /** Starts the WalletConnect worker; hosts with their own bundling (and tests) can pass one. */
  createWorker?: () => Worker
}

/** A WalletConnect request waits for a person on a phone: the sign client's own expiry is 5 minutes. */
const WALLET_ANSWER_TIMEOUT_MS = 6 * 60_000

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
  const onEvent = (event: SessionEvent) => {
    for (const watcher of watchers) {
      if (event.type === 'accountsChanged') watcher.onAccountsChanged?.(event.accounts)
      else if (event.type === 'chainChanged') watcher.onChainChanged?.(event.chainId)
      else watcher.onDisconnect?.()
    }
  }
  // Started at the first call; a worker that dies is replaced and configured again (the session is in its storage).
  const client = createWorkerClient<WalletConnectWorkerApi>({ createWorker, setUp: (remote) => ({ ready: Promise.resolve(remote.configure(parameters, proxy(onEvent))) }) })
  const { call } = client

  const request = <T = unknown,>(args: { method: string; params?: unknown }) => call((r) => r.request(args), { timeoutMs: WALLET_ANSWER_TIMEOUT_MS }) as Promise<T>

  const connector = {
    id: WALLET_CONNECT_ID,
    name: 'WalletConnect',
    type: 'WALLET_CONNECT' as const,
    chain: 'eip155' as const,
    imageUrl: undefined,
    info: { rdns: '' },
    request,
    getAccounts: () => call((r) => r.getAccounts()),
    getChainId: () => call((r) => r.getChainId()),
    isAuthorized: () => call((r) => r.isAuthorized(getPreferredChainId())),
    /** Proposes a session: the URI goes into the QR code or a deep link, the approval settles when the wallet answers. */
    async pair(): Promise<Pairing> {
      const uri = await call((r) => r.pair(getPreferredChainId()))
      return { uri, approval: call((r) => r.approval(uri), { timeoutMs: WALLET_ANSWER_TIMEOUT_MS }) }
    },
    disconnect: () => call((r) => r.disconnect()),
    /** The connected wallet's name, from the session. */
    getPeerName: () => call((r) => r.getPeerName()),
    switchChain: (network: AddableNetwork) => switchChain(request, network),
    watch(handlers: ConnectorEvents) {
      watchers.add(handlers)
      return () => void watchers.delete(handlers)
    },
    /** Ends the worker (and its socket) and every pending call. */
    destroy: () => {
      watchers.clear()
      client.destroy()
    },
  }
  return connector satisfies Connector
}
