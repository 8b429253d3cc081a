import {
  createTransport,
  ExecutionRevertedError,
  FeeCapTooHighError,
  FeeCapTooLowError,
  InsufficientFundsError,
  IntrinsicGasTooHighError,
  IntrinsicGasTooLowError,
  NonceMaxValueError,
  NonceTooHighError,
  NonceTooLowError,
  TipAboveFeeCapError,
  TimeoutError,
  TransactionTypeNotSupportedError,
  type EIP1193RequestFn,
  type Transport,
} from 'viem'
import { isSafeRpcMethod } from '../../shared/protocol/rpcMethods'
import { createEndpointHealth } from './endpointHealth'
import { createTransportRanking, type CreateTransportRankingParameters, type TransportRanking } from './ranking'
import { getAbortError, getRetryAfterMs, MAX_RETRY_AFTER_MS, shouldRetry } from './shouldRetry'

/** Node messages that every node would answer the same way: asking the next one is pointless. */
const nodeMessages = [
  ExecutionRevertedError.nodeMessage,
  FeeCapTooHighError.nodeMessage,
  FeeCapTooLowError.nodeMessage,
  NonceTooHighError.nodeMessage,
  NonceTooLowError.nodeMessage,
  NonceMaxValueError.nodeMessage,
  InsufficientFundsError.nodeMessage,
  IntrinsicGasTooHighError.nodeMessage,
  IntrinsicGasTooLowError.nodeMessage,
  TransactionTypeNotSupportedError.nodeMessage,
  TipAboveFeeCapError.nodeMessage,
]

const messagesOf = (error: unknown): string[] => {
  const messages: string[] = []
  for (let e = error as { message?: unknown; details?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.details === 'string') messages.push(e.details)
    if (typeof e.message === 'string') messages.push(e.message)
  }
  return messages
}

const codesOf = (error: unknown): number[] => {
  const codes: number[] = []
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === 'number') codes.push(e.code)
  }
  return codes
}

/**
 * Whether a failure ends the request instead of moving to the next transport (SPEC §4): a revert, an internal
 * error, a node message every node would repeat, or the user saying no.
 */
export function shouldThrow(error: unknown): boolean {
  const codes = codesOf(error)
  if (codes.some((code) => code === 3 || code === -32603 || code === 4001 || code === 5000)) return true
  const messages = messagesOf(error)
  return nodeMessages.some((pattern) => messages.some((message) => pattern.test(message)))
}

export type FallbackTransportParameters = {
  /** Rank the transports by latency and stability (SPEC §4); off by default here, on in the widget. */
  rank?: boolean | Omit<CreateTransportRankingParameters, 'pings'>
  onRanking?: (ranking: TransportRanking) => void
  /** The whole request's budget, across endpoints, rounds and backoff (SPEC §9 RPC timeout). */
  timeoutMs?: number
  /** Rounds after the first; a round asks every endpoint still worth asking (SPEC §8: 3 retries). */
  retryCount?: number
  /** Backoff between rounds: retryDelayMs × 2^round (SPEC §8: from 150 ms). */
  retryDelayMs?: number
  /** Retry-After is honoured up to this long, by setting the endpoint aside, not by sleeping. */
  maxRetryAfterMs?: number
  /** Cool-off of an endpoint after a failure, doubling with each failure in a row up to maxCoolOffMs. */
  coolOffMs?: number
  maxCoolOffMs?: number
  /** A hedgeable request also goes to the next endpoint when the current one has not answered within
   * HEDGE_LATENCY_FACTOR × its ranked latency, clamped to these bounds (the upper one when there is no ranking). */
  minHedgeDelayMs?: number
  maxHedgeDelayMs?: number
  /** Which methods may be sent to two endpoints at once: the safe reads (SPEC §6), never a signing or sending one. */
  isHedgeable?: (method: string) => boolean
  now?: () => number
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
}

/** Pings measure the lightest call; real reads and batches take a few times longer before they are late. */
export const HEDGE_LATENCY_FACTOR = 4

/**
 * How long a hedgeable request waits on an endpoint before also asking the next: HEDGE_LATENCY_FACTOR × the
 * endpoint's ranked latency, within [minMs, maxMs]; maxMs while there is no ranking (or no answer) to go by.
 * @example getHedgeDelayMs({ latencyMs: 100, minMs: 250, maxMs: 1_000 }) // 400
 */
