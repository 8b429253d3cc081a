import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryStorage, createWidgetStorage } from '../storage/createWidgetStorage'
import { createWidget } from './createWidget'

/** A Worker that never answers and keeps count of what is attached to it. */
class SilentWorker extends EventTarget {
  static started: SilentWorker[] = []
  isTerminated = false
  constructor(readonly url: string | URL) {
    super()
    SilentWorker.started.push(this)
  }
  postMessage() {}
  terminate() {
    this.isTerminated = true
  }
}

/** A page whose listeners are counted. */
function countingWindow() {
  const target = new EventTarget()
  const live = new Map<string, number>()
  const add = target.addEventListener.bind(target)
  const remove = target.removeEventListener.bind(target)
  target.addEventListener = (type: string, ...rest: [EventListenerOrEventListenerObject | null, (AddEventListenerOptions | boolean)?]) => {
    live.set(type, (live.get(type) ?? 0) + 1)
    add(type, ...rest)
  }
  target.removeEventListener = (type: string, ...rest: [EventListenerOrEventListenerObject | null, (EventListenerOptions | boolean)?]) => {
    live.set(type, (live.get(type) ?? 0) - 1)
    remove(type, ...rest)
  }
  return { window: target as unknown as Window, listenerCount: () => [...live.values()].reduce((sum, n) => sum + n, 0) }
}

describe('widget.destroy()', () => {
  beforeEach(() => {
    SilentWorker.started = []
    vi.stubGlobal('Worker', SilentWorker)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  it('terminates both workers, fails what was pending, and leaves no timer or listener', async () => {
    const page = countingWindow()
    const widget = createWidget({
      projectId: 'test',
      networks: [{ chainNamespace: 'eip155', caipNetworkId: 'eip155:31337', id: 31337, name: 'Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:1'] } } }],
      services: { api: 'http://127.0.0.1:2', relay: 'ws://127.0.0.1:3' },
      window: page.window,
      storage: createWidgetStorage({ storage: createMemoryStorage() }),
    })
    vi.advanceTimersByTime(1) // the core's worker and the reconnect start in tasks of their own
    const blockNumber = widget.core!.getBlockNumber({ chainId: 31337 })
    void widget.walletConnect!.start() // loads WalletConnect, whose worker then waits for a pairing
    await widget.ready() // the EVM family's code, listening for wallets
    await vi.waitFor(() => expect(SilentWorker.started).toHaveLength(2))
    widget.notifications.show('Transaction started')
    widget.modal.shake()
    expect(vi.getTimerCount()).toBeGreaterThan(0)
    expect(page.listenerCount()).toBeGreaterThan(0)

    widget.destroy()
    await expect(blockNumber).rejects.toMatchObject({ code: 'CORE_DESTROYED' })
    await vi.waitFor(() => expect(SilentWorker.started.map((w) => w.isTerminated)).toEqual([true, true]))
    expect(vi.getTimerCount()).toBe(0)
    expect(page.listenerCount()).toBe(0)
    await expect(widget.core!.getBlockNumber({ chainId: 31337 })).rejects.toMatchObject({ code: 'CORE_DESTROYED' })
  })
})
