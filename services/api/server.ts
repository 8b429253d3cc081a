import { listen } from '../listen'
import { createApiApp } from './app'
import { escapeForLog, resolveLimits, type ApiConfig } from './config'
import { createVacuumSchedule } from './db/vacuumSchedule'
import { createIndexer, type Indexer } from './indexer'
import { createHistoryCache, HISTORY_CACHE_MS } from './routes/historyCache'

export type ApiServer = { url: string; indexers: Indexer[]; stop: () => Promise<void> }

/**
 * Starts the data service on host:port, with one indexer per configured chain, and resolves once it listens.
 * stop() ends the indexers, the server and the database.
 */
export async function startApiServer({ host = '127.0.0.1', port, indexerPollIntervalMs = 1_000, ...config }: ApiConfig & { host?: string; port: number; indexerPollIntervalMs?: number }): Promise<ApiServer> {
  const { log = console.error } = config
  const limits = resolveLimits(config.limits)
  // What the indexers write or drop changes history: they and the app share its cache.
  const historyCache = config.historyCache ?? createHistoryCache({ maxBytes: limits.historyCacheBytes, ttlMs: HISTORY_CACHE_MS })
  const app = createApiApp({ ...config, historyCache })
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
  const server = await listen({ fetch: app.fetch, host, port, limits })
  for (const indexer of indexers) indexer.start()
  return {
    url: `http://${host}:${port}`,
    indexers,
    async stop() {
      await Promise.all(indexers.map((i) => i.stop()))
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await vacuum.idle()
      await config.db.close()
    },
  }
}
