import { serve, type ServerType } from '@hono/node-server'
import { createApiApp, type ApiConfig } from './app'

export type ApiServer = { url: string; stop: () => Promise<void> }

/** Starts the data service on host:port and resolves once it listens. */
export async function startApiServer({ host = '127.0.0.1', port, ...config }: ApiConfig & { host?: string; port: number }): Promise<ApiServer> {
  const app = createApiApp(config)
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(s))
    s.once('error', reject)
  })
  return {
    url: `http://${host}:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
