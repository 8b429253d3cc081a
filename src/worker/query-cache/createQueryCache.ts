import { cachePolicies, type QueryKey } from './cachePolicies'
import { hashKey } from './hashKey'
import type { CachePersister, PersistedEntry } from './createIndexedDbPersister'

export type { QueryKey } from './cachePolicies'

export type CacheEntry<T = unknown> = { key: QueryKey; data: T; updatedAt: number; isInvalidated: boolean; lastUsedAt: number }

export type FetchOptions = { force?: boolean; staleTimeMs?: number }

/**
 * The worker's query cache, with TanStack Query's semantics: fresh data is served without a fetch, concurrent
 * fetches of one key share one request, a failed fetch keeps the last good data, invalidation marks data stale,
 * unused entries are collected and the least recently used go first beyond `maxEntries`.
 * @example const balance = await cache.fetch(['balance', 'eip155:1', address], () => readBalance(address))
 */
export function createQueryCache({ now = Date.now, maxEntries = 1_000, persister }: { now?: () => number; maxEntries?: number; persister?: CachePersister } = {}) {
  const entries = new Map<string, CacheEntry>()
  const inFlight = new Map<string, Promise<unknown>>()

  const collect = () => {
    const t = now()
    for (const [hash, entry] of entries) {
      if (t - entry.lastUsedAt > cachePolicies[entry.key[0]].gcTimeMs) entries.delete(hash)
    }
    while (entries.size > maxEntries) entries.delete(entries.keys().next().value!)
  }

  const touch = (hash: string, entry: CacheEntry) => {
    entry.lastUsedAt = now()
    entries.delete(hash)
    entries.set(hash, entry)
  }

  const store = <T>(key: QueryKey, data: T, updatedAt = now()) => {
    const hash = hashKey(key)
    const entry: CacheEntry<T> = { key, data, updatedAt, isInvalidated: false, lastUsedAt: now() }
    entries.delete(hash)
    entries.set(hash, entry)
    collect()
    if (cachePolicies[key[0]].isPersisted) persister?.put({ hash, key, data, updatedAt })
    return entry
  }

  const isFresh = (entry: CacheEntry, staleTimeMs: number) => !entry.isInvalidated && now() - entry.updatedAt < staleTimeMs

  return {
    /** The data for `key`: cached while fresh, else from `fn` (one call for concurrent fetches). */
    async fetch<T>(key: QueryKey, fn: () => Promise<T>, { force = false, staleTimeMs = cachePolicies[key[0]].staleTimeMs }: FetchOptions = {}): Promise<T> {
      const hash = hashKey(key)
      const cached = entries.get(hash)
      if (cached && !force && isFresh(cached, staleTimeMs)) {
        touch(hash, cached)
        return cached.data as T
      }
      const running = inFlight.get(hash)
      if (running) return running as Promise<T>
      const request = fn()
        .then((data) => {
          store(key, data)
          return data
        })
        .finally(() => inFlight.delete(hash))
      inFlight.set(hash, request)
      return request
    },
    get<T>(key: QueryKey): CacheEntry<T> | undefined {
      const hash = hashKey(key)
      const entry = entries.get(hash)
      if (!entry) return undefined
      touch(hash, entry)
      return entry as CacheEntry<T>
    },
    set: <T>(key: QueryKey, data: T) => void store(key, data),
    /** Marks every entry whose key starts with `prefix` stale: the next fetch goes to the source. */
    invalidate(prefix: readonly unknown[]) {
      const match = hashKey(prefix).slice(0, -1)
      let count = 0
      for (const [hash, entry] of entries) {
        if (hash === `${match}]` || hash.startsWith(`${match},`)) {
          entry.isInvalidated = true
          count++
        }
      }
      return count
    },
    /** Loads persisted entries (a reload starts warm); anything bad in storage is dropped, never thrown. */
    async hydrate() {
      const loaded: PersistedEntry[] = (await persister?.load().catch(() => [])) ?? []
      for (const { hash, key, data, updatedAt } of loaded) {
        if (!entries.has(hash)) entries.set(hash, { key, data, updatedAt, isInvalidated: false, lastUsedAt: now() })
      }
      collect()
      return loaded.length
    },
    clear() {
      entries.clear()
      inFlight.clear()
      void persister?.clear()
    },
    size: () => entries.size,
  }
}

export type QueryCache = ReturnType<typeof createQueryCache>
