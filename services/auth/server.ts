import { listen } from '../listen'
import { escapeForLog } from '../api/config'
import { drainServer } from '../api/drainServer'
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
 * `limits.pruneIntervalMs`. Every instance on one database shares codes, throttles, allowances and sessions (all in
 * the database). stop() drains: `/ready` answers 503, long polls end at once (the frame asks again), requests under
 * way have `drainMs` to finish; then the mailer is closed, not the database (the data service shares it).
 * @example const auth = await startAuthServer({ port: 8791, db, publicUrl, frameOrigins, projects, mailer })
 */
export async function startAuthServer({ host = '127.0.0.1', port, drainMs = 5_000, ...config }: AuthConfig & { host?: string; port: number; drainMs?: number }): Promise<AuthServer> {
  const { log = console.error, now = Date.now } = config
  const limits = resolveAuthLimits(config.limits)
  let isDraining = false
  const app = await createAuthApp({
    ...config,
    instance: {
      get isDraining() {
        return isDraining
      },
    },
  })
  const prune = () => pruneAuthTables(config.db, { nowMs: now(), cooldownMs: limits.resendCooldownMs }).catch((error: unknown) => log(escapeForLog(`auth service: pruning failed: ${(error as Error)?.message ?? String(error)}`)))
  await prune()
  const server = await listen({ fetch: app.fetch, host, port, limits })
  const pruneTimer = setInterval(() => void prune(), limits.pruneIntervalMs)
  pruneTimer.unref()
  const bound = (server.address() as { port: number }).port
  return {
    url: `http://${host}:${bound}`,
    async stop() {
      isDraining = true
      clearInterval(pruneTimer)
      await drainServer(server, { graceMs: drainMs })
      config.mailer.close()
    },
  }
}
