import { describe, expect, it } from 'vitest'
import { parseBitcoinAmount } from './parseBitcoinAmount'

describe('parseBitcoinAmount', () => {
  it.each([
    ['0.1', 10_000_000n],
    ['1', 100_000_000n],
    ['0.00000546', 546n],
    ['0.10000000', 10_000_000n],
    ['0.123456780', 12_345_678n], // trailing zeros past 8 decimals change nothing
    [' 2.5 ', 250_000_000n],
    ['21000000', 2_100_000_000_000_000n],
  ])('%s BTC is %s sats', (text, sats) => expect(parseBitcoinAmount(text)).toBe(sats))

  it.each(['', '0', '0.0', '-1', '1e3', '1,5', '.5', '0.000000001', '21000000.00000001', 'abc', undefined])('refuses %o with its sentence', (text) => {
    expect(() => parseBitcoinAmount(text)).toThrow(expect.objectContaining({ code: 'BITCOIN_AMOUNT_INVALID', shortMessage: 'Enter an amount of BTC more than 0, with at most 8 decimals', field: 'amount' }))
  })
})
