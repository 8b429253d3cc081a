import { describe, expect, it } from 'vitest'
import { createHistoryCache } from './historyCache'

describe('history cache', () => {
  const setup = (maxBytes = 1_000) => {
    let clock = 0
    const cache = createHistoryCache({ maxBytes, ttlMs: 1_000, now: () => clock })
    return { cache, tick: (ms: number) => (clock += ms) }
  }

  it('answers a page again until its time is up', () => {
    const { cache, tick } = setup()
    cache.set('a', '{"data":[]}', cache.version)
    tick(999)
    expect(cache.get('a')).toBe('{"data":[]}')
    tick(1)
    expect(cache.get('a')).toBeUndefined()
    expect(cache.size).toBe(0)
  })

  it('forgets every page when invalidated, and keeps no page whose query began before', () => {
    const { cache } = setup()
    cache.set('a', 'A', cache.version)
    const readAt = cache.version
    cache.invalidate()
    expect(cache.get('a')).toBeUndefined()
    cache.set('b', 'B', readAt)
    expect(cache.get('b')).toBeUndefined()
    cache.set('b', 'B', cache.version)
    expect(cache.get('b')).toBe('B')
  })

  it('holds at most maxBytes, dropping the least recently used first, and never a page larger than that', () => {
    const { cache } = setup(30)
    cache.set('a', 'x'.repeat(9), cache.version) // 10 bytes with its key
    cache.set('b', 'x'.repeat(9), cache.version)
    cache.set('c', 'x'.repeat(9), cache.version)
    cache.get('a')
    cache.set('d', 'x'.repeat(9), cache.version)
    expect(['a', 'b', 'c', 'd'].map((key) => cache.get(key) !== undefined)).toEqual([true, false, true, true])
    expect(cache.bytes).toBeLessThanOrEqual(30)
    cache.set('e', 'é'.repeat(20), cache.version) // 41 UTF-8 bytes
    expect(cache.get('e')).toBeUndefined()
  })
})
