/** How long a history page is served again without a query, at most. */
export const HISTORY_CACHE_MS = 1_000

export type HistoryCacheParameters = {
  /** UTF-8 bytes of answers kept, all together; past it the least recently used go. */
  maxBytes: number
  /** An answer is served again for this long at most (what another instance's writes can take to show). */
  ttlMs: number
  now?: () => number
}

/**
 * The history pages answered lately, as their JSON text, so a page asked for again costs no query: a PGlite query
 * costs about a millisecond of the one thread the service has. `invalidate()` forgets them all (the indexer wrote or
 * dropped transfers, a name was registered), and a page whose query began before it is not kept; writes of other
 * instances sharing the database show within `ttlMs`.
 * @example const cache = createHistoryCache({ maxBytes: 4 << 20, ttlMs: 1_000 }); const readAt = cache.version; … cache.set(key, body, readAt); cache.get(key)
 */
export function createHistoryCache({ maxBytes, ttlMs, now = Date.now }: HistoryCacheParameters) {
  const entries = new Map<string, { at: number; body: string; bytes: number }>()
  let totalBytes = 0
  let version = 0
  const remove = (key: string) => {
    const entry = entries.get(key)
    if (!entry) return
    entries.delete(key)
    totalBytes -= entry.bytes
  }
  return {
    get(key: string): string | undefined {
      const entry = entries.get(key)
      if (!entry) return undefined
      remove(key)
      if (now() - entry.at >= ttlMs) return undefined
      // Most recently used last: Map keeps insertion order.
      entries.set(key, entry)
      totalBytes += entry.bytes
      return entry.body
    },
    /** Keeps `body`, unless the cache was invalidated since `readAt` (its `version` when the body's query began). */
    set(key: string, body: string, readAt: number) {
      if (readAt !== version) return
      remove(key)
      const bytes = Buffer.byteLength(body) + Buffer.byteLength(key)
      if (bytes > maxBytes) return
      entries.set(key, { at: now(), body, bytes })
      totalBytes += bytes
      for (const oldest of entries.keys()) {
        if (totalBytes <= maxBytes) break
        remove(oldest)
      }
    },
    invalidate() {
      entries.clear()
      totalBytes = 0
      version += 1
    },
    /** Read before a query, passed to set(): a page read before an invalidation is not kept. */
    get version() {
      return version
    },
    get bytes() {
      return totalBytes
    },
    get size() {
      return entries.size
    },
  }
}

export type HistoryCache = ReturnType<typeof createHistoryCache>
