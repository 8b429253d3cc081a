import { bitcoinNetworks, decodeBitcoinAddress } from '../../../shared/families/bip122/address'
import type { CaipNetworkId } from '../../../shared/protocol/caip'
import { createWidgetError } from '../../../shared/protocol/errors'
import { sameAccounts, type BitcoinAccount, type BitcoinConnector } from './wallets/bitcoinConnector'
import { discoverBitcoinWallets } from './wallets/discoverBitcoinWallets'
import type { WalletConnectConnector } from '../../connectors/createWalletConnectConnector'
import { WALLET_CONNECT_ID } from '../../connectors/walletConnectId'
import type { WidgetNetwork } from '../../widget/config'
import type { NamespaceAdapter, NamespaceConnector } from '../types'
import { bitcoinNetworkOf, type Bip122NamespaceConnector } from './connector'
import { retryingImport } from '../../lazy/retryingImport'

// The send form's and the sign-in message's code load on first use (a failed load is asked for anew).
const sendCode = retryingImport(() => import('./send'), 'createSendController')
const signInMessageCode = retryingImport(() => import('./signInMessage'), 'createSignInMessage')

export { bitcoinNetworkOf, isBip122Connector, type Bip122NamespaceConnector, type SignPsbtRequest } from './connector'

/**
 * A Bitcoin wallet's network is its addresses' one: the network a payment address belongs to, the `preferred` one when
 * it fits (testnet and signet addresses look alike), else a configured one it fits, else the address's own (which the
 * widget then shows as a network it did not request).
 */
export function caipNetworkOfAddress(address: string | undefined, networks: readonly WidgetNetwork[], preferred?: string): CaipNetworkId {
  const fits = decodeBitcoinAddress(address ?? '')?.networks ?? []
  if (preferred && fits.includes(bitcoinNetworkOf(preferred))) return preferred as CaipNetworkId
  const configured = networks.find((n) => fits.includes(bitcoinNetworkOf(n.caipNetworkId)))
  if (configured) return configured.caipNetworkId as CaipNetworkId
  return (fits[0] ? bitcoinNetworks[fits[0]].caipNetworkId : (preferred ?? networks[0]?.caipNetworkId ?? bitcoinNetworks.mainnet.caipNetworkId)) as CaipNetworkId
}

const addressesOf = (accounts: readonly BitcoinAccount[]) => accounts.map((a) => a.address)

/**
 * A Bitcoin connector (Wallet Standard, sats-connect or Unisat-style) as the connection layer drives it: the network
 * follows the wallet's addresses, a switch asks the wallet where it can move (sats-connect, Unisat) and is refused where
 * its addresses cannot serve the network.
 */
export function toBip122NamespaceConnector(connector: BitcoinConnector, networks: readonly WidgetNetwork[]): Bip122NamespaceConnector & { wallet: BitcoinConnector } {
  let accounts: BitcoinAccount[] = []
  let activeCaipNetworkId: CaipNetworkId | undefined
  // Accounts a switch brought, told to the watchers once the switch has returned (so the new network is in place first).
  const watchers = new Set<(next: BitcoinAccount[]) => void>()
  const remember = (next: BitcoinAccount[], preferred?: string) => {
    accounts = next
    activeCaipNetworkId = caipNetworkOfAddress(next[0]?.address, networks, preferred ?? activeCaipNetworkId)
    return activeCaipNetworkId
  }
  const fitsNetwork = (list: readonly BitcoinAccount[], network: WidgetNetwork) => decodeBitcoinAddress(list[0]?.address ?? '')?.networks.includes(bitcoinNetworkOf(network.caipNetworkId)) ?? false
  const notOffered = (network: WidgetNetwork) => createWidgetError('CHAIN_NOT_SUPPORTED', { details: `${connector.name} does not offer ${network.name} (${network.caipNetworkId})` })

  return {
    id: connector.id,
    name: connector.name,
    type: connector.type,
    namespace: 'bip122',
    imageUrl: connector.imageUrl,
    info: { rdns: connector.id },
    wallet: connector,
    async connect(network) {
      let next = await connector.connect(bitcoinNetworkOf(network.caipNetworkId))
      // A wallet on another network is asked to move where it can; one that cannot shows as on its own network.
      if (!fitsNetwork(next, network) && connector.switchNetwork) {
        const moved = await connector
          .switchNetwork(bitcoinNetworkOf(network.caipNetworkId))
          .then(() => connector.getAccounts())
          .catch(() => [])
        if (moved.length > 0) next = moved
      }
      return { accounts: addressesOf(next), caipNetworkId: remember(next, network.caipNetworkId) }
    },
    isAuthorized: () => connector.isAuthorized(),
    async getAccounts() {
      const next = await connector.getAccounts()
      remember(next)
      return addressesOf(next)
    },
    async getCaipNetworkId(fallback) {
      if (accounts.length === 0) accounts = await connector.getAccounts()
      return remember(accounts, fallback)
    },
    disconnect: () => connector.disconnect(),
    async switchNetwork(network) {
      const current = await connector.getAccounts()
      if (fitsNetwork(current, network)) {
        remember(current, network.caipNetworkId)
        return
      }
      if (!connector.switchNetwork) throw notOffered(network)
      await connector.switchNetwork(bitcoinNetworkOf(network.caipNetworkId))
      const moved = await connector.getAccounts()
      if (!fitsNetwork(moved, network)) throw notOffered(network)
      remember(moved, network.caipNetworkId)
      setTimeout(() => {
        for (const watcher of watchers) watcher(moved)
      }, 0)
    },
    signMessage: (message, address) => connector.signMessage(message, address),
    bitcoinAccounts: () => accounts,
    signPsbt: ({ psbtBase64, address, signingIndexes, caipNetworkId }) => connector.signPsbt({ psbtBase64, address, signingIndexes, network: bitcoinNetworkOf(caipNetworkId) }),
    watch({ onAccountsChanged, onNetworkChanged, onDisconnect }) {
      let last = accounts
      const report = (next: BitcoinAccount[]) => {
        if (sameAccounts(next, last)) return
        last = next
        const before = activeCaipNetworkId
        const caipNetworkId = remember(next)
        if (caipNetworkId !== before) onNetworkChanged?.(caipNetworkId)
        onAccountsChanged?.(addressesOf(next))
      }
      watchers.add(report)
      const stop = connector.watch({
        onAccountsChanged: report,
        onDisconnect: () => {
          last = []
          accounts = []
          onDisconnect?.()
        },
      })
      return () => {
        watchers.delete(report)
        stop()
      }
    },
  }
}

