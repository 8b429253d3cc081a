import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import type { Database, DatabaseConnection, PreparedParam } from './database'
import { migrate } from './migrations'

export type { Database, DatabaseConnection, PreparedParam, Queryable } from './database'

/**
 * PGlite's memory: PostgreSQL's defaults size its buffer cache for a server (shared_buffers 128 MB, inside the WASM
 * heap, which never shrinks), and the data service idled at about 880 MB RSS with them. A small cache is enough: the
 * pages it misses are read from the operating system's file cache, and history reads a few pages per request.
 */
export const PGLITE_MEMORY_SETTINGS = ['shared_buffers=16MB', 'wal_buffers=512kB', 'temp_buffers=1MB', 'work_mem=2MB', 'maintenance_work_mem=16MB'] as const

/**
 * V8's WASM code for PGlite: V8 compiles PostgreSQL's WASM quickly (Liftoff), then optimises (TurboFan) each function
 * that has run enough. With V8's default budget, start-up and migrations alone optimise hundreds of functions, held
 * idle (the data service idled at about 210 MB instead of 160). Optimising none (Liftoff only) halves what a history
 * page costs in the database once its pages come from the index (1,100 against 1,900–2,100 statements a second). A
 * budget 550 times V8's leaves start-up on Liftoff and optimises what a busy service runs again and again: 160 MB idle
 * and the optimised throughput (`npm run bench:api`). Set before PGlite compiles its module; it applies to the whole
 * process (WASM compiled later too).
 */
export const PGLITE_V8_FLAGS = ['--wasm-tiering-budget=1000000000'] as const

/**
 * A value as an SQL literal, for EXECUTE over PGlite's simple protocol: text as an escape string (quotes and
 * backslashes doubled, so standard_conforming_strings does not matter), integers as digits. Anything else is refused.
 * @example sqlLiteral("it's") // "E'it''s'"
 */
export function sqlLiteral(value: PreparedParam): string {
  if (value === null) return 'null'
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new TypeError(`sqlLiteral: ${value} is not a safe integer`)
    return String(value)
  }
  if (typeof value !== 'string' || value.includes('\0')) throw new TypeError('sqlLiteral: only text without NUL, integers and null')
  return `E'${value.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`
}

const PREPARED_NAME = /^[a-z_][a-z0-9_]{0,62}$/
const checkStatementName = (name: string) => {
  if (!PREPARED_NAME.test(name)) throw new TypeError(`prepared: ${name} is not a statement name`)
}

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
  for (const flag of PGLITE_V8_FLAGS) setFlagsFromString(flag)
  const db = await PGlite.create(dataDir, { startParams: [...PGlite.defaultStartParams, ...PGLITE_MEMORY_SETTINGS.flatMap((setting) => ['-c', setting])] })
  const query = async <T>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params)).rows
  // PGlite's query() costs six protocol round trips into the WASM and a parse and plan each time; a statement
  // prepared once and run with EXECUTE over the simple protocol costs one, and no planning.
  const statements = new Map<string, Promise<unknown>>()
  const prepare = (name: string, sql: string) => {
    let prepared = statements.get(name)
    if (!prepared) {
      prepared = db.exec(`prepare ${name} as ${sql}`)
      statements.set(name, prepared)
      prepared.catch(() => statements.delete(name))
    }
    return prepared
  }
  return {
    kind: 'pglite',
    query,
    async prepared<T>(name: string, sql: string, params: readonly PreparedParam[]) {
      checkStatementName(name)
      const literals = params.map(sqlLiteral)
      await prepare(name, sql)
      const [result] = await db.exec(literals.length ? `execute ${name}(${literals.join(', ')})` : `execute ${name}`)
      return (result?.rows ?? []) as T[]
    },
    transaction: (run) => db.transaction((tx) => run({ query: async <T>(sql: string, params: unknown[] = []) => (await tx.query<T>(sql, params)).rows })),
    close: () => db.close(),
  }
}

/** One PostgreSQL connection outside the pool; it tells its listener once when the server ends it or it fails. */
async function openPostgresConnection(connectionString: string): Promise<DatabaseConnection> {
  const client = new pg.Client({ connectionString, keepAlive: true })
  let lostWith: Error | undefined
  let onLost = (_error: Error) => {}
  const lose = (error: Error) => {
    if (lostWith) return
    lostWith = error
    onLost(error)
  }
  client.on('error', lose)
  client.on('end', () => lose(new Error('The connection to PostgreSQL ended')))
  await client.connect()
  return {
    query: async <T>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as T[],
    onLost(listener) {
      onLost = listener
      if (lostWith) listener(lostWith)
    },
    async close() {
      lostWith ??= new Error('closed')
      await client.end()
    },
  }
}

async function openPostgres(connectionString: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: 8 })
  // An idle pooled connection that the server ended (a restart, a terminated backend) is dropped by the pool and the
  // next query opens another; without a listener, its 'error' event would end the process.
  pool.on('error', () => {})
  await pool.query('select 1')
  return {
    kind: 'postgres',
    openConnection: () => openPostgresConnection(connectionString),
    query: async <T>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[],
    // node-postgres prepares a named statement once per pooled connection.
    prepared: async <T>(name: string, sql: string, params: readonly PreparedParam[]) => {
      checkStatementName(name)
      return (await pool.query({ name, text: sql, values: params.map((p) => (typeof p === 'bigint' ? p.toString() : p)) })).rows as T[]
    },
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
