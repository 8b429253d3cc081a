import { Hono } from 'hono'

export type ApiConfig = {
  /** Origins allowed to call the service from a browser. */
  allowedOrigins: readonly string[]
}

/**
 * The data service's HTTP app. Only the health endpoint until the data-service issue lands.
 * @example serve({ fetch: createApiApp({ allowedOrigins: [] }).fetch, port: 8787 })
 */
export function createApiApp({ allowedOrigins }: ApiConfig): Hono {
  const app = new Hono()
  app.use('*', async (c, next) => {
    await next()
    const origin = c.req.header('origin')
    if (origin && allowedOrigins.includes(origin)) {
      c.header('access-control-allow-origin', origin)
      c.header('vary', 'origin')
    }
  })
  app.get('/health', (c) => c.json({ status: 'ok', service: 'tessera-api' }))
  app.notFound((c) => c.json({ error: { code: 'NOT_FOUND', message: `No route for ${c.req.method} ${c.req.path}` } }, 404))
  return app
}
