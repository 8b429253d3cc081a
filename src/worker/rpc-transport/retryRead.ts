import { MAX_RETRY_AFTER_MS } from './shouldRetry'

// The Retry-After a failed answer came with, by the error it became: for the clients that speak HTTP themselves
// (Solana's JSON-RPC, Bitcoin's Esplora), where viem's errors do not carry the headers.
const retryAfterByError = new WeakMap<object, number>()

/** Keeps the answer's Retry-After with the error it became, for `retryRead`. */
export function rememberRetryAfter(error: object, retryAfterMs: number | undefined) {
  if (retryAfterMs !== undefined) retryAfterByError.set(error, retryAfterMs)
}

/** The Retry-After (ms) the answer that became `error` came with, if it sent one. */
export const rememberedRetryAfterMs = (error: unknown): number | undefined => (typeof error === 'object' && error !== null ? retryAfterByError.get(error) : undefined)

export const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * A read retried by SPEC §8's rules: up to `retryCount` more tries of what `isRetryable` accepts, waiting the answer's
 * Retry-After when it sent one, else `retryDelayMs` doubled per attempt (at most MAX_RETRY_AFTER_MS).
 */
export async function retryRead<T>(
  read: () => Promise<T>,
  { retryCount, retryDelayMs, isRetryable, sleep = defaultSleep }: { retryCount: number; retryDelayMs: number; isRetryable: (error: unknown) => boolean; sleep?: (ms: number) => Promise<void> },
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await read()
    } catch (error) {
      if (attempt >= retryCount || !isRetryable(error)) throw error
      await sleep(rememberedRetryAfterMs(error) ?? Math.min(retryDelayMs * 2 ** attempt, MAX_RETRY_AFTER_MS))
    }
  }
}
