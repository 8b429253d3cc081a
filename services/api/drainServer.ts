import type { ServerType } from '@hono/node-server'

/** How often a draining server closes the keep-alive connections that went idle since. */
const IDLE_SWEEP_MS = 50

/**
 * Stops `server` taking connections and resolves once the requests under way are answered, or once `graceMs` passed:
 * then the connections still open (a long poll, a client that never finishes) are closed. A keep-alive connection is
 * closed as soon as it is idle, so its client opens its next request elsewhere.
 * @example await drainServer(server, { graceMs: 5_000 })
 */
export async function drainServer(server: ServerType, { graceMs }: { graceMs: number }) {
  const http = server as ServerType & { closeAllConnections?: () => void; closeIdleConnections?: () => void }
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  http.closeIdleConnections?.()
  const sweep = setInterval(() => http.closeIdleConnections?.(), IDLE_SWEEP_MS)
  const deadline = setTimeout(() => http.closeAllConnections?.(), graceMs)
  await closed
  clearInterval(sweep)
  clearTimeout(deadline)
}
