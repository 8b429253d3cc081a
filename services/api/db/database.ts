export type Queryable = { query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]> }

/** What a prepared statement takes: text, integers, or null. */
export type PreparedParam = string | number | bigint | null

/** The service's database: embedded PGlite or a PostgreSQL server, with one interface and the same SQL. */
export type Database = Queryable & {
  /**
   * Runs the statement `sql` under `name` (lower case letters, digits, `_`), parsed and planned once per connection:
   * for the hot reads, where parsing and planning cost as much as running. The same name must always carry the same SQL.
   * @example await db.prepared('names_by_address', 'select name from names where lower(address) = $1', [address])
   */
  prepared<T = Record<string, unknown>>(name: string, sql: string, params: readonly PreparedParam[]): Promise<T[]>
  /** Runs `run` in one transaction: everything it writes lands, or nothing does. */
  transaction<T>(run: (tx: Queryable) => Promise<T>): Promise<T>
  close(): Promise<void>
  kind: 'pglite' | 'postgres'
  /**
   * PostgreSQL only: a connection of its own, outside the pool, for what lives as long as a connection does (a
   * session's advisory lock). PGlite is one process's: there is nothing to share, so it has none.
   */
  openConnection?: () => Promise<DatabaseConnection>
}

/** One connection to PostgreSQL, outside the pool (see `Database.openConnection`). */
export type DatabaseConnection = Queryable & {
  /** Called once when the connection is lost: the server ended it, or it failed. Not called after close(). */
  onLost(listener: (error: Error) => void): void
  close(): Promise<void>
}
