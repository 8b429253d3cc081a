import { createEndpointHealth } from './endpointHealth'
import { createTransportRanking, type CreateTransportRankingParameters, type TransportRanking } from './ranking'
import { getAbortError, MAX_RETRY_AFTER_MS } from './shouldRetry'

/** One of a network's endpoints, whatever its family speaks: JSON-RPC over HTTP, a REST API. */
export type RankedEndpoint<A> = {
  /** Names the endpoint in errors. */
  url: string
  /** One attempt, no retry of its own; aborted through `signal` when another endpoint answered first or time ran out. */
  request: (args: A, signal: AbortSignal) => Promise<unknown>
  /** The lightest call the endpoint answers, for the ranking's pings. */
  ping: (signal: AbortSignal) => Promise<unknown>
}

/** How a family's errors are read: which end the request, which are worth another round, what a timeout is. */
export type FailureRules<A> = {
  /** The answer every endpoint would give (a revert, an invalid argument, the user saying no): ask no other. */
  shouldThrow: (error: unknown) => boolean
  /** Worth another round (SPEC §8): an HTTP 403/408/413/429/5xx, a timeout, no answer. */
  shouldRetry: (error: unknown) => boolean
  /** The Retry-After the endpoint answered with, if any. */
  retryAfterMs: (error: unknown) => number | undefined
  /** The error of a request whose whole budget ran out, naming the endpoints still being asked. */
  timeoutError: (args: A, urls: string) => Error
  /** Whether `args` may go to two endpoints at once: safe reads, never a send. */
  isHedgeable: (args: A) => boolean
  /** What a request the caller aborted rejects with; by default the signal's reason. */
  abortError?: (args: A, signal: AbortSignal) => unknown
  /** Whether a failure is the endpoint's own answer to the call (invalid params), not a failure to get one (a timeout,
   * no connection, an error status): a request that gets no result reports the first such answer. By default none is. */
  isAnswer?: (error: unknown) => boolean
}

