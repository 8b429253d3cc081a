export type CreateEndpointHealthParameters = {
  count: number
  /** The first cool-off after a failure; each further failure in a row doubles it. */
  coolOffMs?: number
  maxCoolOffMs?: number
  now?: () => number
}

/**
 * A circuit breaker per endpoint, so a request never starts on a node that just failed:
 * 1. a failure (an error, a timeout, or a hedge that overtook it) cools the endpoint for coolOffMs, doubling with each
 *    failure in a row up to maxCoolOffMs; failures while it is already cooling don't count again (they are the
 *    same outage seen by requests that were in flight);
 * 2. a Retry-After holds it for that long, and a success does not lift the hold: the node asked for the time;
 * 3. a success (a request, or a ranking ping probing it) ends the cool-off and the run of failures;
 * 4. cooling endpoints are not dropped: order() puts them last, soonest ready first.
 * @example const health = createEndpointHealth({ count: 3 }); health.fail(0); health.order([0, 1, 2]) // [1, 2, 0]
 */
export function createEndpointHealth({ count, coolOffMs = 1_000, maxCoolOffMs = 30_000, now = () => performance.now() }: CreateEndpointHealthParameters) {
  const states = Array.from({ length: count }, () => ({ failures: 0, coolUntil: 0, holdUntil: 0 }))
  const readyAt = (index: number) => Math.max(states[index]!.coolUntil, states[index]!.holdUntil)
  const isCooling = (index: number) => now() < readyAt(index)

  return {
    isCooling,
    fail(index: number) {
      const state = states[index]!
      if (now() < state.coolUntil) return
      state.failures++
      state.coolUntil = now() + Math.min(coolOffMs * 2 ** (state.failures - 1), maxCoolOffMs)
    },
    hold(index: number, ms: number) {
      const state = states[index]!
      state.holdUntil = Math.max(state.holdUntil, now() + ms)
    },
    succeed(index: number) {
      const state = states[index]!
      state.failures = 0
      state.coolUntil = 0
    },
    /** `preferred` with the cooling endpoints moved to the end, soonest ready first. */
    order(preferred: readonly number[]): number[] {
      const ready = preferred.filter((index) => !isCooling(index))
      const cooling = preferred.filter(isCooling).sort((a, b) => readyAt(a) - readyAt(b))
      return [...ready, ...cooling]
    },
    /** How long until one of `indexes` is no longer held by a Retry-After (0 if one is not held now). */
    msUntilUnheld(indexes: readonly number[]): number {
      const t = now()
      return Math.max(0, Math.min(...indexes.map((index) => states[index]!.holdUntil - t)))
    },
  }
}

export type EndpointHealth = ReturnType<typeof createEndpointHealth>
