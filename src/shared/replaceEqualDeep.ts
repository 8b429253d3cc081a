const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype

/**
 * Structural sharing (as in TanStack Query): returns `prev` itself, or new containers that reuse every
 * sub-tree of `prev` equal to the one in `next`, so unchanged data keeps its identity.
 */
export function replaceEqualDeep<T>(prev: unknown, next: T): T {
  if (prev === next) return prev as T
  const bothArrays = Array.isArray(prev) && Array.isArray(next)
  if (!bothArrays && !(isPlainObject(prev) && isPlainObject(next))) return next
  const prevObject = prev as Record<string, unknown>
  const nextObject = next as Record<string, unknown>
  const keys = Object.keys(nextObject)
  const result: Record<string, unknown> = bothArrays ? [] as unknown as Record<string, unknown> : {}
  let equalCount = 0
  for (const key of keys) {
    result[key] = replaceEqualDeep(prevObject[key], nextObject[key])
    if (result[key] === prevObject[key] && (key in prevObject)) equalCount++
  }
  return (Object.keys(prevObject).length === keys.length && equalCount === keys.length ? prev : result) as T
}
