import { createWidgetError, type WidgetError } from '../../shared/protocol/errors'
import { createRankedFallback, type FailureRules, type RankedEndpoint } from './rankedFallback'
import type { TransportRanking } from './ranking'
import { readBoundedText } from './readBoundedText'
import { defaultSleep, rememberedRetryAfterMs, rememberRetryAfter } from './retryRead'
import { MAX_RETRY_AFTER_MS, parseRetryAfterMs } from './shouldRetry'

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
 * One HTTP request of the worker's non-EVM clients (createHttpEndpoints): a timeout, an answer read up to
 * `maxResponseBodyBytes` (a hostile node could send gigabytes). Every failure is a WidgetError: RPC_TIMEOUT,
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

/** One HTTP request of a call, to whichever endpoint the fallback picked. */
export type HttpRequest = {
  method: 'GET' | 'POST'
  /** A REST path, put after the API's URL (its query and fragment dropped); none for JSON-RPC, posted to the URL as given. */
  path?: string
  headers?: Record<string, string>
  body?: string
}

/** An endpoint's answer, its status still the caller's to read. */
export type HttpAnswer = {
  /** Names the request in errors: `getBalance to rpc.example`, `GET /tx/… to esplora.example`. */
  what: string
  response: Response
  text: string
  /** The Retry-After it came with, if any. */
  retryAfterMs: number | undefined
}

export type CreateHttpEndpointsParameters<A> = HttpClientParameters & {
  urls: readonly string[]
  /** NO_RPC_URL's details when `urls` is empty. */
  noUrlDetails: string
  /** NO_RPC_URL's details when one of them is not a URL. */
  notAUrlDetails: string
  /** Names a call in errors: `getBalance`, `GET /tx/…`. */
  describe: (args: A) => string
  /** One call on one endpoint: its request sent through `send`, its answer read; what it throws, `rules` judge. */
  call: (send: (request: HttpRequest) => Promise<HttpAnswer>, args: A) => Promise<unknown>
  /** The lightest call the endpoints answer, for the ranking's pings. */
  ping: A
  rules: Pick<FailureRules<A>, 'shouldThrow' | 'shouldRetry' | 'isHedgeable' | 'isAnswer'>
}

export type WaitForConfirmationParameters<T> = {
  /** What is awaited, as the timeout names it: a signature, a txid. */
  id: string
  /** One look: the outcome, or undefined while there is none yet. */
  poll: () => Promise<T | undefined>
  pollIntervalMs: number
  maxWaitMs: number
  signal?: AbortSignal | undefined
}

/** HTTP_REQUEST_FAILED for an answer's error status, with the start of its text; its Retry-After is kept for the fallback. */
export function httpStatusError({ what, response, text, retryAfterMs }: HttpAnswer): WidgetError {
  const error = createWidgetError('HTTP_REQUEST_FAILED', { status: response.status, details: `${what} answered HTTP ${response.status}: ${text.slice(0, 200)}` })
  rememberRetryAfter(error, retryAfterMs)
  return error
}

/** The URL a REST path goes after: no query, no fragment, no trailing slash. */
function restBase(url: string): string {
  const parsed = new URL(url)
  parsed.search = ''
  parsed.hash = ''
  return parsed.toString().replace(/\/+$/, '')
}

/**
 * The HTTP leg of the worker's non-EVM clients (Solana's JSON-RPC, Bitcoin's Esplora REST): their endpoints behind the
 * ranked fallback (rankedFallback.ts), the family saying only how a call goes on the wire and how its answer is read.
 * 1. each URL's credentials go into an Authorization header; errors name its host alone;
 * 2. each attempt has `timeoutMs` and an answer of at most `maxResponseBodyBytes` (fetchBounded);
 * 3. a read gets `retryCount` more rounds, from `retryDelayMs` or the Retry-After an error status came with;
 * 4. a request out of time is RPC_TIMEOUT, an aborted one REQUEST_ABORTED, both naming the call.
 * @example const api = createHttpEndpoints({ urls, noUrlDetails, notAUrlDetails, describe: ({ path }) => `GET ${path}`, call: (send, { path }) => send({ method: 'GET', path }), ping: { path: '/blocks/tip/height' }, rules })
 */
