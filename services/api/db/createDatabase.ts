import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
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

/**
 * PGlite's memory: PostgreSQL's defaults size its buffer cache for a server (shared_buffers 128 MB, inside the WASM
 * heap, which never shrinks), and the data service idled at about 880 MB RSS with them. A small cache is enough: the
 * pages it misses are read from the operating system's file cache, and history reads a few pages per request.
 */
export const PGLITE_MEMORY_SETTINGS = ['shared_buffers=16MB', 'wal_buffers=512kB', 'temp_buffers=1MB', 'work_mem=2MB', 'maintenance_work_mem=16MB'] as const

/**
 * Makes a new PGlite data directory in a process of its own: initdb runs in a second WASM heap and leaves hundreds of
 * MB resident in the process that ran it (the data service idled at about 800 MB after its first start, 300 MB after
 * the next).
 */
function createPgliteDataDir(dataDir: string) {
  const pglite = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href
  const script = `const { PGlite } = await import(${JSON.stringify(pglite)}); const db = await PGlite.create(process.argv[1]); await db.close()`
  execFileSync(process.execPath, ['--input-type=module', '-e', script, dataDir], { stdio: 'inherit' })
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true })
    if (!existsSync(join(dataDir, 'PG_VERSION'))) createPgliteDataDir(dataDir)
  }
  const db = await PGlite.create(dataDir, { startParams: [...PGlite.defaultStartParams, ...PGLITE_MEMORY_SETTINGS.flatMap((setting) => ['-c', setting])] })
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
