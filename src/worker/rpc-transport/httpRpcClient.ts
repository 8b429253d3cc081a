import { BaseError, HttpRequestError, ResponseBodyTooLargeError, RpcRequestError, TimeoutError } from 'viem'
import { describeIds } from './describeIds'
import { splitCredentials } from './httpEndpoint'
import { readBoundedText } from './readBoundedText'
import { getAbortError } from './shouldRetry'

export type RpcRequestBody = { method: string; params?: unknown }

type RpcErrorObject = { code: number; message: string; data?: unknown }

export type CreateHttpRpcClientParameters = {
  url: string
  /** Requests issued in the same tick go out as one JSON-RPC batch of at most this many (SPEC §7). */
  batchSize?: number
  /** …and of a body of at most this many bytes: nodes refuse larger ones (anvil's limit is a few MB). */
  maxBatchBodyBytes?: number
  /** How long one request waits for its answer, from the moment it is issued. */
  timeoutMs?: number
  /** A larger answer is refused as it streams in (a hostile node could send gigabytes). */
  maxResponseBodyBytes?: number
  fetchFn?: (input: string, init: RequestInit) => Promise<Response>
  fetchOptions?: Omit<RequestInit, 'body' | 'method' | 'signal'>
}

/** The node answered with ids that are not exactly the ids sent, so its answers cannot be matched to the requests. */
export class ResponseIdsMismatchError extends HttpRequestError {
  override name = 'ResponseIdsMismatchError'
  constructor({ body, url, details }: { body: RpcRequestBody; url: string; details: string }) {
    super({ body, url, details })
  }
}

const isRpcError = (value: unknown): value is { error: RpcErrorObject } => {
  const error = (value as { error?: { code?: unknown; message?: unknown } } | null)?.error
  return typeof error?.code === 'number' && typeof error.message === 'string'
}

/**
 * A body of more than 65,536 characters goes as a Blob: in a worker, fetch() held the thread 10–16 ms for a string body
 * of 0.9 MB, under 5 ms for a Blob (Chromium 156), and bench:core's 2,000 reads took 97 ms instead of 143. A smaller one
 * stays a string, which DevTools (and a test's request log) show as the request's payload; a Blob's they do not.
 */
export const BLOB_BODY_CHARACTERS = 65_536
const bodyOf = (json: string) => (json.length > BLOB_BODY_CHARACTERS ? new Blob([json]) : json)

type Member = {
  id: number
  body: RpcRequestBody
  /** The request as it goes on the wire. */
  json: string
  resolve: (result: unknown) => void
  fail: (error: unknown) => void
  /** Set while its batch is on the wire: tells the batch this member no longer waits. */
  onLeave?: () => void
  isSettled: boolean
}

/**
 * JSON-RPC over HTTP POST, batched per endpoint whatever each request's AbortSignal (viem's http batches per signal,
 * which would turn hedged or deadline-bound reads into one POST each):
 * 1. requests of one tick are queued and sent as one batch of at most `batchSize` requests and `maxBatchBodyBytes`
 *    (a lone request as a plain object); the batches of one tick go out at once, in parallel;
 * 2. each request has its own timeout and signal and leaves its batch when either fires; when every member has
 *    left, the HTTP request is aborted, so a hanging node does not keep connections open for nobody;
 * 3. answers are matched by id, and must carry exactly the ids sent (no missing, extra or repeated ids),
 *    else every member fails with ResponseIdsMismatchError.
 * @example const rpc = createHttpRpcClient({ url }); await rpc.request({ method: 'eth_blockNumber' })
 */
