import { getConnInfo } from '@hono/node-server/conninfo'
import { Hono, type Context } from 'hono'
import { checkReady } from '../api/checkReady'
import { escapeForLog } from '../api/config'
import { requestBodyLimit } from '../api/requestBodyLimit'
import { findUnsafeUrl } from '../api/routes/validate'
import { createSession, findSession } from './accounts'
import { resolveAuthLimits, type AuthConfig } from './config'
import { migrateAuth } from './db/migrations'
import { AuthRefusal, developerError, userError } from './errors'
import { createAllowances, claimEmailSlot, createRequestLimiter, type Allowance } from './rateLimits'
import { emailRoutes } from './routes/email'
import { farcasterRoutes } from './routes/farcaster'
import { sessionRoutes } from './routes/session'
import { socialRoutes } from './routes/social'
import { testingRoutes } from './routes/testing'
import { createCodeHasher } from './secrets'
import type { AuthDeps, AuthEnv } from './deps'

/** A load balancer's liveness and readiness checks: never rate limited. */
const probePaths = new Set(['/health', '/ready'])

/** Pages a person opens from a mail or a provider's redirect: not called by the frame, so no Origin or project rules. */
export const pagePaths = new Set(['/v1/social/callback', '/v1/email/device/approve'])

const refuseLimit = (code: 'AUTH_RATE_LIMITED', retryAfterMs: number) =>
  new AuthRefusal(code, { n: Math.max(1, Math.ceil(retryAfterMs / 60_000)) }, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1_000))) })

/**
 * The auth service's HTTP app, behind the secure frame: e-mail one-time codes with device approval, e-mail change,
 * sessions, the auth share, social sign-in by OpenID Connect and Sign In With Farcaster (README: "Auth service").
 * Only the frame's exact origins may call it (CORS), for a known project; bodies are bounded and validated, and a
 * failure answers a generic 500 and one escaped log line. Brings the auth tables up to date first.
 * @example serve({ fetch: (await createAuthApp(config)).fetch, port: 8791 })
 */
