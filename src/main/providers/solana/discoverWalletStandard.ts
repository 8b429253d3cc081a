import { getWallets, type Wallets } from '@wallet-standard/app'
import type { Wallet } from '@wallet-standard/base'
import type { StandardEventsChangeProperties } from '@wallet-standard/features'
import type { CaipNetworkId } from '../../../shared/protocol/caip'
import { createWalletStandardConnector, type WalletStandardConnector } from './createWalletStandardConnector'

export type DiscoverWalletStandardParameters = {
  /** The Wallet Standard registry; by default @wallet-standard/app's `getWallets()`, which tells waiting wallets the app is ready. */
  wallets?: Pick<Wallets, 'get' | 'on'>
  /** The CAIP-2 id the site gives the local network, for wallets that list 'solana:localnet'. */
  localnetCaipNetworkId?: CaipNetworkId
}

type FeatureMethods = Record<string, Record<string, unknown> | undefined>

/**
 * Whether a registered wallet can be a Solana connector: a `solana:*` chain, standard:connect and standard:events,
 * and solana:signMessage or solana:signTransaction. Never throws, whatever a page script registered.
 */
export function isSolanaWallet(wallet: unknown): wallet is Wallet {
  try {
    const { name, chains, features } = wallet as Partial<Wallet>
    if (typeof name !== 'string' || name.length === 0 || !Array.isArray(chains) || typeof features !== 'object' || features === null) return false
    const methods = features as FeatureMethods
    return (
      chains.some((chain) => typeof chain === 'string' && chain.startsWith('solana:')) &&
      typeof methods['standard:connect']?.connect === 'function' &&
      typeof methods['standard:events']?.on === 'function' &&
      (typeof methods['solana:signMessage']?.signMessage === 'function' || typeof methods['solana:signTransaction']?.signTransaction === 'function')
    )
  } catch {
    return false
  }
}

/**
 * Finds Wallet Standard wallets that support Solana, registered before or after this call, and drops the ones
 * that unregister or stop offering Solana. One connector per wallet, whatever other families it also offers
 * (see `connector.namespaces`); when two wallets share a name the first registered keeps it.
 * @example const discovery = discoverWalletStandard(); discovery.subscribe((connectors) => render(connectors))
 */
export function discoverWalletStandard({ wallets = getWallets(), localnetCaipNetworkId }: DiscoverWalletStandardParameters = {}) {
  const connectors = new Map<Wallet, WalletStandardConnector>()
  // Every registered wallet is watched for chain and feature changes: one may start (or stop) offering Solana.
  const watched = new Map<Wallet, () => void>()
  const listeners = new Set<(connectors: WalletStandardConnector[]) => void>()
  let snapshot: WalletStandardConnector[] = []
  let isStopped = false

  const watchChanges = (wallet: Wallet) => {
    let off = () => {}
    try {
      const events = (wallet.features as FeatureMethods)['standard:events'] as { on?: (event: 'change', listener: (properties: StandardEventsChangeProperties) => void) => unknown } | undefined
      const result = events?.on?.('change', (properties) => {
        if (typeof properties === 'object' && properties !== null && ('chains' in properties || 'features' in properties)) refresh(true)
      })
      if (typeof result === 'function') off = result as () => void
    } catch {
      // a wallet whose events fail is still listed by what it registered with
    }
    watched.set(wallet, off)
  }

  const compute = (): WalletStandardConnector[] => {
    const registered = wallets.get()
    for (const [wallet, off] of watched) {
      if (registered.includes(wallet)) continue
      off()
      watched.delete(wallet)
      connectors.delete(wallet)
    }
    const byId = new Map<string, WalletStandardConnector>()
    for (const wallet of registered) {
      if (!watched.has(wallet)) watchChanges(wallet)
      if (!isSolanaWallet(wallet)) continue
      let connector = connectors.get(wallet)
      if (!connector) {
        connector = createWalletStandardConnector({ wallet, localnetCaipNetworkId })
        connectors.set(wallet, connector)
      }
      if (!byId.has(connector.id)) byId.set(connector.id, connector)
    }
    return [...byId.values()]
  }

  /** Recomputes the list; tells subscribers when it changed, or always when a wallet changed its chains or features. */
  function refresh(isWalletChange = false) {
    if (isStopped) return
    const next = compute()
    if (!isWalletChange && next.length === snapshot.length && next.every((connector, i) => connector === snapshot[i])) return
    snapshot = next
    for (const listener of listeners) listener(snapshot)
  }

  const offRegister = wallets.on('register', () => refresh())
  const offUnregister = wallets.on('unregister', () => refresh())
  snapshot = compute()

  return {
    /** The Solana connectors now; the same array until something changes. */
    getConnectors: () => snapshot,
    subscribe(listener: (connectors: WalletStandardConnector[]) => void) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    stop() {
      isStopped = true
      offRegister()
      offUnregister()
      for (const off of watched.values()) off()
      watched.clear()
      listeners.clear()
    },
  }
}

export type WalletStandardDiscovery = ReturnType<typeof discoverWalletStandard>
