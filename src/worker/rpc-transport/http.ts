import { createTransport, UrlRequiredError, type EIP1193RequestFn, type Transport } from 'viem'
import { createHttpRpcClient, type CreateHttpRpcClientParameters } from './httpRpcClient'
import { getAbortError, MAX_RETRY_AFTER_MS, retryDelayMs, shouldRetry } from './shouldRetry'

export type HttpTransportParameters = Pick<CreateHttpRpcClientParameters, 'batchSize' | 'maxBatchBodyBytes' | 'maxResponseBodyBytes' | 'fetchFn' | 'fetchOptions'> & {
  /** How long one attempt waits for its answer (SPEC §9 RPC timeout). */
  timeoutMs?: number
  /** Retries on this endpoint. Unset, it is the caller's `retryCount` (fallbackTransport passes 0: it owns retries), else 3. */
  retryCount?: number
  retryDelayMs?: number
  /** Upper bound on any single wait, Retry-After included. */
  maxRetryDelayMs?: number
  sleep?: (ms: number) => Promise<void>
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))


/**
 * JSON-RPC over HTTP with batching, a timeout and the retry rules of SPEC §8 (see shouldRetry). The wire work is
 * ours (createHttpRpcClient): batches that survive per-request signals, and answers checked id by id.
 * As with viem's http(), a `retryCount` set here wins over the caller's; left unset inside fallbackTransport, each
 * request is a single attempt and the fallback moves on to the next endpoint instead of retrying this one.
 * @example const transport = httpTransport('http://127.0.0.1:8545')
 */
export function httpTransport(
  url?: string,
  {
    batchSize = 1_000,
    maxBatchBodyBytes,
    timeoutMs = 10_000,
    retryCount,
    retryDelayMs: baseDelayMs = 150,
    maxRetryDelayMs = MAX_RETRY_AFTER_MS,
    sleep = defaultSleep,
    maxResponseBodyBytes,
    fetchFn,
    fetchOptions,
  }: HttpTransportParameters = {},
): Transport<'http'> {
  return (({ chain, retryCount: callerRetryCount }) => {
    const endpoint = url || chain?.rpcUrls.default.http[0]
    if (!endpoint) throw new UrlRequiredError()
    const rpc = createHttpRpcClient({ url: endpoint, batchSize, maxBatchBodyBytes, timeoutMs, maxResponseBodyBytes, fetchFn, fetchOptions })
    const retries = retryCount ?? callerRetryCount ?? 3
    return createTransport(
      {
        key: 'tessera-http',
        name: 'Tessera HTTP',
        type: 'http',
        retryCount: 0,
        timeout: timeoutMs,
        request: (async (args: { method: string; params?: unknown }, options?: { signal?: AbortSignal }) => {
          const signal = options?.signal
          for (let attempt = 0; ; attempt++) {
            try {
              return await rpc.request({ method: args.method, params: args.params }, signal)
            } catch (error) {
              if (signal?.aborted || attempt >= retries || !shouldRetry(error)) throw error
              await sleep(retryDelayMs({ error, attempt, baseDelayMs, maxDelayMs: maxRetryDelayMs }))
              if (signal?.aborted) throw getAbortError(signal)
            }
          }
        }) as EIP1193RequestFn,
      },
      { url: rpc.url },
    )
  }) as Transport<'http'>
}
