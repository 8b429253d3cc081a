import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it, vi } from 'vitest'
import { cachePolicies } from './cachePolicies'
import { CACHE_SCHEMA_VERSION, createIndexedDbPersister } from './createIndexedDbPersister'
import { createQueryCache } from './createQueryCache'

function clock(start = 1_000_000) {
  let t = start
  return { now: () => t, advance: (ms: number) => (t += ms) }
}

describe('createQueryCache', () => {
  it('serves balances fresh for 30 s and names for 5 min, then refetches (SPEC §9)', async () => {
    const time = clock()
    const cache = createQueryCache({ now: time.now })
    const fn = vi.fn(async () => 1n)
    await cache.fetch(['balance', 'eip155:1', '0xa'], fn)
    time.advance(29_999)
    await cache.fetch(['balance', 'eip155:1', '0xa'], fn)
    expect(fn).toHaveBeenCalledTimes(1)
    time.advance(1)
    await cache.fetch(['balance', 'eip155:1', '0xa'], fn)
    expect(fn).toHaveBeenCalledTimes(2)

    const names = vi.fn(async () => ['alice.tessera.id'])
    await cache.fetch(['names', '0xa'], names)
    time.advance(5 * 60_000 - 1)
    await cache.fetch(['names', '0xa'], names)
    expect(names).toHaveBeenCalledTimes(1)
    time.advance(1)
    await cache.fetch(['names', '0xa'], names)
    expect(names).toHaveBeenCalledTimes(2)
    expect(cachePolicies.identity.staleTimeMs).toBe(300_000)
    expect(cachePolicies.nativeBalance.staleTimeMs).toBe(30_000)
  })

  it('shares one request among concurrent fetches of a key', async () => {
    const cache = createQueryCache()
    let resolve!: (v: number) => void
    const fn = vi.fn(() => new Promise<number>((r) => (resolve = r)))
    const all = Promise.all(Array.from({ length: 10 }, () => cache.fetch(['balance', 'x'], fn)))
    resolve(7)
    expect(await all).toEqual(Array(10).fill(7))
    expect(fn).toHaveBeenCalledTimes(1)
  })

  it('keeps the last good data when a refetch fails, and retries next time', async () => {
    const time = clock()
    const cache = createQueryCache({ now: time.now })
    await cache.fetch(['balance', 'x'], async () => 5)
    time.advance(60_000)
    await expect(cache.fetch(['balance', 'x'], async () => Promise.reject(new Error('node down')))).rejects.toThrow('node down')
    expect(cache.get(['balance', 'x'])?.data).toBe(5)
    expect(await cache.fetch(['balance', 'x'], async () => 6)).toBe(6)
  })

  it('refetches after invalidation by key prefix, and only what matches', async () => {
    const cache = createQueryCache()
    const fn = vi.fn(async () => 1)
    await cache.fetch(['balance', 'eip155:1', '0xsender', 'native'], fn)
    await cache.fetch(['balance', 'eip155:1', '0xsender', '0xtoken'], fn)
    await cache.fetch(['balance', 'eip155:1', '0xsenderx', 'native'], fn)
    expect(cache.invalidate(['balance', 'eip155:1', '0xsender'])).toBe(2)
    await cache.fetch(['balance', 'eip155:1', '0xsender', 'native'], fn)
    await cache.fetch(['balance', 'eip155:1', '0xsenderx', 'native'], fn)
    expect(fn).toHaveBeenCalledTimes(4)
  })

  it('bypasses freshness with force', async () => {
    const cache = createQueryCache()
    const fn = vi.fn(async () => 1)
    await cache.fetch(['balance', 'x'], fn)
    await cache.fetch(['balance', 'x'], fn, { force: true })
    expect(fn).toHaveBeenCalledTimes(2)
  })

  it('evicts the least recently used beyond maxEntries', async () => {
    const cache = createQueryCache({ maxEntries: 2 })
    await cache.fetch(['balance', 'a'], async () => 'a')
    await cache.fetch(['balance', 'b'], async () => 'b')
    cache.get(['balance', 'a'])
    await cache.fetch(['balance', 'c'], async () => 'c')
    expect([cache.get(['balance', 'a'])?.data, cache.get(['balance', 'b']), cache.get(['balance', 'c'])?.data]).toEqual(['a', undefined, 'c'])
  })

  it('collects entries unused for longer than their gc time', async () => {
    const time = clock()
    const cache = createQueryCache({ now: time.now })
    await cache.fetch(['balance', 'a'], async () => 'a')
    time.advance(cachePolicies.balance.gcTimeMs + 1)
    await cache.fetch(['balance', 'b'], async () => 'b')
    expect(cache.size()).toBe(1)
  })

  it('tells bigint keys from number keys', async () => {
    const cache = createQueryCache()
    await cache.fetch(['balance', 1n], async () => 'bigint')
    expect(await cache.fetch(['balance', 1], async () => 'number')).toBe('number')
  })
})

