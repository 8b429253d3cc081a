import { Redis } from 'ioredis'
import { DAY_MS, type DailyGasCheck, type DailyGasUsage, type DailyGasUsageParameters, type DailyGasUsageStats } from './dailyGasUsage'

export type RedisDailyGasUsageParameters = DailyGasUsageParameters & {
  /** `redis://[[user]:password@]host:port[/db]`, or `rediss://…` for TLS. */
  url: string
  /** Put before every key, so several services (or tests) can share one Redis. */
  keyPrefix?: string
  /** A command Redis has not answered by then fails, and the request is refused (usageUnavailable). */
  commandTimeoutMs?: number
}

/**
 * One step of the count, in Redis: today's hash maps each account to its sponsored gas. KEYS[1] the day's hash;
 * ARGV: account, gas, allowance, most accounts, whether to count it ('1'), the hash's lifetime in seconds. Answers
 * { verdict, gas with this operation's }. Lua numbers are doubles: exact for every count, each at most the allowance
 * (itself at most 2^53 - 1).
 */
const countScript = `
local before = redis.call('HGET', KEYS[1], ARGV[1])
local gas = tonumber(ARGV[2])
local total = tonumber(before or '0') + gas
local allowance = tonumber(ARGV[3])
if (gas == 0 and total >= allowance) or total > allowance then return {'exhausted', string.format('%.0f', total)} end
if not before and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[4]) then return {'capacity', '0'} end
if ARGV[5] == '1' and gas > 0 then
  redis.call('HSET', KEYS[1], ARGV[1], string.format('%.0f', total))
  redis.call('EXPIRE', KEYS[1], tonumber(ARGV[6]))
end
return {'ok', string.format('%.0f', total)}
`

type CountingRedis = Redis & { paymasterCount: (key: string, ...args: string[]) => Promise<[string, string]> }

/**
 * Sponsored gas per account per UTC day in Redis, shared by every paymaster instance: the check and the reservation
 * are one Lua script each time, so two instances cannot both give the last of an account's allowance, and a new day is
 * a new hash (the old one expires after two days). At most `maxAccounts` accounts are counted a day, as in memory.
 * While Redis does not answer, every request is refused with usageUnavailable within commandTimeoutMs (none is
 * queued), and ioredis reconnects by itself.
 * @example createPaymasterApp({ ...config, usage: createRedisDailyGasUsage({ url: process.env.REDIS_URL!, maxAccounts: 100_000 }) })
 */
export function createRedisDailyGasUsage({ url, keyPrefix = 'tessera:paymaster:', commandTimeoutMs = 2_000, maxAccounts, now = Date.now, onFull }: RedisDailyGasUsageParameters): DailyGasUsage & { close: () => Promise<void> } {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: commandTimeoutMs, retryStrategy: (attempt) => Math.min(attempt * 100, 1_000) }) as CountingRedis
  // Each failed reconnect is reported; each request meanwhile fails on its own.
  redis.on('error', () => {})
  redis.defineCommand('paymasterCount', { numberOfKeys: 1, lua: countScript })
  let toldFullOn: number | undefined

  const today = () => Math.floor(now() / DAY_MS)
  const dayKey = (day: number) => `${keyPrefix}gas:${new Date(day * DAY_MS).toISOString().slice(0, 10)}`

  /** Resolves once connected, or rejects after commandTimeoutMs (the first request after start, or a reconnect). */
  const whenReady = () =>
    redis.status === 'ready'
      ? Promise.resolve()
      : new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => {
            redis.off('ready', onReady)
            reject(new Error('Redis is not connected'))
          }, commandTimeoutMs)
          const onReady = () => {
            clearTimeout(timer)
            resolve()
          }
          redis.once('ready', onReady)
        })

  const count = async ({ key, gas, dailyGas }: { key: string; gas: bigint; dailyGas: bigint }, isReserving: boolean): Promise<DailyGasCheck> => {
    const day = today()
    let answer: [string, string]
    try {
      await whenReady()
      answer = await redis.paymasterCount(dayKey(day), key, gas.toString(), dailyGas.toString(), String(maxAccounts), isReserving ? '1' : '0', String((2 * DAY_MS) / 1_000))
    } catch {
      return { ok: false, reason: 'usageUnavailable' }
    }
    const [verdict, total] = answer
    if (verdict === 'exhausted') return { ok: false, reason: 'dailyGasExhausted', usedGas: BigInt(total) }
    if (verdict === 'capacity') {
      if (toldFullOn !== day) {
        toldFullOn = day
        onFull?.({ day: new Date(day * DAY_MS).toISOString().slice(0, 10), trackedAccounts: maxAccounts, maxAccounts, isFull: true })
      }
      return { ok: false, reason: 'sponsorAtCapacity' }
    }
    return { ok: true, usedGas: BigInt(total) }
  }

  return {
    check: (parameters) => count(parameters, false),
    reserve: (parameters) => count(parameters, true),
    async stats(): Promise<DailyGasUsageStats> {
      const day = today()
      await whenReady()
      const trackedAccounts = await redis.hlen(dayKey(day))
      return { day: new Date(day * DAY_MS).toISOString().slice(0, 10), trackedAccounts, maxAccounts, isFull: trackedAccounts >= maxAccounts }
    },
    close: async () => void (await redis.quit().catch(() => redis.disconnect())),
  }
}