/**
 * Bitcoin (SPEC §1, bip122): wallets by the Bitcoin Wallet Standard, sats-connect (`window.btc_providers`),
 * Unisat-style injection and WalletConnect's bip122 namespace; BTC balances (confirmed and pending, in sats) read by the core from an Esplora API.
 */
export const bip122Adapter: NamespaceAdapter = {
  namespace: 'bip122',
  discover(target, networks) {
    const discovery = discoverBitcoinWallets({ target })
    const wrapped = new WeakMap<BitcoinConnector, NamespaceConnector>()
    const getConnectors = () =>
      discovery.getConnectors().map((connector) => {
        if (!wrapped.has(connector)) wrapped.set(connector, toBip122NamespaceConnector(connector, networks))
        return wrapped.get(connector)!
      })
    return { getConnectors, subscribe: (listener) => discovery.subscribe(() => listener()), stop: () => discovery.stop() }
  },
  /** The session's `bip122` side, loaded with WalletConnect's code on first use. */
  walletConnect(load: () => Promise<WalletConnectConnector>): Bip122NamespaceConnector {
    // Loaded by the time anything reads the accounts synchronously: the session was made or reconnected through it.
    let loaded: WalletConnectConnector | undefined
    const bitcoin = async () => (loaded = await load()).bip122
    return {
      id: WALLET_CONNECT_ID,
      name: 'WalletConnect',
      type: 'WALLET_CONNECT',
      namespace: 'bip122',
      imageUrl: undefined,
      info: { rdns: '' },
      connect: async (network) => (await bitcoin()).connect(network),
      isAuthorized: async () => (await bitcoin()).isAuthorized(),
      getAccounts: async () => (await bitcoin()).getAccounts(),
      getCaipNetworkId: async (fallback) => (await bitcoin()).getCaipNetworkId(fallback),
      disconnect: async () => (await bitcoin()).disconnect(),
      switchNetwork: async (network) => (await bitcoin()).switchNetwork(network),
      signMessage: async (message, address) => (await bitcoin()).signMessage(message, address),
      bitcoinAccounts: () => loaded?.bip122.bitcoinAccounts() ?? [],
      signPsbt: async (request) => (await bitcoin()).signPsbt(request),
      watch(events) {
        let stop: (() => void) | undefined
        let isStopped = false
        // WalletConnect's code failing to load leaves nothing to watch: the session calls say so themselves.
        bitcoin().then(
          (connector) => {
            if (!isStopped) stop = connector.watch(events)
          },
          () => {},
        )
        return () => {
          isStopped = true
          stop?.()
        }
      },
    }
  },
  loadSend: () => sendCode().then((m) => m.createSendController),
  loadSignInMessage: () => signInMessageCode().then((m) => m.createSignInMessage),
}
