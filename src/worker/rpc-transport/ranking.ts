export type RankingWeights = { stability: number; latency: number }

export type TransportSample = { latencyMs: number; isSuccess: boolean }

export type RankedTransport = { index: number; score: number; stability: number; latencyMs: number }

export type CreateTransportRankingParameters = {
  /** One ping per transport; resolves when the transport answered. */
  pings: readonly ((signal: AbortSignal) => Promise<unknown>)[]
  intervalMs?: number
  sampleCount?: number
  pingTimeoutMs?: number
  weights?: RankingWeights
  now?: () => number
  setTimer?: (run: () => void, ms: number) => unknown
  clearTimer?: (timer: unknown) => void
}

/**
 * Scores transports by the last samples: score = stability × weight + (1 − latency / slowest) × weight.
 * 1. each sample is one ping: success, and its latency (a failure or timeout counts as unstable);
 * 2. stability = successes / samples; latency = mean latency of the successes;
 * 3. transports are ordered by score, ties keep their configured order.
 */
export function rankTransports(samples: readonly (readonly TransportSample[])[], weights: RankingWeights): RankedTransport[] {
  const stats = samples.map((list, index) => {
    const successes = list.filter((s) => s.isSuccess)
    const stability = list.length === 0 ? 0 : successes.length / list.length
    const latencyMs = successes.length === 0 ? Infinity : successes.reduce((sum, s) => sum + s.latencyMs, 0) / successes.length
    return { index, stability, latencyMs }
  })
  const slowest = Math.max(0, ...stats.map((s) => s.latencyMs).filter(Number.isFinite))
  return stats
    .map((s) => {
      const latencyScore = !Number.isFinite(s.latencyMs) ? 0 : slowest === 0 ? 1 : 1 - s.latencyMs / slowest
      return { ...s, score: s.stability * weights.stability + latencyScore * weights.latency }
    })
    .sort((a, b) => b.score - a.score || a.index - b.index)
}

/**
 * Pings every transport each interval and keeps them ranked. The loop runs only while someone listens:
 * it starts with the first subscriber and stops with the last (or with stop()).
 * @example const ranking = createTransportRanking({ pings }); const unsubscribe = ranking.subscribe(console.log)
 */
export function createTransportRanking({
  pings,
  intervalMs = 4_000,
  sampleCount = 10,
  pingTimeoutMs = 1_000,
  weights = { stability: 0.7, latency: 0.3 },
  now = () => performance.now(),
  setTimer = (run, ms) => setTimeout(run, ms),
  clearTimer = (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
}: CreateTransportRankingParameters) {
  const samples: TransportSample[][] = pings.map(() => [])
  const listeners = new Set<(ranked: RankedTransport[]) => void>()
  let ranked: RankedTransport[] = pings.map((_, index) => ({ index, score: 0, stability: 0, latencyMs: Infinity }))
  let timer: unknown
  let round = 0

  const pingOne = async (ping: (signal: AbortSignal) => Promise<unknown>): Promise<TransportSample> => {
    const controller = new AbortController()
    const started = now()
    let timeout: unknown
    const timedOut = new Promise<false>((resolve) => (timeout = setTimer(() => resolve(false), pingTimeoutMs)))
    try {
      const isSuccess = await Promise.race([ping(controller.signal).then(() => true, () => false), timedOut])
      return { latencyMs: now() - started, isSuccess }
    } finally {
      clearTimer(timeout)
      controller.abort()
    }
  }

  const runRound = async () => {
    const thisRound = ++round
    const results = await Promise.all(pings.map(pingOne))
    if (thisRound !== round || listeners.size === 0) return
    results.forEach((sample, i) => samples[i]!.push(sample) > sampleCount && samples[i]!.shift())
    ranked = rankTransports(samples, weights)
    for (const listener of listeners) listener(ranked)
    timer = setTimer(() => void runRound(), intervalMs)
  }

  const stop = () => {
    listeners.clear()
    round++
    clearTimer(timer)
    timer = undefined
  }

  return {
    /** The latest ranking (configured order before the first round). */
    getRanked: () => ranked,
    subscribe(listener: (ranked: RankedTransport[]) => void) {
      listeners.add(listener)
      if (listeners.size === 1) void runRound()
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0) stop()
      }
    },
    stop,
  }
}

export type TransportRanking = ReturnType<typeof createTransportRanking>
