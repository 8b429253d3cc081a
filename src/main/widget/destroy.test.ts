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

/**
 * Spies on a page global's addEventListener and removeEventListener (still adding and removing for real) and lists
 * the listeners left attached, by type: a listener is one (type, callback, capture), as the DOM counts them.
 */
function trackListeners(name: string, target: EventTarget) {
  const live: { type: string; callback: unknown; capture: boolean }[] = []
  const isCapture = (options?: boolean | EventListenerOptions) => (typeof options === 'boolean' ? options : Boolean(options?.capture))
  const find = (type: string, callback: unknown, capture: boolean) => live.findIndex((l) => l.type === type && l.callback === callback && l.capture === capture)
  const add = target.addEventListener.bind(target)
  const remove = target.removeEventListener.bind(target)
  vi.spyOn(target, 'addEventListener').mockImplementation((type, callback, options) => {
    if (find(type, callback, isCapture(options)) === -1) live.push({ type, callback, capture: isCapture(options) })
    add(type, callback, options)
  })
  vi.spyOn(target, 'removeEventListener').mockImplementation((type, callback, options) => {
    const index = find(type, callback, isCapture(options))
    if (index !== -1) live.splice(index, 1)
    remove(type, callback, options)
  })
  return () => live.map((l) => `${name}:${l.type}`)
}

/**
 * An injected wallet (EIP-6963) that keeps the visitor's approval until `approve()`, and lists the listeners attached
 * to its provider.
 */
function createWaitingWallet() {
  const listeners: { event: string; listener: unknown }[] = []
  let approve: (() => void) | undefined
  const provider = {
    request: ({ method }: { method: string }) => {
      if (method === 'eth_requestAccounts') return new Promise((resolve) => (approve = () => resolve(['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'])))
      if (method === 'eth_chainId') return Promise.resolve('0x7a69')
      return Promise.resolve(method === 'eth_accounts' ? [] : null)
    },
    on: (event: string, listener: unknown) => void listeners.push({ event, listener }),
    removeListener: (event: string, listener: unknown) => {
      const index = listeners.findIndex((l) => l.event === event && l.listener === listener)
      if (index !== -1) listeners.splice(index, 1)
    },
  }
  const info = { uuid: '7f0c1d7e-0000-4000-8000-000000000001', name: 'Waiting Wallet', icon: 'data:image/png;base64,AA==', rdns: 'io.example.waiting' }
  return {
    info,
    announce: (target: EventTarget) => target.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: { info, provider } })),
    isAsking: () => approve !== undefined,
    approve: () => approve?.(),
    liveListeners: () => listeners.map((l) => `wallet:${l.event}`),
  }
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
    vi.restoreAllMocks()
  })

  it('terminates both workers, fails what was pending, and leaves no timer or listener on the page', async () => {
    // The page's globals, as the widget finds them by default: listeners on them are counted.
    const window = new EventTarget()
    const document = Object.assign(new EventTarget(), { visibilityState: 'visible', title: 'Host page' })
    vi.stubGlobal('window', window)
    vi.stubGlobal('document', document)
    const wallet = createWaitingWallet()
    window.addEventListener('eip6963:requestProvider', () => wallet.announce(window))
    const listeners = [trackListeners('window', window), trackListeners('document', document), wallet.liveListeners]
    const liveListeners = () => listeners.flatMap((list) => list())

    const widget = createWidget({
      projectId: 'test',
      networks: [{ chainNamespace: 'eip155', caipNetworkId: 'eip155:31337', id: 31337, name: 'Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:1'] } } }],
      services: { api: 'http://127.0.0.1:2', relay: 'ws://127.0.0.1:3' },
      storage: createWidgetStorage({ storage: createMemoryStorage() }),
    })
    // The widget's code loads, then starts in a task of its own (fake timers here).
    const started = widget.whenStarted()
    await vi.waitFor(async () => {
      await vi.advanceTimersByTimeAsync(1)
      expect(widget.getState().isStarted).toBe(true)
    })
    await started
    vi.advanceTimersByTime(1) // the core's worker and the reconnect start in tasks of their own
    const blockNumber = widget.core!.getBlockNumber({ chainId: 31337 })
    widget.open() // the modal: Connect, its wallets listed and MODAL_OPEN tracked
    void widget.walletConnect!.start() // loads WalletConnect, whose worker then waits for a pairing
    await widget.ready() // the EVM family's code, listening for wallets
    await vi.waitFor(() => expect(SilentWorker.started).toHaveLength(2))
    const connectAttempt = widget.connect(wallet.info.rdns) // the wallet waits for the visitor
    widget.notifications.show('Transaction started')
    widget.modal.shake()
    await vi.waitFor(() => expect(wallet.isAsking()).toBe(true))
    expect(vi.getTimerCount()).toBeGreaterThan(0)
    expect(liveListeners()).toEqual(expect.arrayContaining(['window:eip6963:announceProvider', 'document:visibilitychange']))

    widget.destroy()
    await expect(blockNumber).rejects.toMatchObject({ code: 'CORE_DESTROYED' })
    wallet.approve() // the visitor approves after the widget is gone: nothing connects
    await expect(connectAttempt).rejects.toMatchObject({ code: 'CORE_DESTROYED' })
    expect(widget.getState().status).toBe('disconnected')
    await vi.waitFor(() => expect(SilentWorker.started.map((w) => w.isTerminated)).toEqual([true, true]))
    expect(vi.getTimerCount()).toBe(0)
    expect(liveListeners()).toEqual([])
    await expect(widget.core!.getBlockNumber({ chainId: 31337 })).rejects.toMatchObject({ code: 'CORE_DESTROYED' })

    // What a mounted UI may still call after destroy (its idle prefetch, a late click) starts nothing again.
    widget.prefetch()
    widget.open()
    await widget.ready().catch(() => {})
    await vi.advanceTimersByTimeAsync(1_000)
    expect(liveListeners()).toEqual([])
    expect(vi.getTimerCount()).toBe(0)
    expect(SilentWorker.started).toHaveLength(2)
  })
})
