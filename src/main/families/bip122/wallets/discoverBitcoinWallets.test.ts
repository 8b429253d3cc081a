import { getWallets } from '@wallet-standard/app'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevBitcoinWallet, DEV_SATS_CONNECT_ID, registerDevBitcoinWallet } from '../../../../../demo/devWallet/bitcoin/createDevBitcoinWallet'
import { deriveBitcoinAccounts } from '../../../../../services/chain/bitcoin/devKeys'
import { discoverBitcoinWallets, type BitcoinWalletDiscovery } from './discoverBitcoinWallets'

const devAccounts = deriveBitcoinAccounts({ count: 1 })
const summary = (discovery: BitcoinWalletDiscovery) => discovery.getConnectors().map((c) => `${c.kind}:${c.name}`)
/** A page: an EventTarget to hang providers on, as a window is. */
const page = () => new EventTarget() as unknown as Window & Record<string, unknown>
const satsConnectProvider = () => ({ request: async () => ({ status: 'success', result: {} }) })
const unisat = { requestAccounts: async () => [], getAccounts: async () => [], signPsbt: async () => '', signMessage: async () => '' }

describe('discoverBitcoinWallets', () => {
  // @wallet-standard/app and /wallet talk over `window` events: a minimal window for this file, then the original back.
  const originalWindow = Object.getOwnPropertyDescriptor(globalThis, 'window')
  beforeAll(() => {
    Object.defineProperty(globalThis, 'window', { value: new EventTarget(), configurable: true, writable: true })
  })
  afterAll(() => {
    if (originalWindow) Object.defineProperty(globalThis, 'window', originalWindow)
    else delete (globalThis as { window?: unknown }).window
  })

  it('finds a wallet reachable both ways once, the Wallet Standard way; the sats-connect way when that one leaves', () => {
    const target = page()
    const devWallet = createDevBitcoinWallet({ accounts: devAccounts })
    registerDevBitcoinWallet(devWallet, { target, standard: false })
    const discovery = discoverBitcoinWallets({ target })
    expect(summary(discovery)).toEqual(['satsConnect:Tessera Dev Bitcoin Wallet'])
    const seen: string[][] = []
    discovery.subscribe((connectors) => seen.push(connectors.map((c) => c.kind)))
    const unregister = getWallets().register(devWallet.wallet)
    expect(summary(discovery)).toEqual(['walletStandard:Tessera Dev Bitcoin Wallet'])
    unregister()
    expect(summary(discovery)).toEqual(['satsConnect:Tessera Dev Bitcoin Wallet'])
    expect(seen).toEqual([['walletStandard'], ['satsConnect']])
    discovery.stop()
  })

  it('reads btc_providers: the provider at the path its id names; entries without one, or with a path it will not follow, are left out', () => {
    const target = page()
    target.XverseProviders = { BitcoinProvider: satsConnectProvider() }
    target.btc_providers = [
      { id: 'XverseProviders.BitcoinProvider', name: 'Xverse Wallet', icon: 'data:image/png;base64,AAAA' },
      { id: 'Missing.Provider', name: 'Missing' },
      { id: '__proto__.constructor', name: 'Prototype' },
      { id: 'XverseProviders', name: 'Not a provider' },
      { id: 'XverseProviders.BitcoinProvider', name: '' },
      'junk',
    ]
    const discovery = discoverBitcoinWallets({ target })
    expect(summary(discovery)).toEqual(['satsConnect:Xverse Wallet'])
    expect(discovery.getConnectors()[0]).toMatchObject({ id: 'satsConnect:XverseProviders.BitcoinProvider', imageUrl: 'data:image/png;base64,AAAA' })
    discovery.stop()
  })

  it('reads at most 20 btc_providers entries', () => {
    const target = page()
    target.P = satsConnectProvider()
    target.btc_providers = Array.from({ length: 25 }, (_, i) => ({ id: 'P', name: `Wallet ${i}` }))
    expect(discoverBitcoinWallets({ target }).getConnectors()).toHaveLength(20)
  })

  it('finds a Unisat-style window.unisat, and one that injects itself after the page has loaded', () => {
    const target = page()
    const discovery = discoverBitcoinWallets({ target })
    expect(summary(discovery)).toEqual([])
    target.unisat = unisat
    target.dispatchEvent(new Event('load'))
    expect(summary(discovery)).toEqual(['unisat:UniSat Wallet'])
    discovery.stop()
  })

  it('keeps each connector while its wallet stays (the same object across refreshes)', () => {
    const target = page()
    target.P = satsConnectProvider()
    target.btc_providers = [{ id: 'P', name: 'Kept' }]
    target.unisat = unisat
    const discovery = discoverBitcoinWallets({ target })
    const before = discovery.getConnectors()
    discovery.refresh()
    expect(discovery.getConnectors()).toBe(before)
    discovery.stop()
  })

  it('never throws on a hostile page', () => {
    const target = page()
    Object.defineProperty(target, 'btc_providers', { get: () => { throw new Error('boom') } })
    Object.defineProperty(target, 'unisat', { get: () => { throw new Error('boom') } })
    expect(discoverBitcoinWallets({ target }).getConnectors()).toEqual([])
  })

  it('lists the dev wallet’s own btc_providers entry', () => {
    const target = page()
    registerDevBitcoinWallet(createDevBitcoinWallet({ accounts: devAccounts, name: 'Only sats-connect' }), { target, standard: false })
    expect(discoverBitcoinWallets({ target }).getConnectors()[0]).toMatchObject({ id: `satsConnect:${DEV_SATS_CONNECT_ID}`, name: 'Only sats-connect' })
  })
})
