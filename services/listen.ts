import { serve, type ServerType } from '@hono/node-server'

/** What a service bounds of its clients' connections. */
export type ConnectionLimits = { headersTimeoutMs: number; requestTimeoutMs: number; maxConnections: number }

/**
 * Serves a Hono app on host:port and resolves once it listens. Slow clients are cut off (a client that dribbles its
 * headers or body) and connections are bounded, so idle or slowloris sockets cannot pile up (Node's defaults are 60 s
 * for headers, 300 s per request, checked every 30 s, and no cap on connections).
 * @example const server = await listen({ fetch: app.fetch, host: '127.0.0.1', port: 8787, limits })
 */
export async function listen({ fetch, host, port, limits }: { fetch: Parameters<typeof serve>[0]['fetch']; host: string; port: number; limits: ConnectionLimits }): Promise<ServerType> {
  const serverOptions = {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    keepAliveTimeout: 5_000,
  }
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch, hostname: host, port, serverOptions }, () => resolve(s))
    s.once('error', reject)
  })
  ;(server as ServerType & { maxConnections: number }).maxConnections = limits.maxConnections
  return server
}
