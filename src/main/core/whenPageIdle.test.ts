import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { whenPageIdle } from './whenPageIdle'

describe('whenPageIdle', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  /** A page whose frames and idle periods come when the test says. Without `withIdleCallbacks`, a browser like Safari. */
  function stubPage({ visibilityState = 'visible', withIdleCallbacks = true }: { visibilityState?: 'visible' | 'hidden'; withIdleCallbacks?: boolean } = {}) {
    const frames = new Map<number, FrameRequestCallback>()
    const idle = new Map<number, { callback: IdleRequestCallback; timeout?: number }>()
    let nextId = 0
    vi.stubGlobal('document', { visibilityState })
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => (frames.set(++nextId, callback), nextId))
    vi.stubGlobal('cancelAnimationFrame', (id: number) => frames.delete(id))
    if (withIdleCallbacks) {
      vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback, options?: IdleRequestOptions) => (idle.set(++nextId, { callback, timeout: options?.timeout }), nextId))
      vi.stubGlobal('cancelIdleCallback', (id: number) => idle.delete(id))
    }
    const runAll = <T,>(callbacks: Map<number, T>, call: (entry: T) => void) => {
      const due = [...callbacks.values()]
      callbacks.clear()
      for (const entry of due) call(entry)
    }
    return {
      paint: () => runAll(frames, (callback) => callback(performance.now())),
      idle: () => runAll(idle, ({ callback }) => callback({ didTimeout: false, timeRemaining: () => 10 })),
      idleTimeouts: () => [...idle.values()].map((entry) => entry.timeout),
      get waiting() {
        return frames.size + idle.size
      },
    }
  }

  it('runs in the next task where nothing paints (Node, a worker) or the page is hidden', () => {
    const inNode = vi.fn()
    whenPageIdle(inNode, { timeoutMs: 500 })
    expect(inNode).not.toHaveBeenCalled()
    vi.advanceTimersByTime(0)
    expect(inNode).toHaveBeenCalledOnce()

    const page = stubPage({ visibilityState: 'hidden' })
    const hidden = vi.fn()
    whenPageIdle(hidden, { timeoutMs: 500 })
    vi.advanceTimersByTime(0)
    expect(hidden).toHaveBeenCalledOnce()
    expect(page.waiting).toBe(0)
  })

  it('waits for the page to be idle, at most timeoutMs', () => {
    const page = stubPage()
    const run = vi.fn()
    whenPageIdle(run, { timeoutMs: 500 })
    expect(page.idleTimeouts()).toEqual([500])
    page.paint()
    vi.advanceTimersByTime(1_000)
    expect(run).not.toHaveBeenCalled()
    page.idle()
    expect(run).toHaveBeenCalledOnce()
  })

  it('without idle callbacks, runs in a task after the next frame (after its paint), or after timeoutMs without one', () => {
    const page = stubPage({ withIdleCallbacks: false })
    const run = vi.fn()
    whenPageIdle(run, { timeoutMs: 500 })
    vi.advanceTimersByTime(499)
    expect(run).not.toHaveBeenCalled()
    page.paint()
    expect(run).not.toHaveBeenCalled()
    vi.advanceTimersByTime(0)
    expect(run).toHaveBeenCalledOnce()
    vi.advanceTimersByTime(5_000)
    expect(run).toHaveBeenCalledOnce()

    const neverPainted = vi.fn()
    whenPageIdle(neverPainted, { timeoutMs: 500 })
    vi.advanceTimersByTime(500)
    expect(neverPainted).toHaveBeenCalledOnce()
    expect(page.waiting).toBe(0)
  })

  it.each([true, false])('runs nothing once cancelled, and leaves no callback or timer (idle callbacks: %s)', (withIdleCallbacks) => {
    const page = stubPage({ withIdleCallbacks })
    const run = vi.fn()
    const cancel = whenPageIdle(run, { timeoutMs: 500 })
    cancel()
    expect(page.waiting).toBe(0)
    expect(vi.getTimerCount()).toBe(0)
    page.paint()
    page.idle()
    vi.advanceTimersByTime(5_000)
    expect(run).not.toHaveBeenCalled()
  })
})