export async function createAuthApp(config: AuthConfig): Promise<Hono<AuthEnv>> {
  const { db, now = Date.now, log = console.error } = config
  const limits = resolveAuthLimits(config.limits)
  await migrateAuth(db)
  const hasher = await createCodeHasher(db, config.secret)
  const allowances = createAllowances(db, now)
  const requestLimiter = createRequestLimiter({ perMinute: limits.requestsPerIpPerMinute, entries: limits.rateLimiterEntries, now })
  const frameOrigins = new Set(config.frameOrigins)
  const projects = new Set(config.projects)
  let waiters = 0

  const bearer = (c: Context<AuthEnv>) => /^Bearer ([A-Za-z0-9_-]{43})$/.exec(c.req.header('authorization') ?? '')?.[1]
  const optionalSession = async (c: Context<AuthEnv>) => {
    const token = bearer(c)
    return token ? findSession(db, { token, origin: c.get('origin'), projectId: c.get('projectId'), nowMs: now() }) : undefined
  }
  const deps: AuthDeps = {
    config,
    limits,
    now,
    log,
    hasher,
    optionalSession,
    async requireSession(c) {
      const session = await optionalSession(c)
      if (!session) throw new AuthRefusal('AUTH_SESSION_EXPIRED')
      return session
    },
    openSession: (c, userId, authProvider) =>
      createSession(db, { userId, projectId: c.get('projectId'), origin: c.get('origin'), authProvider, nowMs: now(), ttlMs: limits.sessionTtlMs, maxPerUser: limits.sessionsPerUser }),
    async throttleEmail(c, email, purpose) {
      const counted: Allowance[] = [
        { key: `email-send:address:${email}`, max: limits.emailSendsPerAddress, windowMs: limits.emailSendWindowMs },
        { key: `email-send:ip:${c.get('ip')}`, max: limits.emailSendsPerIp, windowMs: limits.emailSendWindowMs },
      ]
      // SPEC §5: a trigger is first checked against the rate allowance, then the 30 s throttle.
      const exceeded = await allowances.check(counted)
      if (exceeded) throw refuseLimit('AUTH_RATE_LIMITED', exceeded.retryAfterMs)
      const slot = await claimEmailSlot(db, { key: `${purpose}:${email}`, nowMs: now(), cooldownMs: limits.resendCooldownMs })
      if (!slot.ok) {
        const seconds = Math.ceil(slot.remainingMs / 1_000)
        throw new AuthRefusal('EMAIL_LOGIN_THROTTLED', { n: seconds }, { 'retry-after': String(seconds) })
      }
      await allowances.count(counted)
      return slot.release
    },
    async countAttempt(c, kind) {
      const allowance: Allowance =
        kind === 'verify'
          ? { key: `verify:ip:${c.get('ip')}`, max: limits.verifyAttemptsPerIp, windowMs: limits.verifyWindowMs }
          : { key: `login-start:ip:${c.get('ip')}`, max: limits.loginStartsPerIp, windowMs: limits.loginStartWindowMs }
      const exceeded = await allowances.count([allowance])
      if (exceeded) throw refuseLimit('AUTH_RATE_LIMITED', exceeded.retryAfterMs)
    },
    async sendMail(mail) {
      try {
        await config.mailer.send(mail)
      } catch (error) {
        log(escapeForLog(`auth service: a mail could not be sent: ${(error as Error)?.message ?? String(error)}`))
        throw new AuthRefusal('AUTH_EMAIL_NOT_SENT')
      }
    },
    async longPoll(c, step) {
      let result = await step()
      if (result.done) return result.value
      if (waiters >= limits.maxWaiters) return undefined
      waiters++
      try {
        const deadline = performance.now() + limits.longPollMs
        // A draining instance lets its waits go at once: the frame asks again, and a load balancer sends it elsewhere.
        while (performance.now() + limits.pollIntervalMs < deadline && !c.req.raw.signal.aborted && !config.instance?.isDraining) {
          await new Promise((resolve) => setTimeout(resolve, limits.pollIntervalMs))
          result = await step()
          if (result.done) return result.value
        }
        return undefined
      } finally {
        waiters--
      }
    },
  }

  const app = new Hono<AuthEnv>()

  app.use('*', async (c, next) => {
    let ip = 'unknown'
    try {
      ip = getConnInfo(c).remote.address ?? 'unknown'
    } catch {
      // app.request() in tests has no socket
    }
    if (config.trustProxy) ip = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim().slice(0, 64) || ip
    c.set('ip', ip)
    // Every answer to the frame, refusals included, carries its CORS header, so the frame can read why. Set before
    // the answer exists: a header set on a finished answer makes Hono rebuild it around its body stream.
    const origin = c.req.header('origin')
    if (origin && frameOrigins.has(origin) && !pagePaths.has(c.req.path) && c.req.method !== 'OPTIONS') {
      c.header('access-control-allow-origin', origin)
      c.header('vary', 'origin', { append: true })
    }
    if (!probePaths.has(c.req.path)) {
      if (!requestLimiter.take(ip)) return userError(c, 'AUTH_RATE_LIMITED', { n: 1 }, { 'retry-after': '60' })
      // The instance's bucket spares the database a flood; the window in the database holds the allowance across instances.
      const exceeded = await allowances.count([{ key: `requests:ip:${ip}`, max: limits.requestsPerIpPerMinute, windowMs: 60_000 }])
      if (exceeded) throw refuseLimit('AUTH_RATE_LIMITED', exceeded.retryAfterMs)
    }
    await next()
  })

  // Connection: close, because the rest of a refused body is never read: the socket cannot carry another request.
  app.use(
    '*',
    requestBodyLimit({
      maxBytes: limits.bodyBytes,
      onTooLarge: (c) => c.json({ error: { code: 'BODY_TOO_LARGE', message: `The request body is larger than the limit of ${limits.bodyBytes} bytes`, field: 'body' } }, 413, { connection: 'close' }),
    }),
  )

  app.use('*', async (c, next) => {
    const unsafe = findUnsafeUrl(c.req.url)
    if (unsafe) return developerError(c, 400, 'INVALID_INPUT', `${unsafe.field}: ${unsafe.message}`, unsafe.field)
    return next()
  })

  // The frame's API: its exact origins only (the preflight too), for a known project.
  app.use('/v1/*', async (c, next) => {
    if (pagePaths.has(c.req.path)) return next()
    const origin = c.req.header('origin')
    if (!origin || !frameOrigins.has(origin)) {
      if (c.req.method === 'OPTIONS') return c.body(null, 403, { vary: 'origin' })
      const shown = origin && origin.length > 200 ? `${origin.slice(0, 200)}…` : origin
      return c.json({ error: { code: 'ORIGIN_NOT_ALLOWED', message: origin ? `Origin ${shown} is not the secure frame's: only ${[...frameOrigins].join(', ')} may call the auth service` : 'The auth service answers the secure frame only (no Origin header was sent)', field: 'origin' } }, 403, { vary: 'origin' })
    }
    if (c.req.method === 'OPTIONS') {
      return c.body(null, 204, {
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'GET, POST, PUT',
        'access-control-allow-headers': 'content-type, authorization, x-tessera-device',
        'access-control-max-age': '600',
        vary: 'origin',
      })
    }
    c.set('origin', origin)
    const projectId = c.req.query('projectId')
    if (!projectId) return developerError(c, 400, 'PROJECT_ID_MISSING', 'projectId is required', 'projectId')
    if (!projects.has(projectId)) return developerError(c, 403, 'UNKNOWN_PROJECT', `Unknown project id: ${projectId}`, 'projectId')
    c.set('projectId', projectId)
    c.header('cache-control', 'no-store')
    await next()
  })

  app.get('/health', (c) => c.json({ status: 'ok', service: 'tessera-auth', database: db.kind }))
  app.get('/ready', async (c) => {
    const ready = await checkReady({ db, isDraining: config.instance?.isDraining ?? false })
    return ready.isReady ? c.json({ status: 'ready', database: db.kind }) : c.json({ status: 'unavailable', reason: ready.reason }, 503)
  })
  app.route('/', emailRoutes(deps))
  app.route('/', sessionRoutes(deps))
  app.route('/', socialRoutes(deps))
  app.route('/', farcasterRoutes(deps))
  if (config.testRoutes) app.route('/', testingRoutes(deps))

  app.notFound((c) => developerError(c, 404, 'NOT_FOUND', `No route for ${c.req.method} ${c.req.path}`))
  app.onError((error, c) => {
    if (error instanceof AuthRefusal) return userError(c, error.code, error.params, error.headers)
    log(escapeForLog(`auth service: ${c.req.method} ${c.req.path}: ${error.message}`))
    return c.json({ error: { code: 'INTERNAL_ERROR', message: 'The auth service failed to answer this request' } }, 500)
  })
  return app
}
