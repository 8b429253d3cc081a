import { Hono, type Context } from 'hono'
import { errorBody, type ApiConfig } from './config'
import { analyticsRoutes } from './routes/analytics'
import { balanceRoutes } from './routes/balance'
import { historyRoutes } from './routes/history'
import { nameRoutes } from './routes/names'
import { onrampRoutes } from './routes/onramp'
import { sessionRoutes } from './routes/sessions'
import { walletRoutes } from './routes/wallets'

/** Paths that need no project id. */
const openPaths = new Set(['/health'])

/**
 * The data service's HTTP app (SPEC §7): blockchain data, names, history, wallet registry, analytics, on-ramp and
 * sessions, on one database. Requests must name a known project; browsers may call only from its origins.
 * @example serve({ fetch: createApiApp(config).fetch, port: 8787 })
 */
export function createApiApp(config: ApiConfig): Hono {
  const app = new Hono()
  const allOrigins = new Set(config.projects.flatMap((p) => p.allowedOrigins))

  app.use('*', async (c, next) => {
    const origin = c.req.header('origin')
    const isAllowedOrigin = origin !== undefined && allOrigins.has(origin)
    if (c.req.method === 'OPTIONS') {
      if (!isAllowedOrigin) return c.body(null, 403)
      return c.body(null, 204, {
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'content-type',
        'access-control-max-age': '600',
        vary: 'origin',
      })
    }
    await next()
    if (isAllowedOrigin) {
      c.header('access-control-allow-origin', origin)
      c.header('vary', 'origin')
    }
  })

  app.use('*', async (c, next) => {
    if (openPaths.has(c.req.path)) return next()
    const projectId = c.req.query('projectId')
    if (!projectId) return c.json(errorBody('PROJECT_ID_MISSING', 'projectId is required', 'projectId'), 400)
    const project = config.projects.find((p) => p.id === projectId)
    if (!project) return c.json(errorBody('UNKNOWN_PROJECT', `Unknown project id: ${projectId}`, 'projectId'), 403)
    c.set('project' as never, project as never)
    return next()
  })

  app.get('/health', (c) => c.json({ status: 'ok', service: 'tessera-api', database: config.db.kind }))
  app.get('/v1/supported-chains', (c) => c.json({ http: config.chains.map((chain) => `eip155:${chain.chainId}`), ws: [] }))
  app.route('/', balanceRoutes(config))
  app.route('/', nameRoutes(config))
  app.route('/', historyRoutes(config))
  app.route('/', walletRoutes(config))
  app.route('/', analyticsRoutes(config))
  app.route('/', onrampRoutes(config))
  app.route('/', sessionRoutes(config))

  const swapsUnsupported = (c: Context) => c.json(errorBody('SWAP_NETWORK_UNSUPPORTED', 'Network not supported for Swaps', 'chainId'), 400)
  for (const path of ['/v1/convert/quotes', '/v1/convert/tokens', '/v1/convert/allowance', '/v1/convert/gas-price', '/v1/convert/build-approve']) app.get(path, swapsUnsupported)
  app.post('/v1/convert/build-transaction', swapsUnsupported)

  app.notFound((c) => c.json(errorBody('NOT_FOUND', `No route for ${c.req.method} ${c.req.path}`), 404))
  app.onError((error, c) => {
    console.error(`data service: ${c.req.method} ${c.req.path}: ${error.message}`)
    return c.json(errorBody('INTERNAL_ERROR', 'The data service failed to answer this request'), 500)
  })
  return app
}
