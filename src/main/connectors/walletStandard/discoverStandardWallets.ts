import type { Wallets } from '@wallet-standard/app'
import type { Wallet } from '@wallet-standard/base'
import type { StandardEventsChangeProperties } from '@wallet-standard/features'

export type DiscoverStandardWalletsParameters<Connector> = {
  /** The Wallet Standard registry. */
  wallets: Pick<Wallets, 'get' | 'on'>
  /** Whether a registered wallet belongs to this family (it must never throw). */
  isFamilyWallet: (wallet: Wallet) => boolean
  /** Makes the connector of a family wallet; it is kept for as long as the wallet stays registered. */
  createConnector: (wallet: Wallet) => Connector
  /** What makes two connectors the same wallet: the first one listed keeps it. */
  keyOf: (connector: Connector) => string
  /** Connectors found other ways, listed after the registry's (looked for again on every refresh). */
  findOthers?: () => Connector[]
}

type ChangeEvents = { on?: (event: 'change', listener: (properties: StandardEventsChangeProperties) => void) => unknown }

/**
 * Follows a Wallet Standard registry and keeps one connector per wallet of a family: wallets registered before or after
 * this call, and ones that start offering the family later, are added; ones that unregister or stop offering it are
 * dropped. Subscribers hear of every change of the list, and of every change of a wallet's chains or features.
 * @example
 * const discovery = discoverStandardWallets({ wallets: getWallets(), isFamilyWallet: isSolanaWallet, createConnector: (wallet) => createWalletStandardConnector({ wallet }), keyOf: (connector) => connector.id })
 * discovery.subscribe((connectors) => render(connectors))
 */
export function discoverStandardWallets<Connector>({ wallets, isFamilyWallet, createConnector, keyOf, findOthers = () => [] }: DiscoverStandardWalletsParameters<Connector>) {
  const connectors = new Map<Wallet, Connector>()
  // Every registered wallet is watched for chain and feature changes: one may start (or stop) offering the family.
  const watched = new Map<Wallet, () => void>()
  const listeners = new Set<(connectors: Connector[]) => void>()
  let snapshot: Connector[] = []
  let isStopped = false

  const watchChanges = (wallet: Wallet) => {
    let off = () => {}
    try {
      const events = (wallet.features as Record<string, ChangeEvents | undefined>)['standard:events']
      const result = events?.on?.('change', (properties) => {
        if (typeof properties === 'object' && properties !== null && ('chains' in properties || 'features' in properties)) refresh(true)
      })
      if (typeof result === 'function') off = result as () => void
    } catch {
      // a wallet whose events fail is still listed by what it registered with
    }
    watched.set(wallet, off)
  }

  const compute = (): Connector[] => {
    const registered = wallets.get()
    for (const [wallet, off] of watched) {
      if (registered.includes(wallet)) continue
      off()
      watched.delete(wallet)
      connectors.delete(wallet)
    }
    const found: Connector[] = []
    for (const wallet of registered) {
      if (!watched.has(wallet)) watchChanges(wallet)
      if (!isFamilyWallet(wallet)) continue
      if (!connectors.has(wallet)) connectors.set(wallet, createConnector(wallet))
      found.push(connectors.get(wallet)!)
    }
    found.push(...findOthers())
    const byKey = new Map<string, Connector>()
    for (const connector of found) if (!byKey.has(keyOf(connector))) byKey.set(keyOf(connector), connector)
    return [...byKey.values()]
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
    /** The connectors now; the same array until something changes. */
    getConnectors: () => snapshot,
    /** Looks again (for connectors found other ways: the registry announces its own changes). */
    refresh: () => refresh(),
    subscribe(listener: (connectors: Connector[]) => void) {
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
