import { BaseError, HttpRequestError, RpcRequestError, TimeoutError } from 'viem'

/** HTTP statuses worth another try (SPEC §8). */
export const RETRY_HTTP_STATUSES: ReadonlySet<number> = new Set([403, 408, 413, 429, 500, 502, 503, 504])

/** The longest a server's Retry-After is honoured: past this the node is treated as down for now, not waited on. */
export const MAX_RETRY_AFTER_MS = 5_000

/** JSON-RPC codes worth another try: unknown (-1), internal (-32603) and the timeout codes (-32002, -32005). */
export const RETRY_RPC_CODES: ReadonlySet<number> = new Set([-1, -32603, -32002, -32005])

function find<T>(error: unknown, pick: (e: unknown) => T | undefined): T | undefined {
  if (error instanceof BaseError) {
    let found: T | undefined
    error.walk((e) => (found = pick(e)) !== undefined)
    return found
  }
  return pick(error)
}

/** The HTTP error somewhere in the cause chain, if the failure was an HTTP one. */
export function getHttpError(error: unknown): HttpRequestError | undefined {
  return find(error, (e) => (e instanceof HttpRequestError ? e : undefined))
}

function getRpcCode(error: unknown): number | undefined {
  return find(error, (e) => {
    const code = (e as { code?: unknown } | null)?.code
    return typeof code === 'number' ? code : undefined
  })
}

/**
 * The JSON-RPC error a node answered the call itself with (invalid params, a revert), if that is the failure; not one
 * that came with an HTTP error status (a rate limit, an outage: the node's trouble, not the call's).
 * @example getNodeAnswer(error)?.code // -32602
 */
export function getNodeAnswer(error: unknown): RpcRequestError | undefined {
  const found = find(error, (e) => (e instanceof RpcRequestError ? e : undefined))
  return found?.status === undefined ? found : undefined
}

/** Whether a failure is a node's own JSON-RPC answer to the call (getNodeAnswer): the ranked fallback reports it first. */
export const isNodeAnswer = (error: unknown): boolean => getNodeAnswer(error) !== undefined

export function isAbortError(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError'
}

/** What an aborted request rejects with: the signal's reason, or an AbortError when it gave none. */
export const getAbortError = (signal: AbortSignal): unknown => signal.reason ?? new DOMException('This operation was aborted', 'AbortError')

/**
 * Whether a failed request is worth another try (on its own transport when used alone, in the next round of
 * fallbackTransport otherwise):
 * 1. an abort never is;
 * 2. an HTTP error status is retried when it is one of RETRY_HTTP_STATUSES;
 * 3. a JSON-RPC error is retried when its code is one of RETRY_RPC_CODES;
 * 4. a timeout, or a failure with no response at all (reset connection, unreadable body), is.
 */
export function shouldRetry(error: unknown): boolean {
  if (isAbortError(error)) return false
  const status = getHttpError(error)?.status
  if (status !== undefined) return RETRY_HTTP_STATUSES.has(status)
  const code = getRpcCode(error)
  if (code !== undefined) return RETRY_RPC_CODES.has(code)
  return find(error, (e) => (e instanceof TimeoutError || e instanceof HttpRequestError ? true : undefined)) ?? false
}

/**
 * The server's Retry-After in milliseconds (seconds or an HTTP date), at most `maxMs`; undefined when it sent none.
 * A JSON-RPC error from a non-2xx answer keeps the headers too.
 */
export function getRetryAfterMs(error: unknown, { maxMs = MAX_RETRY_AFTER_MS, now = Date.now() }: { maxMs?: number; now?: number } = {}): number | undefined {
  const headers = find(error, (e) => (e instanceof HttpRequestError || e instanceof RpcRequestError ? e.headers : undefined))
  return parseRetryAfterMs(headers?.get('Retry-After'), { maxMs, now })
}

/** A Retry-After header's value (seconds or an HTTP date) in milliseconds, at most `maxMs`; undefined when absent or past. */
export function parseRetryAfterMs(retryAfter: string | null | undefined, { maxMs = MAX_RETRY_AFTER_MS, now = Date.now() }: { maxMs?: number; now?: number } = {}): number | undefined {
  if (!retryAfter) return undefined
  const seconds = Number(retryAfter)
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1_000, maxMs)
  const at = Date.parse(retryAfter)
  if (!Number.isNaN(at) && at > now) return Math.min(at - now, maxMs)
  return undefined
}

/** Milliseconds to wait before retry number `attempt` (0-based): Retry-After when the server sent one, else exponential. */
export function retryDelayMs({ error, attempt, baseDelayMs, maxDelayMs, now = Date.now() }: {
  error: unknown
  attempt: number
  baseDelayMs: number
  maxDelayMs: number
  now?: number
}): number {
  return getRetryAfterMs(error, { maxMs: maxDelayMs, now }) ?? Math.min(baseDelayMs * 2 ** attempt, maxDelayMs)
}
