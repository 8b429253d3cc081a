/** A least-recently-used map of at most `maxEntries` entries. */
export function createLruCache<K, V>(maxEntries: number) {
  const map = new Map<K, V>()
  return {
    get(key: K): V | undefined {
      if (!map.has(key)) return undefined
      const value = map.get(key) as V
      map.delete(key)
      map.set(key, value)
      return value
    },
    set(key: K, value: V) {
      map.delete(key)
      map.set(key, value)
      if (map.size > maxEntries) map.delete(map.keys().next().value as K)
    },
    has: (key: K) => map.has(key),
    get size() {
      return map.size
    },
  }
}
