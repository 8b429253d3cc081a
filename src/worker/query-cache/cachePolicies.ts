/** How long data of a kind stays fresh, how long it is kept unused, and whether it survives a reload. */
export type CachePolicy = { staleTimeMs: number; gcTimeMs: number; isPersisted: boolean }

const SECOND_MS = 1_000
const MINUTE_MS = 60 * SECOND_MS

/**
 * Cache policies by kind (the first element of a query key). TTLs from SPEC §9; the persisted kinds are the caches of
 * SPEC §3 (balance, portfolio, native balance, name-service names, identity, preferred account types).
 */
export const cachePolicies = {
  balance: { staleTimeMs: 30 * SECOND_MS, gcTimeMs: 10 * MINUTE_MS, isPersisted: true },
  portfolio: { staleTimeMs: 30 * SECOND_MS, gcTimeMs: 10 * MINUTE_MS, isPersisted: true },
  nativeBalance: { staleTimeMs: 30 * SECOND_MS, gcTimeMs: 10 * MINUTE_MS, isPersisted: true },
  names: { staleTimeMs: 5 * MINUTE_MS, gcTimeMs: 30 * MINUTE_MS, isPersisted: true },
  identity: { staleTimeMs: 5 * MINUTE_MS, gcTimeMs: 30 * MINUTE_MS, isPersisted: true },
  // Not timed by the spec: it changes only when the user changes it, so it is kept as long as names.
  preferredAccountTypes: { staleTimeMs: 5 * MINUTE_MS, gcTimeMs: 30 * MINUTE_MS, isPersisted: true },
  supportedChains: { staleTimeMs: 60 * MINUTE_MS, gcTimeMs: 60 * MINUTE_MS, isPersisted: false },
  walletList: { staleTimeMs: 5 * MINUTE_MS, gcTimeMs: 30 * MINUTE_MS, isPersisted: false },
  history: { staleTimeMs: 30 * SECOND_MS, gcTimeMs: 10 * MINUTE_MS, isPersisted: false },
  prices: { staleTimeMs: 30 * SECOND_MS, gcTimeMs: 10 * MINUTE_MS, isPersisted: false },
} as const satisfies Record<string, CachePolicy>

export type CacheKind = keyof typeof cachePolicies

/** A cached query's key: its kind first (which sets its lifetimes), then what identifies it. */
export type QueryKey = readonly [CacheKind, ...unknown[]]

/** Persisted entries older than this are dropped on load, whatever their kind. */
export const PERSISTED_MAX_AGE_MS = 24 * 60 * MINUTE_MS
