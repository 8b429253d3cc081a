import type { Database, Queryable } from './database'

/** The advisory lock every schema change takes: the data service's and the auth service's lists alike. */
const MIGRATIONS_LOCK = 'tessera:migrations'

export type ApplyMigrationsParameters = {
  /** Where the applied versions are recorded (1 for the list's first entry). */
  versionsTable: string
  /** Schema changes in order; an entry may hold several statements separated by `;`. */
  migrations: readonly string[]
}

/**
 * Applies the migrations `versionsTable` does not record yet, each in a transaction of its own. Instances that start
 * together on one PostgreSQL take turns: each transaction first takes one advisory lock, then looks again whether its
 * version is in, so every version runs once, whichever instance gets there first.
 * @example await applyMigrations(db, { versionsTable: 'schema_migrations', migrations })
 */
export async function applyMigrations(db: Database, { versionsTable, migrations }: ApplyMigrationsParameters) {
  const underLock = (run: (tx: Queryable) => Promise<unknown>) =>
    db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [MIGRATIONS_LOCK])
      await run(tx)
    })
  // Two `create table if not exists` at once may both try to create it: under the lock they take turns.
  await underLock((tx) => tx.query(`create table if not exists ${versionsTable} (version integer primary key, applied_at timestamptz not null default now())`))
  const applied = new Set((await db.query<{ version: number }>(`select version from ${versionsTable}`)).map((r) => Number(r.version)))
  for (const [index, sql] of migrations.entries()) {
    const version = index + 1
    if (applied.has(version)) continue
    await underLock(async (tx) => {
      if ((await tx.query(`select 1 from ${versionsTable} where version = $1`, [version])).length > 0) return
      for (const statement of sql.split(';').map((s) => s.trim()).filter(Boolean)) await tx.query(statement)
      await tx.query(`insert into ${versionsTable} (version) values ($1)`, [version])
    })
  }
}
