import type { Database } from './createDatabase'

/** Transfers written between two vacuums of the table on PGlite. */
export const VACUUM_AFTER_TRANSFERS = 10_000

/**
 * Keeps history reads index-only on PGlite: an index-only scan reads a row from the table unless the row's page is
 * marked all-visible, which VACUUM does. PostgreSQL's autovacuum marks pages as rows arrive; PGlite runs no autovacuum,
 * so the data service vacuums `transfers` (and refreshes its statistics) once `afterTransfers` new rows were written,
 * one vacuum at a time. On PostgreSQL it does nothing.
 * @example const vacuum = createVacuumSchedule({ db, onError: log }); indexer onIndexed: vacuum.written(transfers)
 */
export function createVacuumSchedule({ db, afterTransfers = VACUUM_AFTER_TRANSFERS, onError = () => {} }: { db: Pick<Database, 'kind' | 'query'>; afterTransfers?: number; onError?: (error: unknown) => void }) {
  let pending = 0
  let running: Promise<void> | undefined
  const vacuum = async () => {
    pending = 0
    try {
      await db.query('vacuum (analyze) transfers')
    } catch (error) {
      onError(error)
    } finally {
      running = undefined
    }
  }
  return {
    /** Counts `transfers` new rows, and starts a vacuum when enough have been written since the last. */
    written(transfers: number) {
      if (db.kind !== 'pglite') return
      pending += transfers
      if (pending >= afterTransfers && !running) running = vacuum()
    },
    /** Resolves once the vacuum under way, if any, is over. */
    idle: () => running ?? Promise.resolve(),
  }
}