export function createHttpEndpoints<A>({ urls, noUrlDetails, notAUrlDetails, describe, call, ping, rules, ...parameters }: CreateHttpEndpointsParameters<A>) {
  const { rank = false, onRanking, fetch: fetchFn = (input, init) => fetch(input, init), now = Date.now, sleep = defaultSleep } = parameters
  const { timeoutMs = 10_000, retryCount = 3, retryDelayMs = 150, maxResponseBodyBytes = 10_485_760 } = parameters
  if (urls.length === 0) throw createWidgetError('NO_RPC_URL', { details: noUrlDetails })

  const toEndpoint = (urlWithCredentials: string): RankedEndpoint<A> => {
    const split = splitCredentials(urlWithCredentials)
    if (!split) throw createWidgetError('NO_RPC_URL', { details: notAUrlDetails })
    const { url, host, headers: credentials } = split
    const base = restBase(url)
    const request = (args: A, signal: AbortSignal) =>
      call(async ({ method, path, headers, body }) => {
        const what = `${describe(args)} to ${host}`
        const init = { method, headers: { ...credentials, ...headers }, body }
        const { response, text } = await fetchBounded({ fetchFn, url: path === undefined ? url : `${base}${path}`, init, what, timeoutMs, maxResponseBodyBytes, signal })
        return { what, response, text, retryAfterMs: parseRetryAfterMs(response.headers.get('retry-after'), { now: now() }) }
      }, args)
    return { url: host, request, ping: (signal) => request(ping, signal) }
  }

  const endpoints = createRankedFallback(
    urls.map(toEndpoint),
    {
      ...rules,
      retryAfterMs: rememberedRetryAfterMs,
      timeoutError: (args, hosts) => createWidgetError('RPC_TIMEOUT', { details: `${describe(args)} to ${hosts} got no answer within ${timeoutMs} ms` }),
      abortError: (args, signal) => createWidgetError('REQUEST_ABORTED', { details: describe(args), cause: signal.reason }),
    },
    {
      rank,
      ...(onRanking && { onRanking }),
      // `timeoutMs` bounds each attempt: the request as a whole may take every round and a Retry-After between them.
      timeoutMs: (retryCount + 1) * timeoutMs + MAX_RETRY_AFTER_MS,
      retryCount,
      retryDelayMs,
      sleep: (ms) => sleep(ms),
    },
  )

  return {
    ...endpoints,
    /**
     * Polls every `pollIntervalMs` until `poll` has an outcome, or `maxWaitMs` passed (RPC_TIMEOUT: the outcome is
     * unknown, do not send again blindly). A poll that fails as a read would be retried (SPEC §8) is tried again at the
     * next interval, up to `retryCount` times in a row; then, or for any other failure, its error is thrown.
     */
    async waitForConfirmation<T>({ id, poll, pollIntervalMs, maxWaitMs, signal }: WaitForConfirmationParameters<T>): Promise<T> {
      const deadline = now() + maxWaitMs
      let lastError: unknown
      let failedPollsInARow = 0
      for (let attempt = 0; ; attempt++) {
        if (attempt > 0) {
          if (now() + pollIntervalMs > deadline) throw createWidgetError('RPC_TIMEOUT', { details: `${id} was not confirmed within ${maxWaitMs} ms; its outcome is unknown`, cause: lastError })
          await sleep(pollIntervalMs)
        }
        if (signal?.aborted) throw createWidgetError('REQUEST_ABORTED', { details: 'waitForConfirmation', cause: signal.reason })
        let outcome: T | undefined
        try {
          outcome = await poll()
        } catch (error) {
          if (!rules.shouldRetry(error) || ++failedPollsInARow > retryCount) throw error
          lastError = error
          continue
        }
        failedPollsInARow = 0
        if (outcome !== undefined) return outcome
      }
    },
  }
}
