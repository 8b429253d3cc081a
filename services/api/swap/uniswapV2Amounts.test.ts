import { describe, expect, it } from 'vitest'
import { getAmountsOut, priceImpactPercent } from './uniswapV2Amounts'

const e18 = 10n ** 18n
const ethTusd = { reserveIn: 100n * e18, reserveOut: 300_000n * 10n ** 6n }

describe('Uniswap V2 amounts', () => {
  it.each([
    ['0.1 ETH for TUSD', 10n ** 17n, [ethTusd], [10n ** 17n, 298_802_094n]],
    // 1000 · 997 · 1000 / (1000 · 1000 + 1000 · 997) = 499.25… → 499 (floored, as the library's integer division).
    ['a balanced pool, floored', 1_000n, [{ reserveIn: 1_000n, reserveOut: 1_000n }], [1_000n, 499n]],
    ['two pools, each step from the last', 1_000n, [{ reserveIn: 1_000n, reserveOut: 1_000n }, { reserveIn: 1_000n, reserveOut: 2_000n }], [1_000n, 499n, 664n]],
  ])('%s', (_name, amountIn, pools, amounts) => {
    expect(getAmountsOut(amountIn, pools)).toEqual({ ok: true, amounts })
  })

  it.each([
    ['zero in', 0n, [ethTusd], 'tooSmall'],
    ['a step paying nothing', 1n, [ethTusd], 'tooSmall'],
    ['an empty pool', 1_000n, [{ reserveIn: 0n, reserveOut: 1_000n }], 'noLiquidity'],
    // amountIn · 997 overflows uint256: the router's SafeMath reverts.
    ['an amount whose product overflows uint256', 2n ** 250n, [ethTusd], 'tooLarge'],
  ] as const)('refuses %s', (_name, amountIn, pools, reason) => {
    expect(getAmountsOut(amountIn, pools)).toEqual({ ok: false, reason })
  })

  it('measures price impact against the mid price, the 0.3 % fee per pool excluded', () => {
    // Mid price 3000 TUSD/ETH: 0.1 ETH is 300 TUSD, 299.1 after the fee; 298.802094 received → 0.298/300 = 0.0993 %.
    expect(priceImpactPercent(10n ** 17n, 298_802_094n, [ethTusd])).toBe(0.099302)
    // An infinitesimal trade moves nothing: exactly the fee-adjusted mid price → 0.
    expect(priceImpactPercent(1_000n, 997n, [{ reserveIn: e18, reserveOut: e18 }])).toBe(0)
    // Two pools: the fee excluded is 1 - 0.997² (0.5991 %), not twice 0.3 %.
    const [amountIn, pools] = [1_000n, [{ reserveIn: 1_000n, reserveOut: 1_000n }, { reserveIn: 1_000n, reserveOut: 2_000n }]]
    expect(priceImpactPercent(amountIn, 664n, pools)).toBeCloseTo((0.997 ** 2 - 664 / 2_000) * 100, 4)
    // Never beyond 100 nor below 0.
    expect(priceImpactPercent(amountIn, 0n, pools)).toBeLessThanOrEqual(100)
    expect(priceImpactPercent(1_000n, 10_000n, [{ reserveIn: e18, reserveOut: e18 }])).toBe(0)
  })
})
