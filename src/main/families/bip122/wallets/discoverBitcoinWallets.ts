import { getWallets, type Wallets } from '@wallet-standard/app'
import { discoverStandardWallets } from '../../../connectors/walletStandard/discoverStandardWallets'
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
  const satsConnectConnectors = new Map<SatsConnectProvider, BitcoinConnector>()
  let unisat: { provider: unknown; connector: BitcoinConnector } | undefined

  /** The connectors of the sats-connect providers and of the Unisat-style object on the page now, in that order. */
  const findInjected = (): BitcoinConnector[] => {
    const found: BitcoinConnector[] = []
    for (const { info, provider } of satsConnectProviders(target)) {
      const known = satsConnectConnectors.get(provider)
      if (!known || known.name !== info.name) satsConnectConnectors.set(provider, createSatsConnectConnector({ info, provider }))
      found.push(satsConnectConnectors.get(provider)!)
    }
    let injected: unknown
    try {
      injected = (target as { unisat?: unknown } | undefined)?.unisat
    } catch {
      injected = undefined
    }
    if (isUnisatProvider(injected)) {
      if (unisat?.provider !== injected) unisat = { provider: injected, connector: createUnisatConnector({ provider: injected }) }
      found.push(unisat.connector)
    }
    return found
  }

  const discovery = discoverStandardWallets<BitcoinConnector>({
    wallets,
    isFamilyWallet: isBitcoinWallet,
    createConnector: (wallet) => createWalletStandardBitcoinConnector({ wallet }),
    keyOf: (connector) => connector.name,
    findOthers: findInjected,
  })
  // Injected objects arrive by the time the page has loaded; a wallet that injects later is found then.
  const onLoad = () => discovery.refresh()
  target?.addEventListener?.('load', onLoad)

  return {
    /** The Bitcoin connectors now; the same array until something changes. */
    getConnectors: discovery.getConnectors,
    /** Looks again for sats-connect providers and injected objects (they announce nothing). */
    refresh: discovery.refresh,
    subscribe: discovery.subscribe,
    stop() {
      discovery.stop()
      target?.removeEventListener?.('load', onLoad)
    },
  }
}

export type BitcoinWalletDiscovery = ReturnType<typeof discoverBitcoinWallets>
