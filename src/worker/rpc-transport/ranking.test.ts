import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createTransportRanking, rankTransports } from './ranking'

const weights = { stability: 0.7, latency: 0.3 }

describe('rankTransports', () => {
  it('weighs stability 0.7 and latency 0.3', () => {
    const ranked = rankTransports(
      [
        [{ latencyMs: 100, isSuccess: true }, { latencyMs: 100, isSuccess: true }],
        [{ latencyMs: 50, isSuccess: true }, { latencyMs: 0, isSuccess: false }],
        [{ latencyMs: 10, isSuccess: true }, { latencyMs: 30, isSuccess: true }],
      ],
      weights,
    )
    // #2: stable and fastest: 0.7 + 0.3 × (1 − 20/100); #0: stable, slowest: 0.7; #1: half stable: 0.35 + 0.3 × 0.5
    expect(ranked.map((r) => r.index)).toEqual([2, 0, 1])
    expect(ranked.map((r) => r.score)).toEqual([0.7 + 0.3 * 0.8, 0.7, 0.35 + 0.15])
  })

  it('ranks a transport that never answered last', () => {
    const ranked = rankTransports([[{ latencyMs: 1_000, isSuccess: false }], [{ latencyMs: 5, isSuccess: true }]], weights)
    expect(ranked.map((r) => [r.index, r.stability])).toEqual([[1, 1], [0, 0]])
  })
})

describe('createTransportRanking', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  function setup(pings: ((signal: AbortSignal) => Promise<unknown>)[]) {
    return createTransportRanking({ pings, now: () => Date.now() })
  }

  it('does not ping before the first subscriber, then pings every 4,000 ms', async () => {
    const ping = vi.fn(() => Promise.resolve())
    const ranking = setup([ping])
    await vi.advanceTimersByTimeAsync(10_000)
    expect(ping).not.toHaveBeenCalled()
    const unsubscribe = ranking.subscribe(() => {})
    await vi.advanceTimersByTimeAsync(0)
    expect(ping).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(3_999)
    expect(ping).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(ping).toHaveBeenCalledTimes(2)
    unsubscribe()
  })

  it('stops pinging when the last subscriber leaves, and when stopped', async () => {
    const ping = vi.fn(() => Promise.resolve())
    const ranking = setup([ping])
    const first = ranking.subscribe(() => {})
    const second = ranking.subscribe(() => {})
    await vi.advanceTimersByTimeAsync(4_000)
    first()
    await vi.advanceTimersByTimeAsync(4_000)
    expect(ping).toHaveBeenCalledTimes(3)
    second()
    await vi.advanceTimersByTimeAsync(40_000)
    expect(ping).toHaveBeenCalledTimes(3)

    ranking.subscribe(() => {})
    await vi.advanceTimersByTimeAsync(0)
    expect(ping).toHaveBeenCalledTimes(4)
    ranking.stop()
    await vi.advanceTimersByTimeAsync(40_000)
    expect(ping).toHaveBeenCalledTimes(4)
  })

  it('counts a ping slower than 1,000 ms as a failure', async () => {
    const never = () => new Promise<never>(() => {})
    const ranking = setup([never, () => Promise.resolve()])
    const seen: number[][] = []
    ranking.subscribe((ranked) => seen.push(ranked.map((r) => r.stability)))
    await vi.advanceTimersByTimeAsync(999)
    expect(seen).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(seen).toEqual([[1, 0]])
    ranking.stop()
  })

  it('keeps only the last 10 samples', async () => {
    let isUp = false
    const ranking = setup([() => (isUp ? Promise.resolve() : Promise.reject(new Error('down')))])
    const stability: number[] = []
    ranking.subscribe((ranked) => stability.push(ranked[0]!.stability))
    await vi.advanceTimersByTimeAsync(0)
    isUp = true
    for (let i = 0; i < 10; i++) await vi.advanceTimersByTimeAsync(4_000)
    // round 1 failed; rounds 2..11 succeeded: after round 11 the failure has left the window
    expect(stability.at(-2)).toBe(0.9)
    expect(stability.at(-1)).toBe(1)
    ranking.stop()
  })
})
