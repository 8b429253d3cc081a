/** A day in UTC: 86,400,000 ms from the epoch, as Date counts them (no leap seconds). */
export const DAY_MS = 86_400_000

export type DailyGasUsageParameters = {
  /** Accounts counted at once; a new account past it is refused (see PaymasterLimits.trackedAccounts). */
  maxAccounts: number
  /** Milliseconds since the epoch; Date.now by default. */
  now?: () => number
  /** Told once a day, when the map first fills. */
  onFull?: (stats: DailyGasUsageStats) => void
}

export type DailyGasUsageStats = {
  /** The UTC day counted, YYYY-MM-DD. */
  day: string
  trackedAccounts: number
  maxAccounts: number
  isFull: boolean
}

export type DailyGasCheck =
  | { ok: true; usedGas: bigint }
  /** `usedGas`: today's sponsored gas with this operation's added, which `dailyGas` does not allow. */
  | { ok: false; reason: 'dailyGasExhausted'; usedGas: bigint }
  | { ok: false; reason: 'sponsorAtCapacity' }
  /** The shared count (Redis) did not answer: nothing is sponsored until it does. */
  | { ok: false; reason: 'usageUnavailable' }

type Awaitable<T> = T | Promise<T>

/** Sponsored gas per account per day: in this process (createDailyGasUsage) or shared by instances (createRedisDailyGasUsage). */
export type DailyGasUsage = {
  /** Whether `gas` more fits `key`'s allowance for today, without counting it. A `gas` of 0 asks whether any is left. */
  check: (parameters: { key: string; gas: bigint; dailyGas: bigint }) => Awaitable<DailyGasCheck>
  /** As check, and when it fits, counts it in one step (a reservation: it is not given back if the operation never lands). */
  reserve: (parameters: { key: string; gas: bigint; dailyGas: bigint }) => Awaitable<DailyGasCheck>
  stats: () => Awaitable<DailyGasUsageStats>
}

/** The in-process count answers at once. */
export type MemoryDailyGasUsage = {
  [K in keyof DailyGasUsage]: (...args: Parameters<DailyGasUsage[K]>) => Awaited<ReturnType<DailyGasUsage[K]>>
}

/**
 * Sponsored gas per account per UTC day, in memory and bounded (one instance; createRedisDailyGasUsage shares it): at the first call of a new day every entry of the day
 * before is dropped, and at most `maxAccounts` accounts are counted at once (a new one past that is refused, never an old
 * one forgotten, which would give it a fresh allowance). Gas is kept as a number: each count stays at or under its
 * allowance, itself at most 2^53 - 1.
 * @example const usage = createDailyGasUsage({ maxAccounts: 100_000 }); usage.reserve({ key, gas: 300_000n, dailyGas: 1_000_000n })
 */
export function createDailyGasUsage({ maxAccounts, now = Date.now, onFull }: DailyGasUsageParameters): MemoryDailyGasUsage {
  const used = new Map<string, number>()
  let day = Math.floor(now() / DAY_MS)
  let hasToldFull = false

  const stats = (): DailyGasUsageStats => ({
    day: new Date(day * DAY_MS).toISOString().slice(0, 10),
    trackedAccounts: used.size,
    maxAccounts,
    isFull: used.size >= maxAccounts,
  })
  const rollOver = () => {
    const today = Math.floor(now() / DAY_MS)
    if (today === day) return
    day = today
    used.clear()
    hasToldFull = false
  }
  const evaluate = ({ key, gas, dailyGas }: { key: string; gas: bigint; dailyGas: bigint }): DailyGasCheck => {
    rollOver()
    const before = used.get(key)
    const total = BigInt(before ?? 0) + gas
    // Nothing left (asked with gas 0), or this operation would pass the allowance.
    if ((gas === 0n && total >= dailyGas) || total > dailyGas) return { ok: false, reason: 'dailyGasExhausted', usedGas: total }
    if (before === undefined && used.size >= maxAccounts) {
      if (!hasToldFull) {
        hasToldFull = true
        onFull?.(stats())
      }
      return { ok: false, reason: 'sponsorAtCapacity' }
    }
    return { ok: true, usedGas: total }
  }

  return {
    check: evaluate,
    reserve(parameters) {
      const result = evaluate(parameters)
      if (result.ok && parameters.gas > 0n) used.set(parameters.key, Number(result.usedGas))
      return result
    },
    stats() {
      rollOver()
      return stats()
    },
  }
}
