import type { Wallets } from '@wallet-standard/app'
import type { Wallet } from '@wallet-standard/base'
import type { StandardEventsChangeProperties } from '@wallet-standard/features'
import { describe, expect, it } from 'vitest'
import { discoverStandardWallets } from './discoverStandardWallets'

/** A registry like @wallet-standard/app's, without `window`: register returns its unregister. */
function fakeRegistry() {
  let registered: Wallet[] = []
  const listeners = { register: new Set<() => void>(), unregister: new Set<() => void>() }
  const wallets: Pick<Wallets, 'get' | 'on'> = {
    get: () => registered,
    on: ((event: 'register' | 'unregister', listener: () => void) => (listeners[event].add(listener), () => void listeners[event].delete(listener))) as Wallets['on'],
  }
  return {
    wallets,
    register(wallet: Wallet) {
      registered = [...registered, wallet]
      for (const listener of listeners.register) listener()
      return () => {
        registered = registered.filter((w) => w !== wallet)
        for (const listener of listeners.unregister) listener()
      }
    },
    listenerCount: () => listeners.register.size + listeners.unregister.size,
  }
}

/** A wallet of family `chains[0]`'s prefix; `change` plays its standard:events 'change'. */
function fakeWallet(name: string, chains: `${string}:${string}`[]) {
  const listeners = new Set<(properties: StandardEventsChangeProperties) => void>()
  const state = { chains }
  const wallet = {
    version: '1.0.0',
    name,
    icon: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
    get chains() {
      return state.chains
    },
    features: { 'standard:events': { version: '1.0.0', on: (_event: string, listener: (p: StandardEventsChangeProperties) => void) => (listeners.add(listener), () => void listeners.delete(listener)) } },
    accounts: [],
  } as unknown as Wallet
  return {
    wallet,
    change(next: `${string}:${string}`[]) {
      state.chains = next
      for (const listener of listeners) listener({ chains: next })
    },
    listenerCount: () => listeners.size,
  }
}

const isTestWallet = (wallet: Wallet) => wallet.chains.some((chain) => chain.startsWith('test:'))
const discover = (registry: ReturnType<typeof fakeRegistry>, findOthers?: () => { name: string }[]) =>
  discoverStandardWallets<{ name: string; wallet?: Wallet }>({ wallets: registry.wallets, isFamilyWallet: isTestWallet, createConnector: (wallet) => ({ name: wallet.name, wallet }), keyOf: (c) => c.name, findOthers })
const names = (discovery: ReturnType<typeof discover>) => discovery.getConnectors().map((c) => c.name)

describe('discoverStandardWallets', () => {
  it('lists the family wallets registered before and after, once per key, the registry first, then the others', () => {
    const registry = fakeRegistry()
    registry.register(fakeWallet('Early', ['test:1']).wallet)
    registry.register(fakeWallet('Other family', ['other:1']).wallet)
    let others = [{ name: 'Injected' }, { name: 'Late' }]
    const discovery = discover(registry, () => others)
    expect(names(discovery)).toEqual(['Early', 'Injected', 'Late'])
    const seen: string[][] = []
    discovery.subscribe((connectors) => seen.push(connectors.map((c) => c.name)))
    registry.register(fakeWallet('Late', ['test:1']).wallet)
    expect(names(discovery)).toEqual(['Early', 'Late', 'Injected'])
    expect(discovery.getConnectors()[1]!.wallet).toBeDefined() // the registry's 'Late' won over the other one
    others = []
    discovery.refresh()
    expect(seen).toEqual([['Early', 'Late', 'Injected'], ['Early', 'Late']])
    discovery.stop()
  })

  it('keeps each connector and the same array until something changes', () => {
    const registry = fakeRegistry()
    registry.register(fakeWallet('Kept', ['test:1']).wallet)
    const discovery = discover(registry)
    const before = discovery.getConnectors()
    const calls: unknown[] = []
    discovery.subscribe((connectors) => calls.push(connectors))
    discovery.refresh()
    expect(discovery.getConnectors()).toBe(before)
    registry.register(fakeWallet('Other family', ['other:1']).wallet)
    expect(calls).toHaveLength(0)
    registry.register(fakeWallet('Next', ['test:1']).wallet)
    expect(discovery.getConnectors()[0]).toBe(before[0])
    discovery.stop()
  })

  it('follows a wallet that starts, then stops, offering the family, and tells of every chain change', () => {
    const registry = fakeRegistry()
    const switcher = fakeWallet('Switcher', ['other:1'])
    const discovery = discover(registry)
    const seen: string[][] = []
    discovery.subscribe((connectors) => seen.push(connectors.map((c) => c.name)))
    registry.register(switcher.wallet)
    switcher.change(['other:1', 'test:1'])
    switcher.change(['test:1', 'test:2'])
    switcher.change(['other:1'])
    expect(seen).toEqual([['Switcher'], ['Switcher'], []])
    discovery.stop()
  })

  it('stops watching a wallet that unregisters; stop() ends updates, registry listeners and wallet watches', () => {
    const registry = fakeRegistry()
    const leaving = fakeWallet('Leaving', ['test:1'])
    const staying = fakeWallet('Staying', ['test:1'])
    const discovery = discover(registry)
    const unregister = registry.register(leaving.wallet)
    registry.register(staying.wallet)
    expect(leaving.listenerCount()).toBe(1)
    unregister()
    expect(names(discovery)).toEqual(['Staying'])
    expect(leaving.listenerCount()).toBe(0)
    const calls: unknown[] = []
    discovery.subscribe((connectors) => calls.push(connectors))
    discovery.stop()
    expect(registry.listenerCount()).toBe(0)
    expect(staying.listenerCount()).toBe(0)
    staying.change(['test:3'])
    discovery.refresh()
    expect(calls).toHaveLength(0)
  })

  it('lists a wallet whose events throw by what it registered with', () => {
    const registry = fakeRegistry()
    const wallet = { ...fakeWallet('No events', ['test:1']).wallet, chains: ['test:1'], features: { 'standard:events': { on: () => { throw new Error('boom') } } } } as unknown as Wallet
    registry.register(wallet)
    const discovery = discover(registry)
    expect(names(discovery)).toEqual(['No events'])
    discovery.stop()
  })
})
