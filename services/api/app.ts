import { Hono } from 'hono'
import { checkReady } from './checkReady'
import { errorBody, escapeForLog, originNotAllowed, resolveLimits, type ApiConfig } from './config'
import { analyticsRoutes } from './routes/analytics'
import { assetRoutes } from './routes/assets'
import { balanceRoutes } from './routes/balance'
import { convertRoutes } from './routes/convert'
import { historyRoutes } from './routes/history'
import { createHistoryCache, HISTORY_CACHE_MS } from './routes/historyCache'
import { nameRoutes } from './routes/names'
import { onrampRoutes } from './routes/onramp'
import { rpcRoutes } from './routes/rpc'
import { sessionRoutes } from './routes/sessions'
import { createEvmSignatureVerifier } from './routes/signInMessage'
import { findUnsafeUrl } from './routes/validate'
import { requestBodyLimit } from './requestBodyLimit'
import { walletRoutes } from './routes/wallets'

/** Paths that need no project id. */
const openPaths = new Set(['/health', '/ready'])

/**
 * The data service's HTTP app (SPEC §7): blockchain data, names, history, swaps, wallet registry, network and token
 * images, analytics, on-ramp and sessions, on one database. Requests must name a known project; browsers may call only from that project's origins.
 * Bodies are bounded (`limits.bodyBytes`, 413), URLs that cannot be stored are refused before any route (400), and an
 * unexpected failure answers a generic 500 and one escaped log line.
 * @example serve({ fetch: createApiApp(config).fetch, port: 8787 })
 */
export function createApiApp(appConfig: ApiConfig): Hono {
  const { log = console.error } = appConfig
  const limits = resolveLimits(appConfig.limits)
  // One history cache for the history route and the writes that invalidate it; one chain client per chain for the
  // routes that check smart accounts' signatures.
  const config: ApiConfig = {
    ...appConfig,
    historyCache: appConfig.historyCache ?? createHistoryCache({ maxBytes: limits.historyCacheBytes, ttlMs: HISTORY_CACHE_MS }),
    evmSignatureVerifier: appConfig.evmSignatureVerifier ?? createEvmSignatureVerifier({ chains: appConfig.chains }),
  }
  const app = new Hono()
  const projects = new Map(config.projects.map((p) => [p.id, { ...p, origins: new Set(p.allowedOrigins) }]))
  // The hosted RPC endpoint answers every refusal as JSON-RPC (origins, projects, its larger bodies): before the middleware.
  app.route('/', rpcRoutes(config))

  // CORS per project: the preflight carries the query string, so each project answers for its own origins only. A
  // page of another origin is refused with the way out named (a browser shows it in the network panel).
  app.use('*', async (c, next) => {
    const origin = c.req.header('origin')
    const project = projects.get(c.req.query('projectId') ?? '')
    const isAllowedOrigin = origin !== undefined && project !== undefined && project.origins.has(origin)
    if (origin !== undefined && project !== undefined && !isAllowedOrigin) return c.json(originNotAllowed(origin, project.id), 403, { vary: 'origin' })
    if (c.req.method === 'OPTIONS') {
      if (!isAllowedOrigin) return c.body(null, 403, { vary: 'origin' })
      return c.body(null, 204, {
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'content-type',
        'access-control-max-age': '600',
        vary: 'origin',
      })
    }
    // Set before the route answers: a header set on a finished response makes Hono rebuild it around its body
    // stream (a whole fetch Response per request, about a tenth of an uncached history page's CPU).
    c.header('vary', 'origin')
    if (isAllowedOrigin) c.header('access-control-allow-origin', origin)
    await next()
  })

  // Connection: close, because the rest of a refused body is never read: the socket cannot carry another request.
  app.use(
    '*',
    requestBodyLimit({
      maxBytes: limits.bodyBytes,
      onTooLarge: (c) => c.json(errorBody('BODY_TOO_LARGE', `The request body is larger than the limit of ${limits.bodyBytes} bytes`, 'body'), 413, { connection: 'close' }),
    }),
  )

  app.use('*', async (c, next) => {
    const unsafe = findUnsafeUrl(c.req.url)
    if (unsafe) return c.json(errorBody('INVALID_INPUT', `${unsafe.field}: ${unsafe.message}`, unsafe.field), 400)
    return next()
  })

  app.use('*', async (c, next) => {
    // A provider's reports are signed by the provider and name no project (routes/onramp.ts checks them).
    if (openPaths.has(c.req.path) || c.req.path.startsWith('/v1/onramp/webhooks/')) return next()
    const projectId = c.req.query('projectId')
    if (!projectId) return c.json(errorBody('PROJECT_ID_MISSING', 'projectId is required', 'projectId'), 400)
    const project = projects.get(projectId)
    if (!project) return c.json(errorBody('UNKNOWN_PROJECT', `Unknown project id: ${projectId}`, 'projectId'), 403)
    c.set('project' as never, project as never)
    return next()
  })

  // Liveness, and which instance indexes; readiness: not shutting down, and the database answers.
  app.get('/health', (c) => {
    const indexerRole = config.instance?.indexerRole
    return c.json({ status: 'ok', service: 'tessera-api', database: config.db.kind, ...(indexerRole && { indexer: indexerRole }) })
  })
  app.get('/ready', async (c) => {
    const ready = await checkReady({ db: config.db, isDraining: config.instance?.isDraining ?? false })
    return ready.isReady ? c.json({ status: 'ready', database: config.db.kind }) : c.json({ status: 'unavailable', reason: ready.reason }, 503)
  })
  app.get('/v1/supported-chains', (c) => c.json({ http: config.chains.map((chain) => `eip155:${chain.chainId}`), ws: [] }))
  app.route('/', balanceRoutes(config))
  app.route('/', nameRoutes(config))
  app.route('/', historyRoutes(config))
  app.route('/', walletRoutes(config))
  app.route('/', assetRoutes(config))
  app.route('/', analyticsRoutes(config))
  app.route('/', onrampRoutes(config))
  app.route('/', sessionRoutes(config))

  app.route('/', convertRoutes(config))

  app.notFound((c) => c.json(errorBody('NOT_FOUND', `No route for ${c.req.method} ${c.req.path}`), 404))
  // The last resort: the client learns nothing of the cause; the operator gets it on one line, whatever the request held.
  app.onError((error, c) => {
    log(escapeForLog(`data service: ${c.req.method} ${c.req.path}: ${error.message}`))
    return c.json(errorBody('INTERNAL_ERROR', 'The data service failed to answer this request'), 500)
  })
  return app
}