export function createHttpRpcClient({
  url: urlWithCredentials,
  batchSize = 1_000,
  maxBatchBodyBytes = 1_048_576,
  timeoutMs = 10_000,
  maxResponseBodyBytes = 10_485_760,
  fetchFn = (input, init) => fetch(input, init),
  fetchOptions = {},
}: CreateHttpRpcClientParameters) {
  const { url, headers: authHeaders } = splitCredentials(urlWithCredentials) ?? { url: urlWithCredentials, headers: {} }
  const headers = new Headers(authHeaders)
  headers.set('Content-Type', 'application/json')
  new Headers(fetchOptions.headers).forEach((value, key) => headers.set(key, value))
  let queue: Member[] = []
  let queueBytes = 0
  let flushTimer: ReturnType<typeof setTimeout> | undefined
  let nextId = 0

  const flush = () => {
    clearTimeout(flushTimer)
    flushTimer = undefined
    const members = queue.filter((m) => !m.isSettled)
    queue = []
    queueBytes = 0
    if (members.length > 0) void send(members)
  }

  async function send(members: Member[]) {
    const controller = new AbortController()
    let waiting = members.length
    for (const member of members) member.onLeave = () => --waiting === 0 && controller.abort()
    let response: Response
    let text: string
    try {
      response = await fetchFn(url, {
        ...fetchOptions,
        method: 'POST',
        headers,
        body: bodyOf(members.length === 1 ? members[0]!.json : `[${members.map((m) => m.json).join(',')}]`),
        signal: controller.signal,
      })
      text = await readBoundedText(response, maxResponseBodyBytes, (size) => new ResponseBodyTooLargeError({ maxSize: maxResponseBodyBytes, size }))
    } catch (error) {
      // A reset connection (its cause says how), or a body refused for its size (viem would drop that one's text).
      const reason = error instanceof BaseError ? { details: error.shortMessage } : { cause: error as Error }
      for (const m of members) m.fail(new HttpRequestError({ body: m.body, url, ...reason }))
      return
    }
    deliver(members, response, text)
  }

  function deliver(members: Member[], response: Response, text: string) {
    let data: unknown
    let parseError: Error | undefined
    try {
      data = JSON.parse(text)
    } catch (error) {
      parseError = error as Error
    }
    // A whole-request error: bare, or the only element of an array (geth), with no id to match.
    const only = Array.isArray(data) && data.length === 1 ? data[0] : data
    const shared = isRpcError(only) && (only as { id?: unknown }).id == null ? only.error : undefined
    const { headers, status } = response
    if (!response.ok) {
      const error = isRpcError(only) ? only.error : undefined
      for (const m of members)
        m.fail(
          error
            ? new RpcRequestError({ body: m.body, error, headers, status, url })
            : new HttpRequestError({ body: m.body, details: text.slice(0, 500) || response.statusText, headers, status, url }),
        )
      return
    }
    if (parseError) {
      for (const m of members) m.fail(new HttpRequestError({ body: m.body, cause: parseError, url }))
      return
    }
    if (shared) {
      for (const m of members) m.fail(new RpcRequestError({ body: m.body, error: shared, url }))
      return
    }
    const replies = Array.isArray(data) ? data : [data]
    const mismatch = describeIds(members.map((m) => m.id), replies)
    if (mismatch) {
      for (const m of members) m.fail(new ResponseIdsMismatchError({ body: m.body, url, details: mismatch }))
      return
    }
    const byId = new Map(replies.map((reply) => [(reply as { id: number }).id, reply as { result?: unknown }]))
    for (const m of members) {
      const reply = byId.get(m.id)!
      if (isRpcError(reply)) m.fail(new RpcRequestError({ body: m.body, error: reply.error, url }))
      else if ('result' in reply) m.resolve(reply.result)
      else m.fail(new HttpRequestError({ body: m.body, url, details: `The answer to id ${m.id} has neither a result nor an error.` }))
    }
  }

  return {
    url,
    /** One JSON-RPC request; resolves with its result, rejects with viem's request errors or the signal's reason. */
    request(body: RpcRequestBody, signal?: AbortSignal): Promise<unknown> {
      if (signal?.aborted) return Promise.reject(getAbortError(signal))
      return new Promise((resolve, reject) => {
        const settle = (finish: () => void) => {
          if (member.isSettled) return
          member.isSettled = true
          clearTimeout(timer)
          signal?.removeEventListener('abort', onAbort)
          member.onLeave?.()
          finish()
        }
        const id = ++nextId
        let json: string
        try {
          json = JSON.stringify({ jsonrpc: '2.0', id, ...body })
        } catch (error) {
          return reject(new HttpRequestError({ body, url, cause: error as Error }))
        }
        const member: Member = {
          id,
          body,
          json,
          isSettled: false,
          resolve: (result) => settle(() => resolve(result)),
          fail: (error) => settle(() => reject(error)),
        }
        const onAbort = () => member.fail(getAbortError(signal!))
        const timer = setTimeout(() => member.fail(new TimeoutError({ body, url })), timeoutMs)
        signal?.addEventListener('abort', onAbort, { once: true })
        // Counted in characters, which are bytes for JSON-RPC's hex and ASCII (text beyond ASCII may run a little over).
        if (queue.length > 0 && queueBytes + member.json.length + 1 > maxBatchBodyBytes) flush()
        queue.push(member)
        queueBytes += member.json.length + 1
        if (queue.length >= batchSize) flush()
        else flushTimer ??= setTimeout(flush, 0)
      })
    },
  }
}

export type HttpRpcClient = ReturnType<typeof createHttpRpcClient>
