import { serve, type ServerType } from '@hono/node-server'
import { createApiApp } from './app'
import type { ApiConfig } from './config'
import { createIndexer, type Indexer } from './indexer'

export type ApiServer = { url: string; indexers: Indexer[]; stop: () => Promise<void> }

/**
 * Starts the data service on host:port, with one indexer per configured chain, and resolves once it listens.
 * stop() ends the indexers, the server and the database.
 */
export async function startApiServer({ host = '127.0.0.1', port, indexerPollIntervalMs = 1_000, ...config }: ApiConfig & { host?: string; port: number; indexerPollIntervalMs?: number }): Promise<ApiServer> {
  const app = createApiApp(config)
  const indexers = config.chains.map((chain) =>
    createIndexer({ db: config.db, chain, pollIntervalMs: indexerPollIntervalMs, onError: (error) => console.error(`indexer eip155:${chain.chainId}: ${(error as Error).message}`) }),
  )
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(s))
    s.once('error', reject)
  })
  for (const indexer of indexers) indexer.start()
  return {
    url: `http://${host}:${port}`,
    indexers,
    async stop() {
      await Promise.all(indexers.map((i) => i.stop()))
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await config.db.close()
    },
  }
}
