import type { Context, Env, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'

/**
 * Refuses a request body over `maxBytes` with `onTooLarge`. A declared `Content-Length` is checked from its header
 * (the route then reads exactly that many bytes); only a chunked body goes through Hono's bodyLimit, counted as it
 * streams. GET and HEAD bodies are read by no route and not looked at. Looking at the body stream makes the Node
 * adapter build a whole fetch Request (its abort signal and listeners) per request, which cost more than a route and,
 * at thousands a second, grew the heap.
 * @example app.use('*', requestBodyLimit({ maxBytes: 16_384, onTooLarge: (c) => c.json({ error: … }, 413, { connection: 'close' }) }))
 */
export function requestBodyLimit<E extends Env>({ maxBytes, onTooLarge }: { maxBytes: number; onTooLarge: (c: Context<E>) => Response }): MiddlewareHandler<E> {
  const limitStreamedBody = bodyLimit({ maxSize: maxBytes, onError: onTooLarge })
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next()
    const declaredLength = c.req.header('content-length')
    if (declaredLength === undefined || c.req.header('transfer-encoding') !== undefined) return limitStreamedBody(c, next)
    return Number(declaredLength) > maxBytes ? onTooLarge(c) : next()
  }
}
