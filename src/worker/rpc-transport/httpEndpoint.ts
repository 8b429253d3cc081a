import { createWidgetError } from '../../shared/protocol/errors'
import type { RankedFallbackParameters } from './rankedFallback'
import type { TransportRanking } from './ranking'
import { readBoundedText } from './readBoundedText'
import { MAX_RETRY_AFTER_MS } from './shouldRetry'

/**
 * An endpoint's URL without its credentials, which go into an Authorization header (fetch refuses URLs that carry
 * them), and its host, the only part of it an error names; `url` as it was when it has none. Undefined when it is
 * not a URL.
 * @example splitCredentials('https://user:pass@rpc.example/v1') // { url: 'https://rpc.example/v1', host: 'rpc.example', headers: { authorization: 'Basic dXNlcjpwYXNz' } }
 */
export function splitCredentials(url: string): { url: string; host: string; headers: Record<string, string> } | undefined {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return undefined
  }
  if (!parsed.username) return { url, host: parsed.host, headers: {} }
  const authorization = `Basic ${btoa(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`)}`
  parsed.username = ''
  parsed.password = ''
  return { url: parsed.toString(), host: parsed.host, headers: { authorization } }
}

export type FetchBoundedParameters = {
  fetchFn: (input: string, init: RequestInit) => Promise<Response>
  url: string
  init: Omit<RequestInit, 'signal'>
  /** Names the request in errors: `getBalance to rpc.example`, `GET /tx/… to esplora.example`. */
  what: string
  timeoutMs: number
  maxResponseBodyBytes: number
  signal?: AbortSignal | undefined
}

/**
 * One HTTP request of the worker's non-EVM clients (Solana's JSON-RPC, Bitcoin's Esplora): a timeout, an answer read
 * up to `maxResponseBodyBytes` (a hostile node could send gigabytes). Every failure is a WidgetError: RPC_TIMEOUT,
 * REQUEST_ABORTED, or HTTP_REQUEST_FAILED (no answer, an answer too large). The status is the caller's to read.
 */
export async function fetchBounded({ fetchFn, url, init, what, timeoutMs, maxResponseBodyBytes, signal }: FetchBoundedParameters): Promise<{ response: Response; text: string }> {
  if (signal?.aborted) throw createWidgetError('REQUEST_ABORTED', { details: what, cause: signal.reason })
  const controller = new AbortController()
  let hasTimedOut = false
  const timer = setTimeout(() => {
    hasTimedOut = true
    controller.abort()
  }, timeoutMs)
  const onAbort = () => controller.abort()
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    const response = await fetchFn(url, { ...init, signal: controller.signal })
    const text = await readBoundedText(response, maxResponseBodyBytes, (size) => new Error(`the answer is larger than ${maxResponseBodyBytes} bytes (${size})`))
    return { response, text }
  } catch (error) {
    if (hasTimedOut) throw createWidgetError('RPC_TIMEOUT', { details: `${what} got no answer within ${timeoutMs} ms` })
    if (signal?.aborted) throw createWidgetError('REQUEST_ABORTED', { details: what, cause: signal.reason })
    throw createWidgetError('HTTP_REQUEST_FAILED', { details: `${what}: ${(error as Error)?.message ?? String(error)}`, cause: error })
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', onAbort)
  }
}

/** What a family's HTTP client (Solana's JSON-RPC, Bitcoin's Esplora) takes: its endpoints' ranking, time and size bounds. */
export type HttpClientParameters = {
  /** Rank the endpoints by pings (SPEC §4); on in the widget's worker. */
  rank?: boolean
  onRanking?: (ranking: TransportRanking) => void
  fetch?: (input: string, init: RequestInit) => Promise<Response>
  /** How long one request waits for its answer (SPEC §9 RPC timeout). */
  timeoutMs?: number
  /** Retries of a failed read (SPEC §8: HTTP 403/408/413/429/5xx, a timeout, no answer). A send is never retried. */
  retryCount?: number
  /** The first retry's delay, doubled for each next one, unless the endpoint sent Retry-After. */
  retryDelayMs?: number
  /** A larger answer is refused as it streams in (a hostile node could send gigabytes). */
  maxResponseBodyBytes?: number
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

/**
 * The ranked fallback's options for such a client: `timeoutMs` bounds each attempt, and the request as a whole may
 * take every round and a Retry-After between them.
 */
export const rankedFallbackOptions = ({ rank = false, onRanking, timeoutMs, retryCount, retryDelayMs, sleep }: Required<Pick<HttpClientParameters, 'timeoutMs' | 'retryCount' | 'retryDelayMs' | 'sleep'>> & Pick<HttpClientParameters, 'rank' | 'onRanking'>): RankedFallbackParameters => ({
  rank,
  ...(onRanking && { onRanking }),
  timeoutMs: (retryCount + 1) * timeoutMs + MAX_RETRY_AFTER_MS,
  retryCount,
  retryDelayMs,
  sleep: (ms) => sleep(ms),
})
