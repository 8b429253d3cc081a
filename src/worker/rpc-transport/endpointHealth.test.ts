import { describe, expect, it } from 'vitest'
import { createEndpointHealth } from './endpointHealth'

function setup() {
  const clock = { t: 0 }
  return { clock, health: createEndpointHealth({ count: 3, now: () => clock.t }) }
}

describe('createEndpointHealth', () => {
  it('cools a failed endpoint for 1 s, doubling with each failure in a row, up to 30 s', () => {
    const { clock, health } = setup()
    const coolOffs: number[] = []
    for (let i = 0; i < 8; i++) {
      health.fail(0)
      const from = clock.t
      while (health.isCooling(0)) clock.t += 1
      coolOffs.push(clock.t - from)
    }
    expect(coolOffs).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000])
  })

  it('counts failures seen while already cooling as the same outage', () => {
    const { clock, health } = setup()
    health.fail(0)
    clock.t = 500
    health.fail(0)
    health.fail(0)
    clock.t = 1_000
    expect(health.isCooling(0)).toBe(false)
  })

  it('forgets the run of failures after a success', () => {
    const { clock, health } = setup()
    health.fail(0)
    clock.t = 1_000
    health.fail(0) // 2 s
    health.succeed(0)
    expect(health.isCooling(0)).toBe(false)
    health.fail(0)
    clock.t = 2_000
    expect(health.isCooling(0)).toBe(false)
  })

  it('keeps a Retry-After hold through a success: the node asked for the time', () => {
    const { clock, health } = setup()
    health.hold(1, 5_000)
    health.succeed(1)
    clock.t = 4_999
    expect(health.isCooling(1)).toBe(true)
    expect(health.msUntilUnheld([1])).toBe(1)
    expect(health.msUntilUnheld([1, 2])).toBe(0)
    clock.t = 5_000
    expect(health.isCooling(1)).toBe(false)
  })

  it('orders cooling endpoints last, soonest ready first, and keeps the preferred order of the others', () => {
    const { clock, health } = setup()
    health.fail(2) // ready at 1 s
    clock.t = 100
    health.hold(0, 500) // ready at 600 ms
    expect(health.order([0, 1, 2])).toEqual([1, 0, 2])
    expect(health.order([2, 1, 0])).toEqual([1, 0, 2])
    clock.t = 600
    expect(health.order([2, 1, 0])).toEqual([1, 0, 2])
    clock.t = 1_000
    expect(health.order([2, 1, 0])).toEqual([2, 1, 0])
  })
})