export type RankedFallbackParameters = {
  /** Rank the endpoints by latency and stability (SPEC §4); off by default here, on in the widget. */
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
  /** shouldThrow said no other endpoint would answer differently. */
  | { type: 'stopped'; error: unknown; index: number }
  | { type: 'failed'; retriable: number[] }

/** The error a request that got no result ends with: the first an endpoint answered (`isAnswer`), else the latest failure. */
function createReportedError(isAnswer: (error: unknown) => boolean = () => false) {
  let error: unknown
  let isAnswered = false
  return {
    note(failure: unknown) {
      if (isAnswered) return
      error = failure
      isAnswered = isAnswer(failure)
    },
    get error() {
      return error
    },
    /** The endpoint's answer when one was noted, else `failure` (a timeout of the whole request). */
    answerOr: (failure: unknown) => (isAnswered ? error : failure),
  }
}

/**
 * A network's endpoints behind one `request`, for every chain family (the EVM transport, Solana's JSON-RPC, Bitcoin's
 * Esplora REST); tries them in ranked order and never waits on a dead one:
 * 1. a round asks the endpoints one after the other, healthy ones first (endpointHealth): a failure or a timeout
 *    moves the request to the next endpoint at once and cools the failed one; a Retry-After sets it aside for that
 *    long (at most maxRetryAfterMs);
 * 2. a hedgeable request that has no answer within the hedge delay is also sent to the next endpoint; the first answer
 *    wins, the others are aborted, and the ones it overtook cool off as if they had timed out;
 * 3. shouldThrow errors end the request; one that is also worth a retry is retried where it happened, after the
 *    backoff, but never moved to another endpoint (SPEC §4, §8);
 * 4. after a round in which every endpoint failed, the endpoints whose failure is worth a retry get another round
 *    after retryDelayMs × 2^round (or until a Retry-After ends, if every one of them is held);
 * 5. the whole request has timeoutMs: attempts in flight are aborted when it runs out, and no backoff outlives it;
 * 6. an abort of the caller's signal ends it at once;
 * 7. a request that gets no result rejects with the first error an endpoint answered (rules.isAnswer: a node's own
 *    JSON-RPC error), which says more than any dead endpoint's; without one, with the latest failure.
 * @example const solana = createRankedFallback(urls.map(toSolanaEndpoint), solanaFailureRules, { rank: true }); await solana.request({ method: 'getSlot', params: [] })
 */
export function createRankedFallback<A>(
  endpoints: readonly RankedEndpoint<A>[],
  rules: FailureRules<A>,
  {
    rank = false,
    onRanking,
    timeoutMs = 10_000,
    retryCount: defaultRetryCount = 3,
    retryDelayMs = 150,
    maxRetryAfterMs = MAX_RETRY_AFTER_MS,
    coolOffMs = 1_000,
    maxCoolOffMs = 30_000,
    minHedgeDelayMs = 250,
    maxHedgeDelayMs = 1_000,
    now = () => performance.now(),
    sleep = defaultSleep,
  }: RankedFallbackParameters = {},
) {
  if (endpoints.length === 0) throw new Error('createRankedFallback needs at least one endpoint')
  const health = createEndpointHealth({ count: endpoints.length, coolOffMs, maxCoolOffMs, now })
  let ranked = endpoints.map((_, index) => index)
  let latencyMs: number[] = endpoints.map(() => Infinity)

  const noteFailure = (index: number, error: unknown) => {
    const retryAfterMs = rules.retryAfterMs(error)
    if (retryAfterMs === undefined) health.fail(index)
    else health.hold(index, Math.min(retryAfterMs, maxRetryAfterMs))
  }

  // With one endpoint there is no order to keep: no pings.
  let ranking: TransportRanking | undefined
  if (rank && endpoints.length > 1) {
    ranking = createTransportRanking({
      ...(typeof rank === 'object' ? rank : {}),
      // The pings are the probes of the circuit breaker: an answer ends a cool-off, a failure starts one.
      pings: endpoints.map((endpoint, index) => async (signal: AbortSignal) => {
        try {
          await endpoint.ping(signal)
          health.succeed(index)
        } catch (error) {
          noteFailure(index, error)
          throw error
        }
      }),
    })
    ranking.subscribe((list) => {
      ranked = list.map((r) => r.index)
      latencyMs = endpoints.map((_, index) => list.find((r) => r.index === index)?.latencyMs ?? Infinity)
    })
    onRanking?.(ranking)
  }

  const hedgeDelayMs = (index: number) => getHedgeDelayMs({ latencyMs: latencyMs[index]!, minMs: minHedgeDelayMs, maxMs: maxHedgeDelayMs })

  const abortError = (args: A, signal: AbortSignal) => (rules.abortError ? rules.abortError(args, signal) : getAbortError(signal))

  type Round = { args: A; order: readonly number[]; isHedged: boolean; deadlineAt: number; signal: AbortSignal | undefined; reported: ReturnType<typeof createReportedError> }
  const runRound = ({ args, order, isHedged, deadlineAt, signal, reported }: Round) =>
    new Promise<RoundOutcome>((resolve, reject) => {
      const queue = [...order]
      const inFlight = new Map<number, { controller: AbortController; launch: number }>()
      const retriable: number[] = []
      let launches = 0
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
      const onAbort = () => settle(() => reject(abortError(args, signal!)))
      const onDeadline = () => {
        const urls = [...inFlight.keys()].map((index) => endpoints[index]!.url).join(', ') || 'fallback'
        settle(() => reject(reported.answerOr(rules.timeoutError(args, urls))))
      }
      const deadlineTimer = setTimeout(onDeadline, Math.max(0, deadlineAt - now()))
      signal?.addEventListener('abort', onAbort, { once: true })

      const launch = () => {
        const index = queue.shift()!
        const controller = new AbortController()
        const attempt = { controller, launch: launches++ }
        inFlight.set(index, attempt)
        endpoints[index]!.request(args, controller.signal).then(
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
            if (rules.shouldThrow(error)) return settle(() => resolve({ type: 'stopped', error, index }))
            noteFailure(index, error)
            reported.note(error)
            if (rules.shouldRetry(error)) retriable.push(index)
            next()
          },
        )
        armHedge(index)
      }
      const next = () => {
        if (queue.length > 0) launch()
        else if (inFlight.size === 0) settle(() => resolve({ type: 'failed', retriable }))
      }
      // Hedge onto the next endpoint only if it is healthy: a cooling one is asked only after a failure.
      const armHedge = (index: number) => {
        clearTimeout(hedgeTimer)
        if (!isHedged || queue.length === 0 || health.isCooling(queue[0]!)) return
        hedgeTimer = setTimeout(() => !isSettled && queue.length > 0 && launch(), hedgeDelayMs(index))
      }
      next()
    })

  return {
    urls: endpoints.map((endpoint) => endpoint.url),
    /** Ends the ranking's pings (a network configured anew, the client dropped). */
    stop: () => ranking?.stop(),
    /** The answer of the first endpoint that gives one; `retryCount` overrides the rounds for this request (0 for a send). */
    async request(args: A, { signal, retryCount = defaultRetryCount }: { signal?: AbortSignal | undefined; retryCount?: number } = {}): Promise<unknown> {
      if (signal?.aborted) throw abortError(args, signal)
      const deadlineAt = now() + timeoutMs
      const isHedged = rules.isHedgeable(args)
      const reported = createReportedError(rules.isAnswer)
      let candidates = endpoints.map((_, index) => index)
      for (let round = 0; ; round++) {
        const order = health.order(ranked).filter((index) => candidates.includes(index))
        const outcome = await runRound({ args, order, isHedged, deadlineAt, signal, reported })
        if (outcome.type === 'answered') return outcome.result
        if (outcome.type === 'stopped') {
          if (!rules.shouldRetry(outcome.error)) throw outcome.error
          reported.note(outcome.error)
          candidates = [outcome.index]
        } else candidates = outcome.retriable
        if (round >= retryCount || candidates.length === 0) throw reported.error
        const waitMs = Math.max(retryDelayMs * 2 ** round, health.msUntilUnheld(candidates))
        if (now() + waitMs >= deadlineAt) throw reported.error
        await sleep(waitMs, signal)
        if (signal?.aborted) throw abortError(args, signal)
      }
    },
  }
}

export type RankedFallback<A> = ReturnType<typeof createRankedFallback<A>>
