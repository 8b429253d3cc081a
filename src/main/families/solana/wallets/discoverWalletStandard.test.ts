import { getWallets } from '@wallet-standard/app'
import type { Wallet } from '@wallet-standard/base'
import type { StandardEventsChangeProperties } from '@wallet-standard/features'
import { registerWallet } from '@wallet-standard/wallet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevSolanaWallet, registerDevSolanaWallet } from '../../../../../demo/devWallet/solana/createDevSolanaWallet'
import { solanaCaipNetworkIds } from './createWalletStandardConnector'
import { discoverWalletStandard, isSolanaWallet, type WalletStandardDiscovery } from './discoverWalletStandard'

type Chain = `${string}:${string}`

/** A minimal Wallet Standard wallet; `emit` plays its standard:events 'change'. */
function fakeWallet(name: string, { chains = ['solana:mainnet'] as Chain[], features = ['standard:connect', 'standard:events', 'solana:signMessage'] } = {}) {
  const listeners = new Set<(properties: StandardEventsChangeProperties) => void>()
  const methods: Record<string, Record<string, unknown>> = {
    'standard:connect': { version: '1.0.0', connect: async () => ({ accounts: [] }) },
    'standard:events': { version: '1.0.0', on: (_event: string, listener: (p: StandardEventsChangeProperties) => void) => (listeners.add(listener), () => void listeners.delete(listener)) },
    'solana:signMessage': { version: '1.0.0', signMessage: async () => [] },
    'solana:signTransaction': { version: '1.0.0', supportedTransactionVersions: [0], signTransaction: async () => [] },
    'bitcoin:connect': { version: '1.0.0', connect: async () => ({ accounts: [] }) },
  }
  const state = { chains, features }
  const wallet: Wallet = {
    version: '1.0.0',
    name,
    icon: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
    get chains() {
      return state.chains
    },
    get features() {
      return Object.fromEntries(state.features.map((f) => [f, methods[f]]))
    },
    accounts: [],
  }
  return {
    wallet,
    /** Changes what the wallet offers and tells its listeners, as a wallet does when a user enables a network. */
    change(next: { chains?: Chain[]; features?: string[] }) {
      Object.assign(state, next)
      for (const listener of listeners) listener({ chains: state.chains, features: wallet.features })
    },
    listenerCount: () => listeners.size,
  }
}

const names = (discovery: WalletStandardDiscovery) => discovery.getConnectors().map((c) => c.name)
const localnet = 'solana:LocaLnet1111111111111111111111' as const

