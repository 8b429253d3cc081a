import type { Queryable } from '../api/db/createDatabase'

export type Allowance = { key: string; max: number; windowMs: number }

/** What a refused allowance says: how long until its window ends. */
export type Exceeded = { retryAfterMs: number }

/** The tables of fixed windows: the auth service's, and the data service's hosted RPC endpoint's. */
export type RateWindowsTable = 'auth_rate_windows' | 'rpc_rate_windows'

const windowOf = (nowMs: number, windowMs: number) => Math.floor(nowMs / windowMs) * windowMs

/**
 * Fixed-window counters kept in the database, so every instance of the service counts together.
 * `check` looks without counting; `count` adds one to each and answers the first that is now past its max.
 */
export function createAllowances(db: Queryable, now: () => number, { table = 'auth_rate_windows' }: { table?: RateWindowsTable } = {}) {
  return {
    async check(allowances: readonly Allowance[]): Promise<Exceeded | undefined> {
      const nowMs = now()
      for (const { key, max, windowMs } of allowances) {
        const start = windowOf(nowMs, windowMs)
        const [row] = await db.query<{ count: number }>(`select count from ${table} where key = $1 and window_start = $2`, [key, start])
        if (row && Number(row.count) >= max) return { retryAfterMs: start + windowMs - nowMs }
      }
      return undefined
    },
    async count(allowances: readonly Allowance[]): Promise<Exceeded | undefined> {
      const nowMs = now()
      let exceeded: Exceeded | undefined
      for (const { key, max, windowMs } of allowances) {
        const start = windowOf(nowMs, windowMs)
        const [row] = await db.query<{ count: number }>(
          `insert into ${table} (key, window_start, window_end, count) values ($1, $2, $3, 1)
           on conflict (key, window_start) do update set count = ${table}.count + 1 returning count`,
          [key, start, start + windowMs],
        )
        if (!exceeded && Number(row!.count) > max) exceeded = { retryAfterMs: start + windowMs - nowMs }
      }
      return exceeded
    },
  }
}

/**
 * The spec's e-mail throttle (SPEC §5, §9): one code e-mail per address and purpose (sign-in, e-mail change) per
 * `cooldownMs`. Takes the slot atomically (two requests at once cannot both pass), or answers how long until it frees.
 */
export async function claimEmailSlot(db: Queryable, { key, nowMs, cooldownMs }: { key: string; nowMs: number; cooldownMs: number }): Promise<{ ok: true; release: () => Promise<void> } | { ok: false; remainingMs: number }> {
  const claimed = await db.query(
    `insert into auth_email_sends (key, last_sent_at) values ($1, $2)
     on conflict (key) do update set last_sent_at = excluded.last_sent_at where auth_email_sends.last_sent_at <= $3
     returning key`,
    [key, nowMs, nowMs - cooldownMs],
  )
  if (claimed.length) {
    // A mail that could not be sent gives its slot back, so the person may ask again at once.
    return { ok: true, release: async () => void (await db.query('delete from auth_email_sends where key = $1 and last_sent_at = $2', [key, nowMs])) }
  }
  const [row] = await db.query<{ last_sent_at: number }>('select last_sent_at from auth_email_sends where key = $1', [key])
  return { ok: false, remainingMs: Number(row?.last_sent_at ?? nowMs) + cooldownMs - nowMs }
}

/**
 * Requests per IP per minute, in memory (one instance's view): a token bucket per IP, at most `entries` IPs kept
 * (the least recently seen dropped first), so a flood of addresses cannot grow it.
 */
export function createRequestLimiter({ perMinute, entries, now }: { perMinute: number; entries: number; now: () => number }) {
  const buckets = new Map<string, { tokens: number; at: number }>()
  return {
    /** Takes one request for `ip`; answers false when its bucket is empty. */
    take(ip: string) {
      const nowMs = now()
      const bucket = buckets.get(ip) ?? { tokens: perMinute, at: nowMs }
      buckets.delete(ip)
      bucket.tokens = Math.min(perMinute, bucket.tokens + ((nowMs - bucket.at) * perMinute) / 60_000)
      bucket.at = nowMs
      const isAllowed = bucket.tokens >= 1
      if (isAllowed) bucket.tokens -= 1
      buckets.set(ip, bucket)
      while (buckets.size > entries) buckets.delete(buckets.keys().next().value!)
      return isAllowed
    },
    get size() {
      return buckets.size
    },
  }
}
