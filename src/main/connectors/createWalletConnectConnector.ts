import { base58 } from '@scure/base'
import { proxy, transferHandlers } from 'comlink'
import { createWidgetError, installErrorTransferHandler } from '../../shared/protocol/errors'
import type { Pairing, SessionEvent, WalletConnectWorkerApi, WalletConnectWorkerConfig } from '../../shared/protocol/walletConnectApi'
import { createWorkerClient } from '../core/createWorkerClient'
import type { Bip122NamespaceConnector } from '../families/bip122/connector'
import type { NamespaceConnector, NamespaceConnectorEvents } from '../families/types'
import { switchChain, WALLET_CONNECT_ID, type AddableNetwork, type Connector, type ConnectorEvents } from './eip1193'
import { PageWorker as Worker } from '../core/pageWorker'
import { toBitcoinAccounts, type BitcoinAccount } from '../families/bip122/wallets/bitcoinConnector'

export type { Pairing } from '../../shared/protocol/walletConnectApi'

export type WalletConnectConnectorParameters = WalletConnectWorkerConfig & {
  /** The chain to act on when the wallet approves several: the widget's active one. */
  getPreferredChainId?: () => number | undefined
  /** The Solana cluster to act on when the wallet approves several: the widget's active one (CAIP-2). */
  getPreferredSolanaCaipNetworkId?: () => string | undefined
  /** The Bitcoin network to act on when the wallet approves several: the widget's active one (CAIP-2). */
  getPreferredBip122CaipNetworkId?: () => string | undefined
  /** Starts the WalletConnect worker; hosts with their own bundling (and tests) can pass one. */
  createWorker?: () => Worker
}

/** The session's `solana` namespace as the connection layer drives a Solana wallet (it always signs transactions). */
export type WalletConnectSolanaConnector = NamespaceConnector & { namespace: 'solana'; signTransaction: NonNullable<NamespaceConnector['signTransaction']> }

/** The session's `bip122` namespace as the connection layer drives a Bitcoin wallet (it signs the send flow's PSBTs). */
export type WalletConnectBip122Connector = Bip122NamespaceConnector & { namespace: 'bip122' }

/** A WalletConnect request waits for a person on a phone: the sign client's own expiry is 5 minutes. */
const WALLET_ANSWER_TIMEOUT_MS = 6 * 60_000

function startWorker() {
  // Worker is PageWorker: see pageWorker.ts.
  return new Worker(new URL('../../worker/walletConnect/walletConnectWorker.ts', import.meta.url), { type: 'module', name: 'tessera-walletconnect' })
}

/**
 * The WalletConnect connector. Its sign client (142 kB gzipped, plus the crypto of every message) runs in a worker of
 * its own: `npm run bench:wc` measured 265 ms of main-thread blocking per pairing with the client on the page (CPU
 * slowed 4×), none with it in the worker. The worker exists only once a visitor opens a WalletConnect view or a
 * stored session is reconnected.
 */
