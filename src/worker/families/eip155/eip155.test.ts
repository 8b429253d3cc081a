import { describe, expect, it } from 'vitest'
import { pollingIntervalFor } from './eip155'

describe('pollingIntervalFor', () => {
  it('polls twice per block, between 0.5 and 4 s, and every 4 s when the block time is not given', () => {
    expect([undefined, 12_000, 8_000, 2_000, 1_000, 250].map(pollingIntervalFor)).toEqual([4_000, 4_000, 4_000, 1_000, 500, 500])
  })
})
