import { describe, expect, it } from 'vitest'
import { formatBalance, formatTokenQuantity, formatUnits, formatUsd, parseUnits, shortenAddress } from './display'

describe('display (SPEC §5)', () => {
  it.each([
    [undefined, {}, '0.000'],
    [0n, {}, '0.000'],
    [1_999_999_999_999_999_999n, {}, '1.999'],
    [10n ** 30n, {}, '1000000000000.000'],
    [1_500_000n, { decimals: 6 }, '1.500'],
    ['2.71828', {}, '2.718'],
    ['-0.0001', {}, '0.000'],
    [5n, { isTestnetOrUnsupported: true }, '0.00'],
  ])('formatBalance(%s, %o) → %s', (value, options, expected) => expect(formatBalance(value as never, options)).toBe(expected))

  it('shows token quantities with 3 decimals and dollars with 2', () => {
    expect(formatTokenQuantity('1234.56789')).toBe('1234.567')
    expect(formatTokenQuantity(123n, 2)).toBe('1.230')
    expect(formatUsd('1234567.899')).toBe('$1,234,567.89')
    expect(formatUsd('0')).toBe('$0.00')
    expect(formatUsd('-12.5')).toBe('-$12.50')
  })

  it('converts base units exactly, in both directions', () => {
    expect(formatUnits(123_456_789_000_000_000_000_000_000_001n, 18)).toBe('123456789000.000000000000000001')
    expect(formatUnits(-1n, 6)).toBe('-0.000001')
    expect(parseUnits('1.5', 6)).toBe(1_500_000n)
    expect(parseUnits('0.1', 18) + parseUnits('0.2', 18)).toBe(parseUnits('0.3', 18))
    expect(() => parseUnits('1.2345678', 6)).toThrow('Invalid amount: "1.2345678" has more than 6 decimals')
    expect(() => parseUnits('1e5', 6)).toThrow('Invalid amount: "1e5"')
  })

  it.each([
    // The 0x prefix counts among the 4 leading characters, as the reference kit shows 0xf3…b92266.
    ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', '0xf3…b92266'],
    ['0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb', '0xab…5Bfcdb'],
    // Solana (base58, no prefix): its first 4 characters.
    ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'EPjF…yTDt1v'],
    // Nothing to gain under 4 + 1 + 6 characters.
    ['0x1234', '0x1234'],
    ['0x123456789', '0x123456789'],
    ['0x1234567890', '0x12…567890'],
  ])('shortens %s to 4 leading and 6 trailing characters: %s', (address, shown) => {
    expect(shortenAddress(address)).toBe(shown)
  })
})
