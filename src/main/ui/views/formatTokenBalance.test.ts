import { describe, expect, it } from 'vitest'
import { formatTokenBalance } from './formatTokenBalance'

describe('a token balance in the send form', () => {
  it.each([
    ['en', '9999.98765', '9,999.987'],
    ['fr', '9999.98765', '9\u202f999,987'],
    ['en', '1000000', '1,000,000.000'],
    ['en', '0', '0.000'],
    ['en', '0.0004', '< 0.001'],
    ['fr', '0.000000000000000001', '< 0,001'],
    ['en', '0.001', '0.001'],
    // Every digit of a large balance, never through a binary float.
    ['en', '123456789012345678901.999', '123,456,789,012,345,678,901.999'],
  ])('%s: %s → %s', (locale, numeric, text) => {
    expect(formatTokenBalance(locale, numeric)).toBe(text)
  })
})