export function getHedgeDelayMs({ latencyMs, minMs, maxMs }: { latencyMs: number; minMs: number; maxMs: number }): number {
  if (!Number.isFinite(latencyMs)) return maxMs
  return Math.min(maxMs, Math.max(minMs, HEDGE_LATENCY_FACTOR * latencyMs))
}


const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', done, { once: true })
    function done() {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
  })

type RoundOutcome =
  | { type: 'answered'; result: unknown }
  /** shouldThrow said no other node would answer differently. */
  | { type: 'stopped'; error: unknown; index: number }
  | { type: 'failed'; error: unknown; retriable: number[] }

/**
 * Tries the transports in ranked order, and never waits on a dead node:
 * 1. a round asks the endpoints one after the other, healthy ones first (endpointHealth): a failure or a timeout
 *    moves the request to the next endpoint at once and cools the failed one; a Retry-After sets it aside for that
 *    long (at most maxRetryAfterMs);
 * 2. a hedgeable read that has no answer within the hedge delay is also sent to the next endpoint; the first answer
 *    wins, the others are aborted, and the ones it overtook cool off as if they had timed out;
 * 3. shouldThrow errors end the request (revert, node message, user rejection); an internal error is retried where
 *    it happened, after the backoff, but never moved to another node (SPEC §4, §8);
 * 4. after a round in which every endpoint failed, the endpoints whose failure is worth a retry (shouldRetry) get
 *    another round after retryDelayMs × 2^round (or until a Retry-After ends, if every one of them is held);
 * 5. the whole request has timeoutMs: attempts in flight are aborted when it runs out, and no backoff outlives it;
 * 6. an abort of the caller's signal ends it at once.
 * Each transport sees single attempts (`retryCount: 0`): retries are rounds over all endpoints, not A, A, A.
 * @example fallbackTransport([httpTransport(a), httpTransport(b)], { rank: true })
 */
