import { decodeSs58, encodeSs58 } from '../../../shared/families/polkadot/address'
import type { CaipNetworkId } from '../../../shared/protocol/caip'
import { createWidgetError } from '../../../shared/protocol/errors'
import type { PolkadotConnector } from './wallets/createInjectedWeb3Connector'
import { discoverPolkadotWallets } from './wallets/discoverPolkadotWallets'
import type { InjectedAccount } from './wallets/injectedWeb3'
import type { PolkadotWidgetNetwork, WidgetNetwork } from '../../widget/config'
import type { NamespaceAdapter, NamespaceConnector } from '../types'
import { ss58PrefixOf, type PolkadotNamespaceConnector } from './connector'
import { retryingImport } from '../../lazy/retryingImport'

// The send form's and the sign-in message's code load on first use (a failed load is asked for anew).
const sendCode = retryingImport(() => import('./send'), 'createSendController')
const signInMessageCode = retryingImport(() => import('./signInMessage'), 'createSignInMessage')

export { isPolkadotConnector, ss58PrefixOf, type PolkadotNamespaceConnector } from './connector'

type Hex = `0x${string}`

const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')

/**
 * An extension's accounts as addresses of `network`:
 * 1. an account tied to another chain (its genesisHash's first 32 hex characters are not the network's reference) is left out;
 * 2. each is written in the network's SS58 format (extensions often give the generic one);
 * 3. the same key listed twice is kept once, in the extension's order.
 * @example toNetworkAddresses([{ address: '5Grw…utQY' }], polkadotNetwork) // ['15oF4…Sp5']
 */
export function toNetworkAddresses(accounts: readonly InjectedAccount[], network: Pick<WidgetNetwork, 'caipNetworkId'> & { ss58Prefix?: number }): string[] {
  const reference = network.caipNetworkId.slice('polkadot:'.length)
  const prefix = ss58PrefixOf(network)
  const addresses = accounts.flatMap(({ address, genesisHash }) => {
    if (genesisHash && genesisHash.slice(2, 34).toLowerCase() !== reference) return []
    const decoded = decodeSs58(address)
    return decoded ? [encodeSs58(decoded.publicKey, prefix)] : []
  })
  return [...new Set(addresses)]
}

/** Whether two addresses are the same key, whatever their SS58 formats. */
export const isSameAccount = (a: string, b: string) => {
  const [x, y] = [decodeSs58(a), decodeSs58(b)]
  return x !== undefined && y !== undefined && toHex(x.publicKey) === toHex(y.publicKey)
}

/** The configured network of `caipNetworkId`, or one with just its id (its format then the known one or generic). */
const networkOf = (networks: readonly WidgetNetwork[], caipNetworkId: string): PolkadotWidgetNetwork =>
  (networks.find((n) => n.caipNetworkId === caipNetworkId) ?? { caipNetworkId }) as PolkadotWidgetNetwork

/**
 * A Polkadot extension as the connection layer drives it. Extensions have no current network: the widget chooses one
 * of its Polkadot networks, and the accounts are shown in that network's SS58 format (a switch rewrites them).
 */
