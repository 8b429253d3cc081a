import { base58 } from '@scure/base'
import type { CaipNetworkId } from '../../../shared/protocol/caip'
import { createWidgetError } from '../../../shared/protocol/errors'
import { solanaCaipNetworkIds, type WalletStandardConnector } from './wallets/createWalletStandardConnector'
import { discoverWalletStandard } from './wallets/discoverWalletStandard'
import type { WalletConnectConnector } from '../../connectors/createWalletConnectConnector'
import { WALLET_CONNECT_ID } from '../../connectors/walletConnectId'
import type { WidgetNetwork } from '../../widget/config'
import type { NamespaceAdapter, NamespaceConnector } from '../types'
import { retryingImport } from '../../lazy/retryingImport'

// The send form's and the sign-in message's code load on first use (a failed load is asked for anew).
const sendCode = retryingImport(() => import('./send'), 'createSendController')
const signInMessageCode = retryingImport(() => import('./signInMessage'), 'createSignInMessage')

const publicClusters = new Set<string>(Object.values(solanaCaipNetworkIds))

/**
 * A Wallet Standard wallet as the connection layer drives it. Solana wallets have no "current network": the widget
 * chooses one of the wallet's chains, and a switch is allowed when the wallet lists the network.
 */
export function toSolanaNamespaceConnector(connector: WalletStandardConnector): NamespaceConnector & { wallet: WalletStandardConnector } {
  const requireChain = (network: WidgetNetwork) => {
    const chains = connector.chains
    if (chains.length > 0 && !chains.includes(network.caipNetworkId as CaipNetworkId)) {
      throw createWidgetError('CHAIN_NOT_SUPPORTED', { details: `${connector.name} does not offer ${network.name} (${network.caipNetworkId})` })
    }
  }
  return {
    id: connector.id,
    name: connector.name,
    type: connector.type,
    namespace: 'solana',
    imageUrl: connector.imageUrl,
    info: { rdns: connector.id },
    wallet: connector,
    async connect(network) {
      requireChain(network)
      const { accounts } = await connector.connect()
      return { accounts, caipNetworkId: network.caipNetworkId as CaipNetworkId }
    },
    isAuthorized: () => connector.isAuthorized(),
    getAccounts: () => connector.getAccounts(),
    getCaipNetworkId: async (fallback) => fallback,
    disconnect: () => connector.disconnect(),
    switchNetwork: async (network) => requireChain(network),
    signMessage: async (message, address) => base58.encode(await connector.signMessage(new TextEncoder().encode(message), address)),
    signTransaction: (transaction, address, caipNetworkId) => connector.signTransaction(transaction, address, caipNetworkId),
    watch: ({ onAccountsChanged, onDisconnect }) => connector.watch({ onAccountsChanged, onDisconnect }),
  }
}

/**
 * Solana (SPEC §1): wallets by the Wallet Standard, SOL balances read by the core. A configured cluster that is not
 * mainnet, devnet or testnet is taken for the wallets' `solana:localnet`.
 */
export const solanaAdapter: NamespaceAdapter = {
  namespace: 'solana',
  discover(_target, networks) {
    const localnetCaipNetworkId = networks.find((n) => !publicClusters.has(n.caipNetworkId))?.caipNetworkId as CaipNetworkId | undefined
    const discovery = discoverWalletStandard({ localnetCaipNetworkId })
    const wrapped = new WeakMap<WalletStandardConnector, NamespaceConnector>()
    const getConnectors = () =>
      discovery.getConnectors().map((connector) => {
        if (!wrapped.has(connector)) wrapped.set(connector, toSolanaNamespaceConnector(connector))
        return wrapped.get(connector)!
      })
    return { getConnectors, subscribe: (listener) => discovery.subscribe(() => listener()), stop: () => discovery.stop() }
  },
  /** The session's `solana` side, loaded with WalletConnect's code on first use. */
  walletConnect: (load: () => Promise<WalletConnectConnector>) => ({
    id: WALLET_CONNECT_ID,
    name: 'WalletConnect',
    type: 'WALLET_CONNECT',
    namespace: 'solana',
    imageUrl: undefined,
    info: { rdns: '' },
    connect: async (network) => (await load()).solana.connect(network),
    isAuthorized: async () => (await load()).solana.isAuthorized(),
    getAccounts: async () => (await load()).solana.getAccounts(),
    getCaipNetworkId: async (fallback) => (await load()).solana.getCaipNetworkId(fallback),
    disconnect: async () => (await load()).solana.disconnect(),
    switchNetwork: async (network) => (await load()).solana.switchNetwork(network),
    signMessage: async (message, address) => (await load()).solana.signMessage(message, address),
    signTransaction: async (transaction, address, caipNetworkId) => (await load()).solana.signTransaction(transaction, address, caipNetworkId),
    watch(events) {
      let stop: (() => void) | undefined
      let isStopped = false
      void load().then((loaded) => {
        if (!isStopped) stop = loaded.solana.watch(events)
      })
      return () => {
        isStopped = true
        stop?.()
      }
    },
  }),
  loadSend: () => sendCode().then((m) => m.createSendController),
  loadSignInMessage: () => signInMessageCode().then((m) => m.createSignInMessage),
}
