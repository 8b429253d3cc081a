import type { ServerType } from '@hono/node-server'
import { listen } from '../listen'
import { escapeForLog } from '../api/config'
import type { Queryable } from '../api/db/createDatabase'
import { createAuthApp } from './app'
import { resolveAuthLimits, type AuthConfig } from './config'

export type AuthServer = { url: string; stop: () => Promise<void> }

/** Deletes what has expired: flows, sessions, rate windows and throttle slots. */
export async function pruneAuthTables(db: Queryable, { nowMs, cooldownMs }: { nowMs: number; cooldownMs: number }) {
  await db.query('delete from auth_email_flows where expires_at <= $1', [nowMs])
  await db.query('delete from auth_login_flows where expires_at <= $1', [nowMs])
  await db.query('delete from auth_sessions where expires_at <= $1', [nowMs])
  await db.query('delete from auth_rate_windows where window_end <= $1', [nowMs])
  await db.query('delete from auth_email_sends where last_sent_at <= $1', [nowMs - cooldownMs])
}

/**
 * Starts the auth service on host:port and resolves once it listens; expired rows are pruned every
 * `limits.pruneIntervalMs`. stop() ends the server and the mailer, not the database (the data service shares it).
 * @example const auth = await startAuthServer({ port: 8791, db, publicUrl, frameOrigins, projects, mailer })
 */
export async function startAuthServer({ host = '127.0.0.1', port, ...config }: AuthConfig & { host?: string; port: number }): Promise<AuthServer> {
  const { log = console.error, now = Date.now } = config
  const limits = resolveAuthLimits(config.limits)
  const app = await createAuthApp(config)
  const prune = () => pruneAuthTables(config.db, { nowMs: now(), cooldownMs: limits.resendCooldownMs }).catch((error: unknown) => log(escapeForLog(`auth service: pruning failed: ${(error as Error)?.message ?? String(error)}`)))
  await prune()
  const server = await listen({ fetch: app.fetch, host, port, limits })
  const pruneTimer = setInterval(() => void prune(), limits.pruneIntervalMs)
  pruneTimer.unref()
  const bound = (server.address() as { port: number }).port
  return {
    url: `http://${host}:${bound}`,
    async stop() {
      clearInterval(pruneTimer)
      // Long polls would hold close() for up to their 25 s: end every connection now.
      ;(server as ServerType & { closeAllConnections?: () => void }).closeAllConnections?.()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      config.mailer.close()
    },
  }
}
