import { describe, expect, it, vi } from 'vitest'
import { createDailyGasUsage } from './dailyGasUsage'

const at = (iso: string) => Date.parse(iso)

describe('createDailyGasUsage', () => {
  it('counts reserved gas per key up to the allowance; check never counts; gas 0 asks whether any is left', () => {
    const usage = createDailyGasUsage({ maxAccounts: 10, now: () => at('2026-03-01T10:00:00Z') })
    const dailyGas = 1_000n
    expect(usage.check({ key: 'a', gas: 600n, dailyGas })).toEqual({ ok: true, usedGas: 600n })
    expect(usage.stats().trackedAccounts).toBe(0)
    expect(usage.reserve({ key: 'a', gas: 600n, dailyGas })).toEqual({ ok: true, usedGas: 600n })
    expect(usage.reserve({ key: 'a', gas: 401n, dailyGas })).toEqual({ ok: false, reason: 'dailyGasExhausted', usedGas: 1_001n })
    expect(usage.reserve({ key: 'a', gas: 400n, dailyGas })).toEqual({ ok: true, usedGas: 1_000n })
    expect(usage.check({ key: 'a', gas: 0n, dailyGas })).toEqual({ ok: false, reason: 'dailyGasExhausted', usedGas: 1_000n })
    expect(usage.check({ key: 'b', gas: 0n, dailyGas })).toEqual({ ok: true, usedGas: 0n })
    // A gas figure far past 2^53 is compared exactly, and refused.
    expect(usage.reserve({ key: 'b', gas: 2n ** 128n, dailyGas })).toEqual({ ok: false, reason: 'dailyGasExhausted', usedGas: 2n ** 128n })
    expect(usage.stats()).toEqual({ day: '2026-03-01', trackedAccounts: 1, maxAccounts: 10, isFull: false })
  })

  it("drops yesterday's entries at the first call after 00:00 UTC", () => {
    let now = at('2026-03-01T23:59:59.999Z')
    const usage = createDailyGasUsage({ maxAccounts: 10, now: () => now })
    usage.reserve({ key: 'a', gas: 1_000n, dailyGas: 1_000n })
    usage.reserve({ key: 'b', gas: 1n, dailyGas: 1_000n })
    expect(usage.check({ key: 'a', gas: 1n, dailyGas: 1_000n }).ok).toBe(false)
    now = at('2026-03-02T00:00:00Z')
    expect(usage.check({ key: 'a', gas: 1_000n, dailyGas: 1_000n })).toEqual({ ok: true, usedGas: 1_000n })
    expect(usage.stats()).toEqual({ day: '2026-03-02', trackedAccounts: 0, maxAccounts: 10, isFull: false })
  })

  it('refuses a new key once maxAccounts are counted, keeps serving the counted ones, tells onFull once a day', () => {
    let now = at('2026-03-01T12:00:00Z')
    const onFull = vi.fn()
    const usage = createDailyGasUsage({ maxAccounts: 2, now: () => now, onFull })
    for (const key of ['a', 'b']) expect(usage.reserve({ key, gas: 1n, dailyGas: 10n }).ok).toBe(true)
    expect(usage.reserve({ key: 'c', gas: 1n, dailyGas: 10n })).toEqual({ ok: false, reason: 'sponsorAtCapacity' })
    expect(usage.check({ key: 'd', gas: 0n, dailyGas: 10n })).toEqual({ ok: false, reason: 'sponsorAtCapacity' })
    expect(usage.reserve({ key: 'a', gas: 1n, dailyGas: 10n })).toEqual({ ok: true, usedGas: 2n })
    expect(usage.stats()).toMatchObject({ trackedAccounts: 2, isFull: true })
    expect(onFull).toHaveBeenCalledTimes(1)
    expect(onFull).toHaveBeenCalledWith({ day: '2026-03-01', trackedAccounts: 2, maxAccounts: 2, isFull: true })

    now = at('2026-03-02T00:00:01Z')
    expect(usage.reserve({ key: 'c', gas: 1n, dailyGas: 10n }).ok).toBe(true)
    expect(usage.reserve({ key: 'd', gas: 1n, dailyGas: 10n }).ok).toBe(true)
    expect(usage.reserve({ key: 'e', gas: 1n, dailyGas: 10n }).ok).toBe(false)
    expect(onFull).toHaveBeenCalledTimes(2)
  })

  it('at the default limit, counts 100,000 accounts and refuses the next', () => {
    const usage = createDailyGasUsage({ maxAccounts: 100_000, now: () => at('2026-03-01T12:00:00Z') })
    const key = (n: number) => `project\n31337\n0x${n.toString(16).padStart(40, '0')}`
    for (let n = 0; n < 100_000; n++) usage.reserve({ key: key(n), gas: 300_000n, dailyGas: 1_000_000n })
    expect(usage.reserve({ key: key(100_000), gas: 1n, dailyGas: 1_000_000n })).toEqual({ ok: false, reason: 'sponsorAtCapacity' })
    expect(usage.stats().trackedAccounts).toBe(100_000)
  })
})
