import { createTransport, http, type EIP1193RequestFn, type HttpTransportConfig, type Transport } from 'viem'
import { retryDelayMs, shouldRetry } from './shouldRetry'

export type HttpTransportParameters = Omit<HttpTransportConfig, 'retryCount' | 'retryDelay' | 'timeout' | 'batch'> & {
  /** Requests issued in the same tick go out as one JSON-RPC batch of at most this many. */
  batchSize?: number
  timeoutMs?: number
  retryCount?: number
  retryDelayMs?: number
  /** Upper bound on any single wait, Retry-After included. */
  maxRetryDelayMs?: number
  sleep?: (ms: number) => Promise<void>
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * JSON-RPC over HTTP with batching, a timeout and the retry rules of SPEC §8 (see shouldRetry).
 * viem's http transport does the wire work; the retry policy is ours.
 * @example const transport = httpTransport('http://127.0.0.1:8545')
 */
export function httpTransport(
  url?: string,
  {
    batchSize = 1_000,
    timeoutMs = 10_000,
    retryCount = 3,
    retryDelayMs: baseDelayMs = 150,
    maxRetryDelayMs = 30_000,
    sleep = defaultSleep,
    ...config
  }: HttpTransportParameters = {},
): Transport<'http'> {
  const inner = http(url, { ...config, batch: { batchSize, wait: 0 }, timeout: timeoutMs, retryCount: 0 })
  return ((parameters) => {
    const base = inner({ ...parameters, retryCount: 0, timeout: timeoutMs })
    return createTransport(
      {
        key: 'tessera-http',
        name: 'Tessera HTTP',
        type: 'http',
        retryCount: 0,
        timeout: timeoutMs,
        request: (async (args: { method: string; params?: unknown }, options?: { signal?: AbortSignal }) => {
          for (let attempt = 0; ; attempt++) {
            try {
              return await base.request(args as never, options)
            } catch (error) {
              if (attempt >= retryCount || !shouldRetry(error)) throw error
              await sleep(retryDelayMs({ error, attempt, baseDelayMs, maxDelayMs: maxRetryDelayMs }))
            }
          }
        }) as EIP1193RequestFn,
      },
      { ...base.value, url: base.value?.url },
    )
  }) as Transport<'http'>
}
