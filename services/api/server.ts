import { listen } from '../listen'
import { createApiApp } from './app'
import { escapeForLog, resolveLimits, type ApiConfig } from './config'
import { createLeaderLock, type LeaderRole } from './db/leaderLock'
import { createVacuumSchedule } from './db/vacuumSchedule'
import { drainServer } from './drainServer'
import { createIndexer, type Indexer } from './indexer'
import { createHistoryCache, HISTORY_CACHE_MS } from './routes/historyCache'

/** The advisory lock the instance that indexes holds (one per database). */
export const INDEXER_LOCK = 'tessera:indexer'

export type ApiServer = {
  url: string
  indexers: Indexer[]
  /** Whether this instance indexes (`leader`) or leaves it to another (`follower`); undefined with no chain to index. */
  readonly indexerRole: LeaderRole | undefined
  /** Drains: stops taking requests, answers those under way (up to `drainMs`), stops indexing, closes the database. */
  stop: () => Promise<void>
}

export type StartApiServerParameters = ApiConfig & {
  host?: string
  port: number
  indexerPollIntervalMs?: number
  /** How often an instance that does not index tries to take over (and the one that does checks it still may). */
  leaderRetryMs?: number
  /** On stop(), how long requests under way have to finish before their connections are closed. */
  drainMs?: number
}

/**
 * Starts the data service on host:port and resolves once it listens. Of the instances on one database, one indexes
 * the configured chains: the one holding the PostgreSQL advisory lock INDEXER_LOCK (createLeaderLock); another takes
 * over within `leaderRetryMs` (plus about 5 s for a host that vanished) once it is gone. On PGlite it simply indexes.
 * Names, sessions, sign-in nonces (their key and the spent ones), analytics, on-ramp orders and the index are in the
 * database; an instance keeps to itself only what may lag the others for a stated time, each bounded: history pages
 * (HISTORY_CACHE_MS), balances (30 s, unless `forceUpdate`), swap quotes and reserves (one block), on-ramp options and
 * catalogs (a minute), when it last asked a provider about an order (3 s).
 * @example const server = await startApiServer({ db, projects, chains, port: 8787 }); … await server.stop()
 */
export async function startApiServer({ host = '127.0.0.1', port, indexerPollIntervalMs = 1_000, leaderRetryMs = 2_000, drainMs = 5_000, ...config }: StartApiServerParameters): Promise<ApiServer> {
  const { log = console.error } = config
  const limits = resolveLimits(config.limits)
  // What the indexers write or drop changes history: they and the app share its cache. Other instances' caches see
  // it within HISTORY_CACHE_MS.
  const historyCache = config.historyCache ?? createHistoryCache({ maxBytes: limits.historyCacheBytes, ttlMs: HISTORY_CACHE_MS })
  const vacuum = createVacuumSchedule({ db: config.db, onError: (error) => log(escapeForLog(`vacuum transfers: ${(error as Error)?.message ?? String(error)}`)) })
  // An RPC's error text is not ours: escaped like request text, so it stays one line.
  const indexers = config.chains.map((chain) =>
    createIndexer({
      db: config.db,
      chain,
      pollIntervalMs: indexerPollIntervalMs,
      onError: (error) => log(escapeForLog(`indexer eip155:${chain.chainId}: ${(error as Error)?.message ?? String(error)}`)),
      onRollback: ({ reason, fromBlock }) => {
        historyCache.invalidate()
        log(`indexer eip155:${chain.chainId}: ${reason === 'reset' ? 'the chain was reset' : 'a reorganisation'}: history dropped from block ${fromBlock} on and indexed again`)
      },
      onIndexed: ({ transfers }) => {
        if (transfers > 0) historyCache.invalidate()
        vacuum.written(transfers)
      },
    }),
  )
  const isShared = config.db.openConnection !== undefined
  const leadership =
    indexers.length === 0
      ? undefined
      : createLeaderLock({
          db: config.db,
          name: INDEXER_LOCK,
          retryMs: leaderRetryMs,
          onLead() {
            if (isShared) log('data service: this instance holds the indexer lock and indexes')
            for (const indexer of indexers) indexer.start()
          },
          async onFollow() {
            await Promise.all(indexers.map((indexer) => indexer.stop()))
          },
          onError: (error) => log(escapeForLog(`data service: indexer lock: ${(error as Error)?.message ?? String(error)}`)),
        })
  let isDraining = false
  const app = createApiApp({
    ...config,
    historyCache,
    instance: {
      get indexerRole() {
        return leadership?.role
      },
      get isDraining() {
        return isDraining
      },
    },
  })
  const server = await listen({ fetch: app.fetch, host, port, limits })
  leadership?.start()
  return {
    url: `http://${host}:${port}`,
    indexers,
    get indexerRole() {
      return leadership?.role
    },
    async stop() {
      isDraining = true
      await Promise.all([drainServer(server, { graceMs: drainMs }), leadership?.stop()])
      await vacuum.idle()
      await config.db.close()
    },
  }
}
