import { createAllowances, type Exceeded } from '../../auth/rateLimits'
import type { Database } from '../db/createDatabase'

export type CreateProjectRateLimitParameters = {
  db: Database
  /** Requests a project may make per window. */
  max: number
  windowMs: number
  now: () => number
  /** Told when expired windows could not be deleted (the next window tries again). */
  onPruneError: (error: unknown) => void
}

/**
 * Requests per project of the hosted RPC endpoint, counted in fixed windows in the database (the auth service's
 * allowances, services/auth/rateLimits.ts, on the data service's own `rpc_rate_windows`), so every instance of the data
 * service on one database counts together. Each instance deletes expired windows once a window.
 * @example const take = createProjectRateLimit({ db, max: 6_000, windowMs: 60_000, now: Date.now, onPruneError: log }); const exceeded = await take('my-site')
 */
export function createProjectRateLimit({ db, max, windowMs, now, onPruneError }: CreateProjectRateLimitParameters) {
  const allowances = createAllowances(db, now, { table: 'rpc_rate_windows' })
  let prunedUntil = 0
  const prune = (nowMs: number) => {
    if (nowMs < prunedUntil) return
    prunedUntil = nowMs + windowMs
    db.query('delete from rpc_rate_windows where window_end <= $1', [nowMs]).catch(onPruneError)
  }
  /** Counts one request of `projectId`; answers how long until its window ends when it is past the limit. */
  return async (projectId: string): Promise<Exceeded | undefined> => {
    const exceeded = await allowances.count([{ key: projectId, max, windowMs }])
    prune(now())
    return exceeded
  }
}