describe('discoverWalletStandard', () => {
  // @wallet-standard/app and /wallet talk over `window` events: a minimal window for this file, then the original back.
  const originalWindow = Object.getOwnPropertyDescriptor(globalThis, 'window')
  let early: ReturnType<typeof fakeWallet>
  let earlyDiscovery: WalletStandardDiscovery

  beforeAll(() => {
    Object.defineProperty(globalThis, 'window', { value: new EventTarget(), configurable: true, writable: true })
    // This wallet loads before the app: it registers, and waits for the app's ready event.
    early = fakeWallet('Early')
    registerWallet(early.wallet)
    // The first discovery in this file is the app getting ready (getWallets() dispatches wallet-standard:app-ready).
    earlyDiscovery = discoverWalletStandard()
  })
  afterAll(() => {
    earlyDiscovery.stop()
    if (originalWindow) Object.defineProperty(globalThis, 'window', originalWindow)
    else delete (globalThis as { window?: unknown }).window
  })

  it('finds a wallet registered before the app was ready', () => {
    expect(names(earlyDiscovery)).toContain('Early')
  })

  it('finds a wallet registered after the app is ready, and tells subscribers', () => {
    const discovery = discoverWalletStandard({ localnetCaipNetworkId: localnet })
    const seen: string[][] = []
    discovery.subscribe((connectors) => seen.push(connectors.map((c) => c.name)))
    const devWallet = createDevSolanaWallet()
    registerDevSolanaWallet(devWallet) // dispatches wallet-standard:register-wallet
    expect(seen.at(-1)).toContain('Tessera Dev Solana Wallet')
    const connector = discovery.getConnectors().find((c) => c.name === 'Tessera Dev Solana Wallet')!
    expect(connector).toMatchObject({ type: 'ANNOUNCED', namespace: 'solana', wallet: devWallet.wallet })
    expect(connector.chains).toEqual([localnet, solanaCaipNetworkIds['solana:devnet']])
    discovery.stop()
  })

  it('ignores wallets without Solana, without the required features, or that throw when read', () => {
    const discovery = discoverWalletStandard()
    const throwing = Object.defineProperty({ ...fakeWallet('Throwing').wallet }, 'features', {
      get() {
        throw new Error('boom')
      },
    })
    const unregister = getWallets().register(
      fakeWallet('Bitcoin only', { chains: ['bitcoin:mainnet'], features: ['bitcoin:connect', 'standard:events'] }).wallet,
      fakeWallet('No events', { features: ['standard:connect', 'solana:signMessage'] }).wallet,
      fakeWallet('No connect', { features: ['standard:events', 'solana:signMessage'] }).wallet,
      fakeWallet('No signing', { features: ['standard:connect', 'standard:events'] }).wallet,
      fakeWallet('').wallet,
      throwing,
      fakeWallet('Signs transactions only', { features: ['standard:connect', 'standard:events', 'solana:signTransaction'] }).wallet,
    )
    expect(names(discovery)).toContain('Signs transactions only')
    for (const name of ['Bitcoin only', 'No events', 'No connect', 'No signing', '', 'Throwing']) expect(names(discovery)).not.toContain(name)
    expect(isSolanaWallet(null)).toBe(false)
    unregister()
    discovery.stop()
  })

  it('drops a wallet that unregisters, and tells subscribers', () => {
    const discovery = discoverWalletStandard()
    const seen: string[][] = []
    discovery.subscribe((connectors) => seen.push(connectors.map((c) => c.name)))
    const unregister = getWallets().register(fakeWallet('Leaving').wallet)
    expect(names(discovery)).toContain('Leaving')
    unregister()
    expect(names(discovery)).not.toContain('Leaving')
    expect(seen.map((list) => list.includes('Leaving'))).toEqual([true, false])
    discovery.stop()
  })

  it('keeps a multi-family wallet once, with its families', () => {
    const discovery = discoverWalletStandard()
    const multi = fakeWallet('Multi', { chains: ['bitcoin:mainnet', 'solana:mainnet', 'solana:devnet'], features: ['standard:connect', 'standard:events', 'solana:signMessage', 'bitcoin:connect'] })
    const unregister = getWallets().register(multi.wallet, multi.wallet)
    const again = getWallets().register(multi.wallet) // the same wallet again is not a second entry
    const listed = discovery.getConnectors().filter((c) => c.name === 'Multi')
    expect(listed).toHaveLength(1)
    expect(listed[0]!.namespaces).toEqual(['bip122', 'solana'])
    expect(listed[0]!.chains).toEqual([solanaCaipNetworkIds['solana:mainnet'], solanaCaipNetworkIds['solana:devnet']])
    again()
    unregister()
    discovery.stop()
  })

  it('lists one entry per name: the first registered keeps it, the next takes over when it leaves', () => {
    const discovery = discoverWalletStandard()
    const first = fakeWallet('Twin')
    const second = fakeWallet('Twin')
    const unregisterFirst = getWallets().register(first.wallet)
    const unregisterSecond = getWallets().register(second.wallet)
    expect(discovery.getConnectors().filter((c) => c.name === 'Twin').map((c) => c.wallet)).toEqual([first.wallet])
    unregisterFirst()
    expect(discovery.getConnectors().filter((c) => c.name === 'Twin').map((c) => c.wallet)).toEqual([second.wallet])
    unregisterSecond()
    discovery.stop()
  })

  it('follows a wallet that starts, then stops, offering Solana', () => {
    const discovery = discoverWalletStandard()
    const seen: boolean[] = []
    discovery.subscribe((connectors) => seen.push(connectors.some((c) => c.name === 'Switcher')))
    const switcher = fakeWallet('Switcher', { chains: ['bitcoin:mainnet'], features: ['bitcoin:connect', 'standard:events'] })
    const unregister = getWallets().register(switcher.wallet)
    expect(names(discovery)).not.toContain('Switcher')
    switcher.change({ chains: ['bitcoin:mainnet', 'solana:devnet'], features: ['bitcoin:connect', 'standard:connect', 'standard:events', 'solana:signMessage'] })
    expect(names(discovery)).toContain('Switcher')
    switcher.change({ chains: ['bitcoin:mainnet'] })
    expect(names(discovery)).not.toContain('Switcher')
    expect(seen).toEqual([true, false]) // registering it as a Bitcoin-only wallet changed nothing to tell
    expect(switcher.listenerCount()).toBeGreaterThan(0)
    unregister()
    expect(switcher.listenerCount()).toBe(0) // an unregistered wallet is no longer watched
    discovery.stop()
  })

  it('gives the same array until something changes; stop() ends updates and wallet watches', () => {
    const discovery = discoverWalletStandard()
    const before = discovery.getConnectors()
    expect(discovery.getConnectors()).toBe(before)
    const calls: unknown[] = []
    discovery.subscribe((connectors) => calls.push(connectors))
    const watchedWallet = fakeWallet('Watched')
    const unregisterWatched = getWallets().register(watchedWallet.wallet)
    const watchers = watchedWallet.listenerCount() // this discovery's, and the file's first one
    discovery.stop()
    expect(watchedWallet.listenerCount()).toBe(watchers - 1)
    const unregisterLate = getWallets().register(fakeWallet('After stop').wallet)
    expect(names(discovery)).not.toContain('After stop')
    expect(calls).toHaveLength(1)
    unregisterWatched()
    unregisterLate()
  })
})
