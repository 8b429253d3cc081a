import { getWallets, type Wallets } from '@wallet-standard/app'
import type { Wallet } from '@wallet-standard/base'
import type { StandardEventsChangeProperties } from '@wallet-standard/features'
import type { BitcoinConnector } from './bitcoinConnector'
import { createSatsConnectConnector, type SatsConnectProvider, type SatsConnectProviderInfo } from './createSatsConnectConnector'
import { createUnisatConnector, isUnisatProvider } from './createUnisatConnector'
import { createWalletStandardBitcoinConnector, isBitcoinWallet } from './createWalletStandardBitcoinConnector'

export type DiscoverBitcoinWalletsParameters = {
  /** The Wallet Standard registry; by default @wallet-standard/app's `getWallets()`. */
  wallets?: Pick<Wallets, 'get' | 'on'>
  /** Where sats-connect providers (`btc_providers`) and Unisat-style objects (`unisat`) are found; none without a window. */
  target?: Window | undefined
}

/** More `btc_providers` entries than this are not read. */
const MAX_SATS_CONNECT_PROVIDERS = 20
/** A provider path (`XverseProviders.BitcoinProvider`) is a few plain names. */
const providerPath = /^[A-Za-z_$][\w$]{0,63}(?:\.[A-Za-z_$][\w$]{0,63}){0,3}$/
const forbiddenNames = new Set(['__proto__', 'prototype', 'constructor'])

/** The object at a dotted path of `target` (own properties only), or undefined. Never throws. */
function resolveProvider(target: object, id: string): SatsConnectProvider | undefined {
  try {
    if (!providerPath.test(id)) return undefined
    let value: unknown = target
    for (const name of id.split('.')) {
      if (forbiddenNames.has(name) || (typeof value !== 'object' && typeof value !== 'function') || value === null || !(name in value)) return undefined
      value = (value as Record<string, unknown>)[name]
    }
    return typeof (value as Partial<SatsConnectProvider> | null)?.request === 'function' ? (value as SatsConnectProvider) : undefined
  } catch {
    return undefined
  }
}

/** The sats-connect entries of `btc_providers` that name a provider present on the page. */
function satsConnectProviders(target: Window | undefined): { info: SatsConnectProviderInfo; provider: SatsConnectProvider }[] {
  try {
    const listed = (target as { btc_providers?: unknown } | undefined)?.btc_providers
    if (!target || !Array.isArray(listed)) return []
    return listed.slice(0, MAX_SATS_CONNECT_PROVIDERS).flatMap((entry: Partial<SatsConnectProviderInfo> | null) => {
      if (typeof entry?.id !== 'string' || typeof entry.name !== 'string' || entry.name.length === 0 || entry.name.length > 100) return []
      const provider = resolveProvider(target, entry.id)
      return provider ? [{ info: { id: entry.id, name: entry.name, icon: typeof entry.icon === 'string' ? entry.icon : undefined }, provider }] : []
    })
  } catch {
    return []
  }
}

/**
 * Finds Bitcoin wallets three ways: the Bitcoin Wallet Standard (registered before or after this call), the sats-connect
 * providers listed in `window.btc_providers`, and a Unisat-style `window.unisat`. A wallet reachable several ways is
 * listed once, by name, the Wallet Standard way first (then sats-connect): one connector per wallet.
 * @example const discovery = discoverBitcoinWallets({ target: window }); discovery.subscribe((connectors) => render(connectors))
 */
export function discoverBitcoinWallets({ wallets = getWallets(), target }: DiscoverBitcoinWalletsParameters = {}) {
  const standardConnectors = new Map<Wallet, BitcoinConnector>()
  const satsConnectConnectors = new Map<SatsConnectProvider, BitcoinConnector>()
  let unisat: { provider: unknown; connector: BitcoinConnector } | undefined
  const watched = new Map<Wallet, () => void>()
  const listeners = new Set<(connectors: BitcoinConnector[]) => void>()
  let snapshot: BitcoinConnector[] = []
  let isStopped = false

  // A registered wallet may start (or stop) offering Bitcoin: its changes are followed.
  const watchChanges = (wallet: Wallet) => {
    let off = () => {}
    try {
      const events = (wallet.features as Record<string, { on?: (event: 'change', listener: (properties: StandardEventsChangeProperties) => void) => unknown } | undefined>)['standard:events']
      const result = events?.on?.('change', (properties) => {
        if (typeof properties === 'object' && properties !== null && ('chains' in properties || 'features' in properties)) refresh(true)
      })
      if (typeof result === 'function') off = result as () => void
    } catch {
      // a wallet whose events fail is listed by what it registered with
    }
    watched.set(wallet, off)
  }

  const compute = (): BitcoinConnector[] => {
    const byName = new Map<string, BitcoinConnector>()
    const add = (connector: BitcoinConnector) => {
      if (!byName.has(connector.name)) byName.set(connector.name, connector)
    }
    const registered = wallets.get()
    for (const [wallet, off] of watched) {
      if (registered.includes(wallet)) continue
      off()
      watched.delete(wallet)
      standardConnectors.delete(wallet)
    }
    for (const wallet of registered) {
      if (!watched.has(wallet)) watchChanges(wallet)
      if (!isBitcoinWallet(wallet)) continue
      if (!standardConnectors.has(wallet)) standardConnectors.set(wallet, createWalletStandardBitcoinConnector({ wallet }))
      add(standardConnectors.get(wallet)!)
    }
    for (const { info, provider } of satsConnectProviders(target)) {
      const known = satsConnectConnectors.get(provider)
      if (!known || known.name !== info.name) satsConnectConnectors.set(provider, createSatsConnectConnector({ info, provider }))
      add(satsConnectConnectors.get(provider)!)
    }
    let injected: unknown
    try {
      injected = (target as { unisat?: unknown } | undefined)?.unisat
    } catch {
      injected = undefined
    }
    if (isUnisatProvider(injected)) {
      if (unisat?.provider !== injected) unisat = { provider: injected, connector: createUnisatConnector({ provider: injected }) }
      add(unisat.connector)
    }
    return [...byName.values()]
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
  // Injected objects arrive by the time the page has loaded; a wallet that injects later is found then.
  const onLoad = () => refresh()
  target?.addEventListener?.('load', onLoad)
  snapshot = compute()

  return {
    /** The Bitcoin connectors now; the same array until something changes. */
    getConnectors: () => snapshot,
    /** Looks again for sats-connect providers and injected objects (they announce nothing). */
    refresh: () => refresh(),
    subscribe(listener: (connectors: BitcoinConnector[]) => void) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    stop() {
      isStopped = true
      offRegister()
      offUnregister()
      target?.removeEventListener?.('load', onLoad)
      for (const off of watched.values()) off()
      watched.clear()
      listeners.clear()
    },
  }
}

export type BitcoinWalletDiscovery = ReturnType<typeof discoverBitcoinWallets>
