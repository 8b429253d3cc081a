import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { storageKey } from '../storage/storageKey'
import { createWidget, UNHURRIED_START_MS } from './createWidget'

// The widget's code after the first frame, as createWidget loads it: here a stand-in that records when it starts.
const started = vi.hoisted(() => ({ count: 0 }))
vi.mock('./startWidget', () => ({
  startWidget: (_parameters: unknown, { store }: { store: { setState(state: object): void } }) => {
    started.count++
    store.setState({ isStarted: true })
    return { destroy() {}, open() {}, prefetch() {} }
  },
}))

const network = { chainNamespace: 'eip155' as const, caipNetworkId: 'eip155:31337' as const, id: 31337, name: 'Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } } }
const onPage = () => createWidget({ projectId: 'test', networks: [network], window: new EventTarget() as Window })

function rememberConnection(remembered: boolean) {
  const items = new Map(remembered ? [[storageKey('connectedNamespaces'), '["eip155"]']] : [])
  vi.stubGlobal('localStorage', { getItem: (key: string) => items.get(key) ?? null })
}

/** Lets the page's queued tasks run (the idle callback, the import, the yield before the start): 10 ms, a task a millisecond (Node's timers take 0 as 1). */
async function settle() {
  for (let i = 0; i < 10; i++) await vi.advanceTimersByTimeAsync(1)
}

describe("when the widget's code starts on a page", () => {
  // Loaded once before the clocks are faked: later imports of it resolve at once, so a start shows at the next settle().
  beforeAll(async () => void (await import('./startWidget')))
  beforeEach(() => {
    started.count = 0
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  it('waits out the page’s first two seconds for a visitor with no remembered connection', async () => {
    rememberConnection(false)
    const widget = onPage()
    await vi.advanceTimersByTimeAsync(UNHURRIED_START_MS - 20)
    await settle()
    expect(started.count).toBe(0)
    await vi.advanceTimersByTimeAsync(10)
    await settle()
    expect(started.count).toBe(1)
    expect(widget.getState().isStarted).toBe(true)
    widget.destroy()
  })

  it('starts once the page is idle when the browser remembers a connection to restore', async () => {
    rememberConnection(true)
    const widget = onPage()
    await settle()
    expect(started.count).toBe(1)
    widget.destroy()
  })

  it('starts at once on the visitor’s intent (hover or focus prefetch), and only once', async () => {
    rememberConnection(false)
    const widget = onPage()
    await vi.advanceTimersByTimeAsync(100)
    widget.prefetch()
    await settle()
    expect(started.count).toBe(1)
    await vi.advanceTimersByTimeAsync(UNHURRIED_START_MS)
    expect(started.count).toBe(1)
    widget.destroy()
  })

  it('starts at the next idle time when UI that needs the started widget asks (startSoon)', async () => {
    rememberConnection(false)
    const widget = onPage()
    widget.startSoon()
    await settle()
    expect(started.count).toBe(1)
    widget.destroy()
  })

  it('never starts when destroyed first', async () => {
    rememberConnection(false)
    onPage().destroy()
    await vi.advanceTimersByTimeAsync(UNHURRIED_START_MS * 2)
    expect(started.count).toBe(0)
  })
})
