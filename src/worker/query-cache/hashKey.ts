/** A stable string for a query key: object keys sorted, bigints kept apart from numbers. */
export function hashKey(key: readonly unknown[]): string {
  return JSON.stringify(key, (_k, value: unknown) => {
    if (typeof value === 'bigint') return { $bigint: value.toString() }
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
    }
    return value
  })
}
