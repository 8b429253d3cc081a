import { describe, expect, it } from 'vitest'
import { restartDelay } from './runCluster'

describe('restartDelay: when the launcher restarts an instance that died', () => {
  it('waits the first delay after a first death, doubling with each death in a row', () => {
    expect([1, 2, 3, 4].map((deaths) => restartDelay(deaths, 1_000))).toEqual([1_000, 2_000, 4_000, 8_000])
  })

  it('waits 30 s at most', () => {
    expect(restartDelay(4, 10_000)).toBe(30_000)
  })

  it('leaves an instance down from its fifth death in a row', () => {
    expect(restartDelay(5, 1_000)).toBeUndefined()
    expect(restartDelay(9, 1_000)).toBeUndefined()
  })
})
