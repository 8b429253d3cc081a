import { describe, expect, it } from 'vitest'
import { formatDecimal, groupThousands, parseDecimal } from './amounts'
import type { SandboxAsset, SandboxPartner } from './config'
import { createQuoteStore, priceQuote, type QuoteRecord } from './quotes'

const E8 = 10n ** 8n

describe('decimal amounts', () => {
  it.each([
    ['12.5', 2, 1250n],
    ['12.50', 2, 1250n],
    ['12.5000', 2, 1250n],
    ['0', 2, 0n],
    ['7500', 2, 750_000n],
    ['12.345', 2, undefined],
    ['1e3', 2, undefined],
    ['-1', 2, undefined],
    ['.5', 2, undefined],
    ['1.', 2, undefined],
    ['3000', 8, 3_000n * E8],
  ])('parseDecimal(%s, %i) → %s', (text, places, expected) => expect(parseDecimal(text, places)).toBe(expected))

  it('formats with trailing zeros kept down to minPlaces, and groups thousands for sentences', () => {
    expect(formatDecimal(1250n, 2)).toBe('12.50')
    expect(formatDecimal(5n, 2)).toBe('0.05')
    expect(formatDecimal(32_500n, 6, { minPlaces: 0 })).toBe('0.0325')
    expect(formatDecimal(2_000_000n, 6, { minPlaces: 0 })).toBe('2')
    expect(formatDecimal(3_000n * E8, 8, { minPlaces: 2 })).toBe('3000.00')
    expect(formatDecimal(7n, 0)).toBe('7')
    expect(groupThousands('7500.00')).toBe('7,500.00')
    expect(groupThousands('25000.00')).toBe('25,000.00')
    expect(groupThousands('1234567.5')).toBe('1,234,567.5')
    expect(groupThousands('10.00')).toBe('10.00')
  })
})

describe('priceQuote', () => {
  const eth = { feeBasisPoints: 150n, networkFeeCents: 50n, priceE8: 3_000n * E8, decimals: 18 }

  it('takes the provider fee (rounded half up to the cent) and the network fee, and buys with the rest, rounded down to 6 places', () => {
    // 100.00 - 1.50 - 0.50 = 98.00; 98 / 3000 = 0.0326666… → 0.032666
    expect(priceQuote({ ...eth, amountCents: 10_000n })).toEqual({
      providerFeeCents: 150n,
      networkFeeCents: 50n,
      purchaseUnits: 32_666n,
      places: 6,
      purchaseBaseUnits: 32_666n * 10n ** 12n,
    })
    // 33.33 × 1.5 % = 0.49995 → 0.50
    expect(priceQuote({ ...eth, amountCents: 3_333n })?.providerFeeCents).toBe(50n)
    // 32.90 × 1.5 % = 0.4935 → 0.49
    expect(priceQuote({ ...eth, amountCents: 3_290n })?.providerFeeCents).toBe(49n)
  })

  it('quotes in fewer places for an asset of fewer decimals, and in base units exactly', () => {
    // 50.00 - 0.75 - 0.50 = 48.75 at 1.00 a token of 2 decimals: 48.75
    expect(priceQuote({ amountCents: 5_000n, feeBasisPoints: 150n, networkFeeCents: 50n, priceE8: E8, decimals: 2 })).toMatchObject({ purchaseUnits: 4_875n, places: 2, purchaseBaseUnits: 4_875n })
    // SOL (9 decimals) at 150.00: 48.75 / 150 = 0.325 → 325,000,000 lamports
    expect(priceQuote({ amountCents: 5_000n, feeBasisPoints: 150n, networkFeeCents: 50n, priceE8: 150n * E8, decimals: 9 })?.purchaseBaseUnits).toBe(325_000_000n)
  })

  it('quotes nothing when the fees take the whole amount or the rest buys less than the smallest unit quoted', () => {
    expect(priceQuote({ ...eth, amountCents: 50n })).toBeUndefined()
    expect(priceQuote({ ...eth, amountCents: 51n, priceE8: 10n ** 20n })).toBeUndefined()
  })
})

describe('createQuoteStore', () => {
  const quote = (quoteId: string, expiresAt: number) => ({ quoteId, expiresAt, partner: {} as SandboxPartner, asset: {} as SandboxAsset, isUsed: false }) as QuoteRecord

  it('keeps at most maxQuotes, dropping the oldest, and drops expired ones past their grace as new ones come', () => {
    let time = 0
    const quotes = createQuoteStore({ maxQuotes: 3, graceMs: 10, now: () => time })
    for (const id of ['a', 'b', 'c', 'd']) quotes.add(quote(id, time + 100))
    expect(quotes.size()).toBe(3)
    expect(quotes.get('a')).toBeUndefined()
    expect(quotes.get('d')?.quoteId).toBe('d')
    time = 105 // b, c and d expired, within their grace: only the oldest goes, for room
    quotes.add(quote('e', time + 100))
    expect(quotes.get('b')).toBeUndefined()
    expect(quotes.get('c')?.quoteId).toBe('c')
    time = 111
    quotes.add(quote('f', time + 100))
    expect([quotes.get('b'), quotes.get('c'), quotes.get('d')]).toEqual([undefined, undefined, undefined])
    expect(quotes.size()).toBe(2)
  })
})