describe('IndexedDB persistence', () => {
  it('starts a reload warm with the persisted kinds only, bigints intact', async () => {
    const indexedDB = new IDBFactory()
    const first = createIndexedDbPersister({ indexedDB })
    const cache = createQueryCache({ persister: first })
    await cache.fetch(['balance', 'eip155:1', '0xa'], async () => 10n ** 30n)
    await cache.fetch(['supportedChains'], async () => ['eip155:1'])
    await first.flush()

    const reloaded = createQueryCache({ persister: createIndexedDbPersister({ indexedDB }) })
    expect(await reloaded.hydrate()).toBe(1)
    const fn = vi.fn(async () => 0n)
    expect(await reloaded.fetch(['balance', 'eip155:1', '0xa'], fn)).toBe(10n ** 30n)
    expect(fn).not.toHaveBeenCalled()
    expect(reloaded.get(['supportedChains'])).toBeUndefined()
  })

  it('drops and deletes corrupt, old, future and other-version records, never failing', async () => {
    const indexedDB = new IDBFactory()
    const persister = createIndexedDbPersister({ indexedDB })
    await persister.load()
    const db = await new Promise<IDBDatabase>((resolve) => {
      const r = indexedDB.open('tessera-cache', 1)
      r.onsuccess = () => resolve(r.result)
    })
    const now = Date.now()
    const good = { hash: 'good', key: ['balance', 'x'], data: 1n, updatedAt: now - 1_000, version: CACHE_SCHEMA_VERSION }
    const bad = [
      { hash: 'old-version', key: ['balance', 'x'], data: 1, updatedAt: now, version: CACHE_SCHEMA_VERSION + 1 },
      { hash: 'too-old', key: ['balance', 'x'], data: 1, updatedAt: now - 2 * 24 * 3_600_000, version: CACHE_SCHEMA_VERSION },
      { hash: 'future', key: ['balance', 'x'], data: 1, updatedAt: now + 3_600_000, version: CACHE_SCHEMA_VERSION },
      { hash: 'no-key', key: 'balance', data: 1, updatedAt: now, version: CACHE_SCHEMA_VERSION },
      { hash: 'not-persisted-kind', key: ['history', 'x'], data: 1, updatedAt: now, version: CACHE_SCHEMA_VERSION },
      { hash: 'unknown-kind', key: ['whatever'], data: 1, updatedAt: now, version: CACHE_SCHEMA_VERSION },
      { hash: 'no-time', key: ['balance', 'x'], data: 1, updatedAt: 'yesterday', version: CACHE_SCHEMA_VERSION },
    ]
    await new Promise<void>((resolve) => {
      const tx = db.transaction('entries', 'readwrite')
      for (const record of [good, ...bad]) tx.objectStore('entries').put(record)
      tx.oncomplete = () => resolve()
    })
    const loaded = await createIndexedDbPersister({ indexedDB }).load()
    expect(loaded.map((e) => e.hash)).toEqual(['good'])
    const remaining = await new Promise<string[]>((resolve) => {
      const r = db.transaction('entries').objectStore('entries').getAllKeys()
      r.onsuccess = () => resolve(r.result as string[])
    })
    expect(remaining).toEqual(['good'])
  })

  it('works in memory when IndexedDB is missing or cannot open', async () => {
    const broken = { open: () => { throw new Error('blocked') } } as unknown as IDBFactory
    for (const indexedDB of [undefined as unknown as IDBFactory, broken]) {
      const persister = createIndexedDbPersister({ indexedDB })
      const cache = createQueryCache({ persister })
      expect(await cache.fetch(['balance', 'a'], async () => 1)).toBe(1)
      await persister.flush()
      expect(await cache.hydrate()).toBe(0)
    }
  })
})
