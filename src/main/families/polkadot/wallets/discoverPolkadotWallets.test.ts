import { describe, expect, it, vi } from 'vitest'
import { discoverPolkadotWallets } from './discoverPolkadotWallets'

const provider = () => ({ enable: vi.fn(), version: '1.0.0' })

/** A page with injectedWeb3 and the load event, and timers the test runs by hand. */
function page(injectedWeb3: Record<string, unknown> = {}) {
  const target = new EventTarget() as unknown as Window & { injectedWeb3: Record<string, unknown> }
  target.injectedWeb3 = injectedWeb3
  const timers: (() => void)[] = []
  return { target, timers, setTimer: (run: () => void) => timers.push(run), clearTimer: vi.fn() }
}

describe('discoverPolkadotWallets', () => {
  it('lists every injectedWeb3 entry with an enable(), one connector each, and nothing else', () => {
    const { target, setTimer, clearTimer } = page({ 'polkadot-js': provider(), talisman: provider(), broken: { version: '1' }, __proto__: provider(), 'bad key!': provider() })
    const discovery = discoverPolkadotWallets({ target, appName: 'dApp', setTimer, clearTimer })
    expect(discovery.getConnectors().map((c) => [c.id, c.name])).toEqual([
      ['injectedWeb3:polkadot-js', 'polkadot{.js}'],
      ['injectedWeb3:talisman', 'Talisman'],
    ])
    expect(discovery.getConnectors()).toBe(discovery.getConnectors())
  })

  it('finds an extension that injects late: on the load event and at its later looks; stop ends both', () => {
    const { target, timers, setTimer, clearTimer } = page()
    const discovery = discoverPolkadotWallets({ target, appName: 'dApp', lookAgainAfterMs: [500], setTimer, clearTimer })
    const listener = vi.fn()
    discovery.subscribe(listener)
    expect(discovery.getConnectors()).toEqual([])
    target.injectedWeb3['subwallet-js'] = provider()
    timers[0]!()
    expect(listener).toHaveBeenCalledTimes(1)
    expect(discovery.getConnectors().map((c) => c.name)).toEqual(['SubWallet'])
    target.injectedWeb3.talisman = provider()
    target.dispatchEvent(new Event('load'))
    expect(discovery.getConnectors().map((c) => c.name)).toEqual(['SubWallet', 'Talisman'])
    discovery.stop()
    expect(clearTimer).toHaveBeenCalledTimes(1)
    target.injectedWeb3.enkrypt = provider()
    target.dispatchEvent(new Event('load'))
    expect(listener).toHaveBeenCalledTimes(2)
  })

  it('finds nothing without a window, and survives an injectedWeb3 that throws', () => {
    expect(discoverPolkadotWallets({ target: undefined, appName: 'dApp', lookAgainAfterMs: [] }).getConnectors()).toEqual([])
    const target = new EventTarget() as unknown as Window
    Object.defineProperty(target, 'injectedWeb3', {
      get() {
        throw new Error('no')
      },
    })
    expect(discoverPolkadotWallets({ target, appName: 'dApp', lookAgainAfterMs: [] }).getConnectors()).toEqual([])
  })
})
