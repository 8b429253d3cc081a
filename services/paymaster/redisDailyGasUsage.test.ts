import { Redis } from 'ioredis'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useRedisServer } from '../relay/testing/startRedis'
import { createRedisDailyGasUsage, type RedisDailyGasUsageParameters } from './redisDailyGasUsage'

const at = (iso: string) => Date.parse(iso)
const DAILY = 1_000_000n

describe('sponsored gas per account and day in Redis, shared by paymaster instances', () => {
  const redis = useRedisServer()
  const opened: { close: () => Promise<void> }[] = []
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((usage) => usage.close()))
  })
  let prefix = 0
  /** Two instances' counts on one Redis, under a prefix of their own (tests do not share accounts). */
  const instances = (parameters: Partial<RedisDailyGasUsageParameters> = {}) => {
    const keyPrefix = `test${++prefix}:`
    const make = () => {
      const usage = createRedisDailyGasUsage({ url: redis().url, keyPrefix, maxAccounts: 10, now: () => at('2026-11-28T12:00:00Z'), ...parameters })
      opened.push(usage)
      return usage
    }
    return { a: make(), b: make(), keyPrefix }
  }

  it('an allowance used on one instance is used on the other: what is left, what is refused, with the day’s total', async () => {
    const { a, b } = instances()
    expect(await a.reserve({ key: 'alice', gas: 600_000n, dailyGas: DAILY })).toEqual({ ok: true, usedGas: 600_000n })
    expect(await b.check({ key: 'alice', gas: 500_000n, dailyGas: DAILY })).toEqual({ ok: false, reason: 'dailyGasExhausted', usedGas: 1_100_000n })
    expect(await b.reserve({ key: 'alice', gas: 400_000n, dailyGas: DAILY })).toEqual({ ok: true, usedGas: 1_000_000n })
    expect(await a.check({ key: 'alice', gas: 0n, dailyGas: DAILY })).toEqual({ ok: false, reason: 'dailyGasExhausted', usedGas: 1_000_000n })
    // A check counts nothing; another account has its own allowance.
    expect(await a.check({ key: 'bob', gas: 900_000n, dailyGas: DAILY })).toEqual({ ok: true, usedGas: 900_000n })
    expect(await b.check({ key: 'bob', gas: 900_000n, dailyGas: DAILY })).toEqual({ ok: true, usedGas: 900_000n })
    expect(await a.stats()).toEqual({ day: '2026-11-28', trackedAccounts: 1, maxAccounts: 10, isFull: false })
  })

  it('concurrent reservations on both instances never give more than the allowance', async () => {
    const { a, b } = instances()
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).reserve({ key: 'carol', gas: 100_000n, dailyGas: DAILY })))
    expect(answers.filter((answer) => answer.ok)).toHaveLength(10)
    expect(await a.check({ key: 'carol', gas: 0n, dailyGas: DAILY })).toMatchObject({ ok: false, usedGas: 1_000_000n })
  })

  it('a new UTC day is a new count, and a day’s count expires from Redis after two days', async () => {
    let now = at('2026-11-28T23:59:00Z')
    const { a, keyPrefix } = instances({ now: () => now })
    await a.reserve({ key: 'dave', gas: DAILY, dailyGas: DAILY })
    expect(await a.check({ key: 'dave', gas: 1n, dailyGas: DAILY })).toMatchObject({ ok: false })
    now = at('2026-11-29T00:00:01Z')
    expect(await a.reserve({ key: 'dave', gas: 1n, dailyGas: DAILY })).toEqual({ ok: true, usedGas: 1n })
    const admin = new Redis(redis().url)
    try {
      const ttl = await admin.ttl(`${keyPrefix}gas:2026-11-28`)
      expect(ttl).toBeGreaterThan(0)
      expect(ttl).toBeLessThanOrEqual(2 * 86_400)
    } finally {
      admin.disconnect()
    }
  })

  it('counts at most maxAccounts accounts a day on all instances together: a new one past it is refused, said once in the log', async () => {
    const onFull = vi.fn()
    const { a, b } = instances({ maxAccounts: 2, onFull })
    await a.reserve({ key: 'one', gas: 1n, dailyGas: DAILY })
    await b.reserve({ key: 'two', gas: 1n, dailyGas: DAILY })
    expect(await a.reserve({ key: 'three', gas: 1n, dailyGas: DAILY })).toEqual({ ok: false, reason: 'sponsorAtCapacity' })
    expect(await a.reserve({ key: 'four', gas: 1n, dailyGas: DAILY })).toEqual({ ok: false, reason: 'sponsorAtCapacity' })
    // Accounts already counted keep their allowance.
    expect(await b.reserve({ key: 'one', gas: 1n, dailyGas: DAILY })).toEqual({ ok: true, usedGas: 2n })
    expect(onFull).toHaveBeenCalledOnce()
    expect(onFull).toHaveBeenCalledWith({ day: '2026-11-28', trackedAccounts: 2, maxAccounts: 2, isFull: true })
  })

  it('while Redis does not answer, each request is refused as usageUnavailable within the command timeout, and counting resumes after', async () => {
    const { a } = instances({ commandTimeoutMs: 300 })
    await a.reserve({ key: 'erin', gas: 1n, dailyGas: DAILY })
    redis().pause()
    try {
      const started = Date.now()
      expect(await a.reserve({ key: 'erin', gas: 1n, dailyGas: DAILY })).toEqual({ ok: false, reason: 'usageUnavailable' })
      expect(Date.now() - started).toBeLessThan(5_000)
    } finally {
      redis().resume()
    }
    await expect.poll(() => a.reserve({ key: 'erin', gas: 1n, dailyGas: DAILY }), { timeout: 10_000 }).toMatchObject({ ok: true })
  })
})