export function fallbackTransport(
  transports: readonly Transport[],
  {
    rank = false,
    onRanking,
    timeoutMs = 10_000,
    retryCount = 3,
    retryDelayMs = 150,
    maxRetryAfterMs = MAX_RETRY_AFTER_MS,
    coolOffMs = 1_000,
    maxCoolOffMs = 30_000,
    minHedgeDelayMs = 250,
    maxHedgeDelayMs = 1_000,
    isHedgeable = isSafeRpcMethod,
    now = () => performance.now(),
    sleep = defaultSleep,
  }: FallbackTransportParameters = {},
): Transport<'fallback'> {
  if (transports.length === 0) throw new Error('fallbackTransport needs at least one transport')
  return ((parameters) => {
    const clients = transports.map((transport) => transport({ ...parameters, retryCount: 0 }))
    const health = createEndpointHealth({ count: clients.length, coolOffMs, maxCoolOffMs, now })
    const urlOf = (index: number) => (clients[index]!.value as { url?: string } | undefined)?.url ?? `transport #${index}`
    let ranked = clients.map((_, index) => index)
    let latencyMs: number[] = clients.map(() => Infinity)

    const noteFailure = (index: number, error: unknown) => {
      const retryAfterMs = getRetryAfterMs(error, { maxMs: maxRetryAfterMs })
      if (retryAfterMs === undefined) health.fail(index)
      else health.hold(index, retryAfterMs)
    }

    // With one endpoint there is no order to keep: no pings.
    if (rank && clients.length > 1) {
      const ranking = createTransportRanking({
        ...(typeof rank === 'object' ? rank : {}),
        // The pings are the probes of the circuit breaker: an answer ends a cool-off, a failure starts one.
        pings: clients.map((client, index) => async (signal: AbortSignal) => {
          try {
            await client.request({ method: 'eth_blockNumber' }, { signal })
            health.succeed(index)
          } catch (error) {
            noteFailure(index, error)
            throw error
          }
        }),
      })
      ranking.subscribe((list) => {
        ranked = list.map((r) => r.index)
        latencyMs = clients.map((_, index) => list.find((r) => r.index === index)?.latencyMs ?? Infinity)
      })
      onRanking?.(ranking)
    }

    const hedgeDelayMs = (index: number) => getHedgeDelayMs({ latencyMs: latencyMs[index]!, minMs: minHedgeDelayMs, maxMs: maxHedgeDelayMs })

    const runRound = ({ args, order, isHedged, deadlineAt, signal }: {
      args: { method: string; params?: unknown }
      order: readonly number[]
      isHedged: boolean
      deadlineAt: number
      signal: AbortSignal | undefined
    }) =>
      new Promise<RoundOutcome>((resolve, reject) => {
        const queue = [...order]
        const inFlight = new Map<number, { controller: AbortController; launch: number }>()
        const retriable: number[] = []
        let launches = 0
        let lastError: unknown
        let hedgeTimer: ReturnType<typeof setTimeout> | undefined
        let isSettled = false

        const settle = (finish: () => void) => {
          if (isSettled) return
          isSettled = true
          clearTimeout(hedgeTimer)
          clearTimeout(deadlineTimer)
          signal?.removeEventListener('abort', onAbort)
          for (const { controller } of inFlight.values()) controller.abort()
          finish()
        }
        const onAbort = () => settle(() => reject(getAbortError(signal!)))
        const onDeadline = () => {
          const url = [...inFlight.keys()].map(urlOf).join(', ') || 'fallback'
          settle(() => reject(new TimeoutError({ body: args, url })))
        }
        const deadlineTimer = setTimeout(onDeadline, Math.max(0, deadlineAt - now()))
        signal?.addEventListener('abort', onAbort, { once: true })

        const launch = () => {
          const index = queue.shift()!
          const controller = new AbortController()
          const attempt = { controller, launch: launches++ }
          inFlight.set(index, attempt)
          clients[index]!.request(args as never, { signal: controller.signal }).then(
            (result: unknown) => {
              if (isSettled) return
              inFlight.delete(index)
              health.succeed(index)
              for (const [other, { launch }] of inFlight) if (launch < attempt.launch) health.fail(other)
              settle(() => resolve({ type: 'answered', result }))
            },
            (error: unknown) => {
              if (isSettled) return
              inFlight.delete(index)
              if (shouldThrow(error)) return settle(() => resolve({ type: 'stopped', error, index }))
              noteFailure(index, error)
              lastError = error
              if (shouldRetry(error)) retriable.push(index)
              next()
            },
          )
          armHedge(index)
        }
        const next = () => {
          if (queue.length > 0) launch()
          else if (inFlight.size === 0) settle(() => resolve({ type: 'failed', error: lastError, retriable }))
        }
        // Hedge onto the next endpoint only if it is healthy: a cooling one is asked only after a failure.
        const armHedge = (index: number) => {
          clearTimeout(hedgeTimer)
          if (!isHedged || queue.length === 0 || health.isCooling(queue[0]!)) return
          hedgeTimer = setTimeout(() => !isSettled && queue.length > 0 && launch(), hedgeDelayMs(index))
        }
        next()
      })

    return createTransport(
      {
        key: 'tessera-fallback',
        name: 'Tessera fallback',
        type: 'fallback',
        retryCount: 0,
        timeout: timeoutMs,
        request: (async ({ method, params }: { method: string; params?: unknown }, options?: { signal?: AbortSignal }) => {
          const signal = options?.signal
          if (signal?.aborted) throw getAbortError(signal)
          const args = { method, params }
          const deadlineAt = now() + timeoutMs
          const isHedged = isHedgeable(method)
          let candidates = clients.map((_, index) => index)
          for (let round = 0; ; round++) {
            const order = health.order(ranked).filter((index) => candidates.includes(index))
            const outcome = await runRound({ args, order, isHedged, deadlineAt, signal })
            if (outcome.type === 'answered') return outcome.result
            if (outcome.type === 'stopped') {
              if (!shouldRetry(outcome.error)) throw outcome.error
              candidates = [outcome.index]
            } else candidates = outcome.retriable
            if (round >= retryCount || candidates.length === 0) throw outcome.error
            const waitMs = Math.max(retryDelayMs * 2 ** round, health.msUntilUnheld(candidates))
            if (now() + waitMs >= deadlineAt) throw outcome.error
            await sleep(waitMs, signal)
            if (signal?.aborted) throw getAbortError(signal)
          }
        }) as EIP1193RequestFn,
      },
      { transports: clients },
    )
  }) as Transport<'fallback'>
}