export function createWalletConnectConnector({
  createWorker = startWorker,
  getPreferredChainId = () => undefined,
  getPreferredSolanaCaipNetworkId = () => undefined,
  getPreferredBip122CaipNetworkId = () => undefined,
  ...parameters
}: WalletConnectConnectorParameters) {
  installErrorTransferHandler(transferHandlers)
  const watchers = new Set<ConnectorEvents>()
  const solanaWatchers = new Set<NamespaceConnectorEvents>()
  const bip122Watchers = new Set<NamespaceConnectorEvents>()
  /** The session's Bitcoin addresses as last read (payment first), with their purposes. */
  let bitcoinAccounts: BitcoinAccount[] = []
  const rememberBitcoin = (addresses: string[]) => {
    bitcoinAccounts = toBitcoinAccounts(addresses.map((address) => ({ address })))
    return addresses
  }
  const onEvent = (event: SessionEvent) => {
    if (event.type === 'bip122AccountsChanged') {
      // No Bitcoin address left is Bitcoin's disconnect; the other families of the session go on.
      rememberBitcoin(event.accounts)
      for (const watcher of bip122Watchers) {
        if (event.accounts.length > 0) watcher.onAccountsChanged?.(event.accounts)
        else watcher.onDisconnect?.()
      }
      return
    }
    if (event.type === 'solanaAccountsChanged') {
      // No Solana account left is Solana's disconnect; the eip155 side of the session goes on.
      for (const watcher of solanaWatchers) {
        if (event.accounts.length > 0) watcher.onAccountsChanged?.(event.accounts)
        else watcher.onDisconnect?.()
      }
      return
    }
    for (const watcher of watchers) {
      if (event.type === 'accountsChanged') watcher.onAccountsChanged?.(event.accounts)
      else if (event.type === 'chainChanged') watcher.onChainChanged?.(event.chainId)
      else watcher.onDisconnect?.()
    }
    if (event.type === 'disconnect') {
      bitcoinAccounts = []
      for (const watcher of [...solanaWatchers, ...bip122Watchers]) watcher.onDisconnect?.()
    }
  }
  // Started at the first call; a worker that dies is replaced and configured again (the session is in its storage).
  const client = createWorkerClient<WalletConnectWorkerApi>({ createWorker, setUp: (remote) => ({ ready: Promise.resolve(remote.configure(parameters, proxy(onEvent))) }) })
  const { call } = client

  const request = <T = unknown,>(args: { method: string; params?: unknown }) => call((r) => r.request(args), { timeoutMs: WALLET_ANSWER_TIMEOUT_MS }) as Promise<T>

  /**
   * The same session's `solana` namespace, as the connection layer drives a Solana wallet. It connects through the
   * QR view (`pair`, whose approval carries `solana`); its clusters are the ones the wallet approved.
   * @example const signature = await connector.solana.signMessage('hello', address) // base58
   */
  const solana: WalletConnectSolanaConnector = {
    id: WALLET_CONNECT_ID,
    name: 'WalletConnect',
    type: 'WALLET_CONNECT',
    namespace: 'solana',
    imageUrl: undefined,
    info: { rdns: '' },
    connect: async () => {
      throw createWidgetError('UNSUPPORTED_METHOD', { details: 'WalletConnect connects through its QR code view (pair)' })
    },
    isAuthorized: () => call((r) => r.solanaIsAuthorized(getPreferredSolanaCaipNetworkId())),
    getAccounts: () => call((r) => r.solanaGetAccounts()),
    getCaipNetworkId: (fallback) => call((r) => r.solanaGetCaipNetworkId(fallback)),
    disconnect: () => call((r) => r.disconnect()),
    switchNetwork: (network) => call((r) => r.solanaSwitchNetwork(network.caipNetworkId)),
    signMessage: async (message, address) =>
      base58.encode(await call((r) => r.solanaSignMessage({ message: new TextEncoder().encode(message), address }), { timeoutMs: WALLET_ANSWER_TIMEOUT_MS })),
    signTransaction: (transaction, address, caipNetworkId) => call((r) => r.solanaSignTransaction({ transaction, address, caipNetworkId }), { timeoutMs: WALLET_ANSWER_TIMEOUT_MS }),
    watch(handlers) {
      const own = { onAccountsChanged: handlers.onAccountsChanged, onDisconnect: handlers.onDisconnect }
      solanaWatchers.add(own)
      return () => void solanaWatchers.delete(own)
    },
  }

  /**
   * The same session's `bip122` namespace, as the connection layer drives a Bitcoin wallet. It connects through the QR
   * view (`pair`, whose approval carries `bip122`); its networks are the ones the wallet approved, its addresses those
   * the session gives there, payment first. Messages are signed with BIP-322 (base64), PSBTs are signed, never broadcast.
   * @example const signature = await connector.bip122.signMessage('hello', address) // BIP-322, base64
   */
  const bip122: WalletConnectBip122Connector = {
    id: WALLET_CONNECT_ID,
    name: 'WalletConnect',
    type: 'WALLET_CONNECT',
    namespace: 'bip122',
    imageUrl: undefined,
    info: { rdns: '' },
    connect: async () => {
      throw createWidgetError('UNSUPPORTED_METHOD', { details: 'WalletConnect connects through its QR code view (pair)' })
    },
    isAuthorized: () => call((r) => r.bip122IsAuthorized(getPreferredBip122CaipNetworkId())),
    getAccounts: async () => rememberBitcoin(await call((r) => r.bip122GetAccounts())),
    getCaipNetworkId: (fallback) => call((r) => r.bip122GetCaipNetworkId(fallback)),
    disconnect: () => call((r) => r.disconnect()),
    async switchNetwork(network) {
      await call((r) => r.bip122SwitchNetwork(network.caipNetworkId))
      rememberBitcoin(await call((r) => r.bip122GetAccounts()))
    },
    signMessage: (message, address) => call((r) => r.bip122SignMessage({ message, address }), { timeoutMs: WALLET_ANSWER_TIMEOUT_MS }),
    bitcoinAccounts: () => bitcoinAccounts,
    signPsbt: ({ psbtBase64, address, signingIndexes, caipNetworkId }) => call((r) => r.bip122SignPsbt({ psbtBase64, address, signingIndexes, caipNetworkId }), { timeoutMs: WALLET_ANSWER_TIMEOUT_MS }),
    watch(handlers) {
      const own = { onAccountsChanged: handlers.onAccountsChanged, onDisconnect: handlers.onDisconnect }
      bip122Watchers.add(own)
      return () => void bip122Watchers.delete(own)
    },
  }

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
      const uri = await call((r) => r.pair(getPreferredChainId(), getPreferredSolanaCaipNetworkId(), getPreferredBip122CaipNetworkId()))
      const approval = call((r) => r.approval(uri), { timeoutMs: WALLET_ANSWER_TIMEOUT_MS }).then((approved) => {
        if (approved.bip122) rememberBitcoin(approved.bip122.accounts)
        return approved
      })
      return { uri, approval }
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
      solanaWatchers.clear()
      bip122Watchers.clear()
      client.destroy()
    },
    /** The same session's `solana` namespace, a connector of its own for the connection layer. */
    solana,
    /** The same session's `bip122` namespace, a connector of its own for the connection layer. */
    bip122,
  }
  return connector satisfies Connector
}

export type WalletConnectConnector = ReturnType<typeof createWalletConnectConnector>
