import { base58 } from '@scure/base'
import { proxy, transferHandlers } from 'comlink'
import type { Address } from 'viem'
import { parseCaipNetworkId, type ChainNamespace } from '../../shared/protocol/caip'
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
  /** The network a family acts on when the wallet approves several: the widget's active one (CAIP-2). */
  getPreferredCaipNetworkId?: (namespace: ChainNamespace) => string | undefined
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
export function createWalletConnectConnector({ createWorker = startWorker, getPreferredCaipNetworkId = () => undefined, ...parameters }: WalletConnectConnectorParameters) {
  installErrorTransferHandler(transferHandlers)
  const watchers = new Set<ConnectorEvents>()
  /** The watchers of each family's namespace connector (solana, bip122). */
  const namespaceWatchers = new Map<ChainNamespace, Set<NamespaceConnectorEvents>>()
  /** The session's Bitcoin addresses as last read (payment first), with their purposes. */
  let bitcoinAccounts: BitcoinAccount[] = []
  const rememberBitcoin = (addresses: string[]) => {
    bitcoinAccounts = toBitcoinAccounts(addresses.map((address) => ({ address })))
    return addresses
  }
  const onEvent = (event: SessionEvent) => {
    if (event.type === 'disconnect') {
      bitcoinAccounts = []
      for (const watcher of [...watchers, ...[...namespaceWatchers.values()].flatMap((own) => [...own])]) watcher.onDisconnect?.()
    } else if (event.namespace === 'eip155') {
      for (const watcher of watchers) {
        if (event.type === 'accountsChanged') watcher.onAccountsChanged?.(event.accounts as Address[])
        else watcher.onChainChanged?.(Number(parseCaipNetworkId(event.caipNetworkId)?.reference))
      }
    } else if (event.type === 'accountsChanged') {
      if (event.namespace === 'bip122') rememberBitcoin(event.accounts)
      // No account left is that family's disconnect; the other families of the session go on.
      for (const watcher of namespaceWatchers.get(event.namespace) ?? []) {
        if (event.accounts.length > 0) watcher.onAccountsChanged?.(event.accounts)
        else watcher.onDisconnect?.()
      }
    }
  }
  // Started at the first call; a worker that dies is replaced and configured again (the session is in its storage).
  const client = createWorkerClient<WalletConnectWorkerApi>({ createWorker, setUp: (remote) => ({ ready: Promise.resolve(remote.configure(parameters, proxy(onEvent))) }) })
  const { call } = client
  const preferredNetworks = () => Object.fromEntries(Object.keys(parameters.networks).map((namespace) => [namespace, getPreferredCaipNetworkId(namespace as ChainNamespace)]))

  const request = <T = unknown,>(args: { method: string; params?: unknown }) => call((r) => r.request(args), { timeoutMs: WALLET_ANSWER_TIMEOUT_MS }) as Promise<T>

  /**
   * The same session's namespace of a family, as the connection layer drives a wallet of it. It connects through the
   * QR view (`pair`, whose approval carries the family); its networks are the ones the wallet approved.
   */
  const namespaceConnector = <N extends ChainNamespace>(namespace: N) => {
    const own = new Set<NamespaceConnectorEvents>()
    namespaceWatchers.set(namespace, own)
    return {
      id: WALLET_CONNECT_ID,
      name: 'WalletConnect',
      type: 'WALLET_CONNECT' as const,
      namespace,
      imageUrl: undefined,
      info: { rdns: '' },
      connect: async (): Promise<never> => {
        throw createWidgetError('UNSUPPORTED_METHOD', { details: 'WalletConnect connects through its QR code view (pair)' })
      },
      isAuthorized: () => call((r) => r.isAuthorized(namespace, getPreferredCaipNetworkId(namespace))),
      getAccounts: () => call((r) => r.getAccounts(namespace)),
      getCaipNetworkId: (fallback?: string) => call((r) => r.getCaipNetworkId(namespace, fallback)),
      disconnect: () => call((r) => r.disconnect()),
      switchNetwork: (network: { caipNetworkId: string }) => call((r) => r.switchNetwork(namespace, network.caipNetworkId)),
      watch(handlers: NamespaceConnectorEvents) {
        const events = { onAccountsChanged: handlers.onAccountsChanged, onDisconnect: handlers.onDisconnect }
        own.add(events)
        return () => void own.delete(events)
      },
    }
  }

  /**
   * The connection layer's Solana wallet on this session: it signs messages and transactions.
   * @example const signature = await connector.solana.signMessage('hello', address) // base58
   */
  const solana: WalletConnectSolanaConnector = {
    ...namespaceConnector('solana'),
    signMessage: async (message, address) =>
      base58.encode(await call((r) => r.solanaSignMessage({ message: new TextEncoder().encode(message), address }), { timeoutMs: WALLET_ANSWER_TIMEOUT_MS })),
    signTransaction: (transaction, address, caipNetworkId) => call((r) => r.solanaSignTransaction({ transaction, address, caipNetworkId }), { timeoutMs: WALLET_ANSWER_TIMEOUT_MS }),
  }

  /**
   * The connection layer's Bitcoin wallet on this session: its addresses are those the session gives on the network,
   * payment first. Messages are signed with BIP-322 (base64), PSBTs are signed, never broadcast.
   * @example const signature = await connector.bip122.signMessage('hello', address) // BIP-322, base64
   */
  const bip122: WalletConnectBip122Connector = {
    ...namespaceConnector('bip122'),
    getAccounts: async () => rememberBitcoin(await call((r) => r.getAccounts('bip122'))),
    async switchNetwork(network) {
      await call((r) => r.switchNetwork('bip122', network.caipNetworkId))
      rememberBitcoin(await call((r) => r.getAccounts('bip122')))
    },
    signMessage: (message, address) => call((r) => r.bip122SignMessage({ message, address }), { timeoutMs: WALLET_ANSWER_TIMEOUT_MS }),
    bitcoinAccounts: () => bitcoinAccounts,
    signPsbt: ({ psbtBase64, address, signingIndexes, caipNetworkId }) => call((r) => r.bip122SignPsbt({ psbtBase64, address, signingIndexes, caipNetworkId }), { timeoutMs: WALLET_ANSWER_TIMEOUT_MS }),
  }

  const connector = {
    id: WALLET_CONNECT_ID,
    name: 'WalletConnect',
    type: 'WALLET_CONNECT' as const,
    chain: 'eip155' as const,
    imageUrl: undefined,
    info: { rdns: '' },
    request,
    /** A method the session does not list is refused by the session itself, the wallet never asked. */
    refusesMethod: async (method: string) => !(await call((r) => r.approvedMethods('eip155'))).includes(method),
    getAccounts: () => call((r) => r.getAccounts('eip155')) as Promise<Address[]>,
    getChainId: async () => Number(parseCaipNetworkId(await call((r) => r.getCaipNetworkId('eip155')))?.reference),
    isAuthorized: () => call((r) => r.isAuthorized('eip155', getPreferredCaipNetworkId('eip155'))),
    /** Proposes a session: the URI goes into the QR code or a deep link, the approval settles when the wallet answers. */
    async pair(): Promise<Pairing> {
      const uri = await call((r) => r.pair(preferredNetworks()))
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
      for (const own of namespaceWatchers.values()) own.clear()
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
