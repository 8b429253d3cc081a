import type { Queryable } from './db/createDatabase'
import { withTimeout } from './withTimeout'

export type CheckReadyParameters = {
  db: Queryable
  /** True once the instance is shutting down: a load balancer should send it nothing new. */
  isDraining: boolean
  /** How long the database has to answer. */
  timeoutMs?: number
}

export type ReadyAnswer = { isReady: true } | { isReady: false; reason: string }

/**
 * Whether an instance should be sent requests (`GET /ready`): it is not shutting down and its database answers a
 * query within `timeoutMs`. Otherwise says why, in a sentence for the operator.
 * @example const ready = await checkReady({ db, isDraining: false }); if (!ready.isReady) log(ready.reason)
 */
export async function checkReady({ db, isDraining, timeoutMs = 2_000 }: CheckReadyParameters): Promise<ReadyAnswer> {
  if (isDraining) return { isReady: false, reason: 'The instance is shutting down' }
  try {
    await withTimeout(db.query('select 1'), timeoutMs, 'A query')
    return { isReady: true }
  } catch (error) {
    return { isReady: false, reason: `The database did not answer: ${(error as Error)?.message ?? String(error)}` }
  }
}