export function toPolkadotNamespaceConnector(connector: PolkadotConnector, networks: readonly WidgetNetwork[]): PolkadotNamespaceConnector & { wallet: PolkadotConnector } {
  let network: PolkadotWidgetNetwork = networkOf(networks, networks[0]?.caipNetworkId ?? 'polkadot:91b171bb158e2d3848fa23a9f1c25182')
  let addresses: string[] = []
  // Addresses a switch rewrote, told to the watchers once the switch has returned (so the new network is in place first).
  const watchers = new Set<(next: string[]) => void>()
  const remember = (accounts: readonly InjectedAccount[]) => (addresses = toNetworkAddresses(accounts, network))
  const noAccount = () => createWidgetError('UNAUTHORIZED', { details: `${connector.name} gave no account for ${network.name ?? network.caipNetworkId}` })
  /** The address as the extension knows it (it may list it in another format): one of this site's accounts or UNAUTHORIZED. */
  const ownAddress = (address: string) => {
    if (!addresses.some((a) => isSameAccount(a, address))) throw createWidgetError('UNAUTHORIZED', { details: `${address} is not one of ${connector.name}'s accounts for this site` })
    return address
  }

  return {
    id: connector.id,
    name: connector.name,
    type: connector.type,
    namespace: 'polkadot',
    imageUrl: connector.imageUrl,
    info: { rdns: connector.id },
    wallet: connector,
    async connect(next) {
      network = next as PolkadotWidgetNetwork
      const accounts = remember(await connector.connect())
      if (accounts.length === 0) throw noAccount()
      return { accounts, caipNetworkId: network.caipNetworkId as CaipNetworkId }
    },
    isAuthorized: () => connector.isAuthorized(),
    async getAccounts() {
      return remember(await connector.getAccounts())
    },
    async getCaipNetworkId(fallback) {
      network = networkOf(networks, fallback)
      return fallback
    },
    disconnect: () => connector.disconnect(),
    async switchNetwork(next) {
      network = next as PolkadotWidgetNetwork
      const moved = remember(await connector.getAccounts())
      if (moved.length === 0) throw createWidgetError('CHAIN_NOT_SUPPORTED', { details: `${connector.name} has no account for ${next.name} (${next.caipNetworkId})` })
      setTimeout(() => {
        for (const watcher of watchers) watcher(moved)
      }, 0)
    },
    /** A sign-in message signed with signRaw (`bytes`: the extension signs it wrapped in <Bytes>…</Bytes>). */
    async signMessage(message, address) {
      if (typeof message !== 'string') throw createWidgetError('INVALID_PARAMS', { details: 'The message must be text' })
      const data = `0x${toHex(new TextEncoder().encode(message))}` as Hex
      return connector.signRaw({ address: ownAddress(address), data, type: 'bytes' })
    },
    async signTransfer({ payload, raw }) {
      ownAddress(payload.address)
      return connector.canSignPayload() ? connector.signPayload(payload) : connector.signRaw(raw)
    },
    watch({ onAccountsChanged, onDisconnect }) {
      let last = addresses
      const report = (next: string[]) => {
        if (next.length === last.length && next.every((a, i) => a === last[i])) return
        last = next
        if (next.length > 0) onAccountsChanged?.(next)
        else onDisconnect?.()
      }
      watchers.add(report)
      const stop = connector.watch({
        onAccountsChanged: (accounts) => report(remember(accounts)),
        onDisconnect: () => {
          addresses = []
          report([])
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
 * Polkadot (SPEC §1): extensions found in `window.injectedWeb3` (polkadot{.js}, Talisman, SubWallet, …); balances,
 * fees and transfers through the core, whose worker alone loads the Polkadot client (dedot). The page has no @polkadot/* code.
 */
export const polkadotAdapter: NamespaceAdapter = {
  namespace: 'polkadot',
  discover(target, networks, { appName } = {}) {
    const name = appName ?? (target?.document?.title || target?.location?.host || 'dApp')
    const discovery = discoverPolkadotWallets({ target, appName: name })
    const wrapped = new WeakMap<PolkadotConnector, NamespaceConnector>()
    const getConnectors = () =>
      discovery.getConnectors().map((connector) => {
        if (!wrapped.has(connector)) wrapped.set(connector, toPolkadotNamespaceConnector(connector, networks))
        return wrapped.get(connector)!
      })
    return { getConnectors, subscribe: (listener) => discovery.subscribe(() => listener()), stop: () => discovery.stop() }
  },
  loadSend: () => sendCode().then((m) => m.createSendController),
  loadSignInMessage: () => signInMessageCode().then((m) => m.createSignInMessage),
  /** The free balance (what wallets show as the balance); the reserved part is read with it and shown beside it. */
}
