import { mkdirSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { migrate } from './migrations'

export type Queryable = { query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]> }

/** The service's database: embedded PGlite or a PostgreSQL server, with one interface and the same SQL. */
export type Database = Queryable & {
  /** Runs `run` in one transaction: everything it writes lands, or nothing does. */
  transaction<T>(run: (tx: Queryable) => Promise<T>): Promise<T>
  close(): Promise<void>
  kind: 'pglite' | 'postgres'
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true })
  const db = await PGlite.create(dataDir)
  const query = async <T>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params)).rows
  return {
    kind: 'pglite',
    query,
    transaction: (run) => db.transaction((tx) => run({ query: async <T>(sql: string, params: unknown[] = []) => (await tx.query<T>(sql, params)).rows })),
    close: () => db.close(),
  }
}

async function openPostgres(connectionString: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: 8 })
  await pool.query('select 1')
  return {
    kind: 'postgres',
    query: async <T>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[],
    async transaction(run) {
      const client = await pool.connect()
      try {
        await client.query('begin')
        const result = await run({ query: async <T>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as T[] })
        await client.query('commit')
        return result
      } catch (error) {
        await client.query('rollback')
        throw error
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}

/**
 * Opens the database and brings its schema up to date: a PostgreSQL server when `databaseUrl` is set, else
 * embedded PGlite (file-backed in `dataDir`, in memory without one).
 */
export async function openDatabase({ databaseUrl, dataDir }: { databaseUrl?: string; dataDir?: string }): Promise<Database> {
  const db = databaseUrl ? await openPostgres(databaseUrl) : await openPglite(dataDir)
  await migrate(db)
  return db
}
