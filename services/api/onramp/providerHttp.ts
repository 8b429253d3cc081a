/**
 * What the on-ramp adapters share on the wire: one request function that bounds, parses and checks a provider's answer
 * and says its failures without the provider's text, and the catalog cache their quotes and checkouts read.
 */
import type * as z from 'zod/mini'
import { OnrampProviderError } from './provider'

/** Largest answer read from a provider: anything longer is refused unread. */
export const MAX_ANSWER_BYTES = 1024 * 1024
/** The catalog quote() and checkout() name assets by, kept this long. */
export const CATALOG_TTL_MS = 60 * 60_000
/** A fiat amount as quote() takes it: up to 20 whole digits and 18 decimals. */
export const FIAT_AMOUNT = /^\d{1,20}(\.\d{1,18})?$/

export type RequestJsonParameters<T> = {
  /** The provider as our messages name it: 'Coinbase Onramp', 'Meld'. */
  provider: string
  fetch: typeof globalThis.fetch
  method: 'GET' | 'POST'
  url: URL
  /** The path as messages name it. */
  path: string
  /** The provider's own headers (authorization, version); accept and content-type are added. */
  headers: Record<string, string>
  /** Sent as JSON when given. */
  body?: unknown
  schema: z.ZodMiniType<T>
  timeoutMs: number
  /** What a 400 or 422 means for this call; without it, those are `unavailable` too. */
  refusal?: { message: string; field?: string }
}

/**
 * One request to a provider:
 * 1. send with a timeout, following no redirect;
 * 2. read at most MAX_ANSWER_BYTES;
 * 3. a 2xx must be JSON in the published shape; a 400 or 422 is `refused` where the call says what a refusal is,
 *    anything else `unavailable`. The provider's own text never reaches the error.
 * @example const answer = await requestJson({ provider: 'Meld', fetch, method: 'GET', url, path, headers, schema, timeoutMs })
 */
export async function requestJson<T>({ provider, fetch, method, url, path, headers, body, schema, timeoutMs, refusal }: RequestJsonParameters<T>): Promise<T> {
  let response: Response
  try {
    response = await fetch(url, {
      method,
      headers: { ...headers, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    })
  } catch (error) {
    throw unreachable(provider, error, path, timeoutMs)
  }
  const answerText = await readBounded(provider, response, path, timeoutMs)
  if (response.status < 200 || response.status > 299) {
    if (refusal && (response.status === 400 || response.status === 422)) throw new OnrampProviderError('refused', refusal.message, refusal.field)
    throw new OnrampProviderError('unavailable', `${provider} answered ${path} with HTTP ${response.status}`)
  }
  let json: unknown
  try {
    json = JSON.parse(answerText)
  } catch {
    throw new OnrampProviderError('unavailable', `${provider} answered ${path} with a body that is not JSON`)
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) throw new OnrampProviderError('unavailable', `${provider} answered ${path} in a shape it does not publish`)
  return parsed.data
}

/** A failed or timed-out fetch as `unavailable`, naming the provider and path. */
function unreachable(provider: string, error: unknown, path: string, timeoutMs: number): OnrampProviderError {
  const isTimeout = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
  return new OnrampProviderError('unavailable', isTimeout ? `${provider} did not answer ${path} within ${timeoutMs} ms` : `${provider} could not be reached for ${path}`)
}

/** The answer's text, at most MAX_ANSWER_BYTES of it: a longer one is cancelled (not awaited) and left unread. */
async function readBounded(provider: string, response: Response, path: string, timeoutMs: number): Promise<string> {
  const tooLong = () => new OnrampProviderError('unavailable', `${provider} answered ${path} with more than ${MAX_ANSWER_BYTES} bytes`)
  if (Number(response.headers.get('content-length') ?? 0) > MAX_ANSWER_BYTES) {
    void response.body?.cancel().catch(() => undefined)
    throw tooLong()
  }
  const reader = response.body?.getReader()
  const chunks: Uint8Array[] = []
  let bytes = 0
  try {
    while (reader) {
      const { done, value } = await reader.read()
      if (done) break
      bytes += value.byteLength
      if (bytes > MAX_ANSWER_BYTES) {
        void reader.cancel().catch(() => undefined)
        throw tooLong()
      }
      chunks.push(value)
    }
  } catch (error) {
    if (error instanceof OnrampProviderError) throw error
    throw unreachable(provider, error, path, timeoutMs)
  }
  return Buffer.concat(chunks).toString('utf8')
}

export type CreateCatalogCacheParameters<T> = {
  /** Fetches the catalog afresh. */
  load: () => Promise<T>
  ttlMs: number
  now: () => number
}

export type CatalogCache<T> = {
  /** The kept catalog while fresh, else a new one (kept in turn). */
  get: () => Promise<T>
  /** A new catalog, kept in place of the old one. */
  refresh: () => Promise<T>
}

/**
 * A catalog kept `ttlMs` after it was asked for; one that fails is forgotten, so the next call asks again.
 * @example const catalog = createCatalogCache({ load: fetchCatalog, ttlMs: CATALOG_TTL_MS, now }); const { options } = await catalog.get()
 */
export function createCatalogCache<T>({ load, ttlMs, now }: CreateCatalogCacheParameters<T>): CatalogCache<T> {
  let cached: { catalog: Promise<T>; expiresAt: number } | undefined
  const refresh = () => {
    const catalog = load()
    const entry = { catalog, expiresAt: now() + ttlMs }
    cached = entry
    catalog.catch(() => {
      if (cached === entry) cached = undefined
    })
    return catalog
  }
  return {
    get: () => (cached && cached.expiresAt > now() ? cached.catalog : refresh()),
    refresh,
  }
}
