/** Reserves of one pool along a route: what goes in, what comes out. */
export type PoolReserves = { reserveIn: bigint; reserveOut: bigint }

export type GetAmountsOutReturnType =
  | { ok: true; amounts: bigint[] }
  /** `noLiquidity`: a pool on the route is empty; `tooSmall`: a step pays nothing; `tooLarge`: the router's uint256 arithmetic overflows. */
  | { ok: false; reason: 'noLiquidity' | 'tooSmall' | 'tooLarge' }

const MAX_UINT256 = 2n ** 256n - 1n
/** The LP fee in thousandths: 3 of every 1,000 wei in stay in the pool. */
const FEE_KEPT = 997n
const FEE_BASE = 1_000n

/**
 * What `amountIn` buys through pools, step by step, as UniswapV2Library.getAmountsOut computes it (0.3 % fee, floored),
 * including where its SafeMath would revert. A step paying 0 is refused too: the pair's swap() would revert.
 * @example getAmountsOut(10n ** 17n, [{ reserveIn: 100n * 10n ** 18n, reserveOut: 300_000n * 10n ** 6n }]) // { ok: true, amounts: [10n ** 17n, 298_802_094n] }
 */
export function getAmountsOut(amountIn: bigint, pools: readonly PoolReserves[]): GetAmountsOutReturnType {
  if (amountIn <= 0n) return { ok: false, reason: 'tooSmall' }
  const amounts = [amountIn]
  for (const { reserveIn, reserveOut } of pools) {
    if (reserveIn <= 0n || reserveOut <= 0n) return { ok: false, reason: 'noLiquidity' }
    const amountInWithFee = amounts.at(-1)! * FEE_KEPT
    const numerator = amountInWithFee * reserveOut
    const denominator = reserveIn * FEE_BASE + amountInWithFee
    if (amountInWithFee > MAX_UINT256 || numerator > MAX_UINT256 || reserveIn * FEE_BASE > MAX_UINT256 || denominator > MAX_UINT256) return { ok: false, reason: 'tooLarge' }
    const amountOut = numerator / denominator
    if (amountOut === 0n) return { ok: false, reason: 'tooSmall' }
    amounts.push(amountOut)
  }
  return { ok: true, amounts }
}

/** Digits of a percent kept by {@link priceImpactPercent}: 0.000001 %. */
const PERCENT_SCALE = 10n ** 6n

/**
 * How far a trade's execution price falls short of the route's mid price, in percent, the LP fee excluded: the Uniswap
 * interface's "price impact" (its sdk's `priceImpact` less `computeRealizedLPFeePercent`, 1 - 0.997^hops).
 * 1. The mid price quote of `amountIn` is amountIn · Π reserveOut / Π reserveIn.
 * 2. The impact with the fee is 1 - amountOut / midQuote; the fee's share is 1 - 0.997^hops.
 * 3. Their difference, 0.997^hops - amountOut · Π reserveIn / (amountIn · Π reserveOut), times 100, floored at 0.
 * @example priceImpactPercent(10n ** 17n, 298_802_094n, [{ reserveIn: 100n * 10n ** 18n, reserveOut: 300_000n * 10n ** 6n }]) // 0.099302
 */
export function priceImpactPercent(amountIn: bigint, amountOut: bigint, pools: readonly PoolReserves[]): number {
  const hops = BigInt(pools.length)
  const productIn = pools.reduce((product, pool) => product * pool.reserveIn, 1n)
  const productOut = pools.reduce((product, pool) => product * pool.reserveOut, 1n)
  // (997^h · amountIn · ΠOut - 1000^h · amountOut · ΠIn) / (1000^h · amountIn · ΠOut), scaled to 100 · PERCENT_SCALE.
  const numerator = FEE_KEPT ** hops * amountIn * productOut - FEE_BASE ** hops * amountOut * productIn
  const denominator = FEE_BASE ** hops * amountIn * productOut
  if (numerator <= 0n || denominator <= 0n) return 0
  const scaled = (numerator * 100n * PERCENT_SCALE) / denominator
  return Math.min(100, Number(scaled) / Number(PERCENT_SCALE))
}
