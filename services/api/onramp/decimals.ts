/**
 * Decimal strings as the on-ramp adapters handle money: compared, added and divided as scaled bigints, never as floats;
 * and the decimals of the assets whose providers list none.
 */

/** Solana mainnet as CAIP-2. */
export const SOLANA_MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'

/** Ethereum, Optimism, Polygon, Base, Arbitrum One, Avalanche C-Chain and Solana: their dollar and euro coins have 6 decimals. */
const SIX_DECIMAL_STABLECOIN_NETWORKS = new Set(['eip155:1', 'eip155:10', 'eip155:137', 'eip155:8453', 'eip155:42161', 'eip155:43114', SOLANA_MAINNET])

/**
 * An asset's decimals where its provider lists none. The native currency of an EVM chain has 18 and SOL 9; a token only
 * where its network and symbol settle it: USDC, USDT, EURC and PYUSD 6 on the networks listed, ETH, WETH and DAI 18 on
 * EVM chains, wrapped bitcoin 8 on EVM chains and Solana. Anything else is undefined (skipped rather than guessed).
 * @example decimalsOf('eip155:8453', 'USDC', false) // 6
 */
export function decimalsOf(network: string, symbol: string, isNative: boolean): number | undefined {
  const isEvm = network.startsWith('eip155:')
  if (isNative) return isEvm ? 18 : network === SOLANA_MAINNET ? 9 : undefined
  const upper = symbol.toUpperCase()
  if (['USDC', 'USDT', 'EURC', 'PYUSD'].includes(upper)) return SIX_DECIMAL_STABLECOIN_NETWORKS.has(network) ? 6 : undefined
  if (['ETH', 'WETH', 'DAI'].includes(upper)) return isEvm ? 18 : undefined
  if (['BTC', 'CBBTC', 'WBTC'].includes(upper)) return isEvm || network === SOLANA_MAINNET ? 8 : undefined
  return undefined
}

/** Decimals kept by the arithmetic below; more are cut off. */
const SCALE = 30

/** A decimal string as a bigint of SCALE decimals: '-1.5' → -1500…0n. */
function scaled(value: string): bigint {
  const negative = value.startsWith('-')
  const [whole = '0', fraction = ''] = (negative ? value.slice(1) : value).split('.')
  const magnitude = BigInt(whole + fraction.padEnd(SCALE, '0').slice(0, SCALE))
  return negative ? -magnitude : magnitude
}

/** A bigint of SCALE decimals as a decimal string, trailing zeros dropped. */
function unscaled(value: bigint): string {
  const digits = (value < 0n ? -value : value).toString().padStart(SCALE + 1, '0')
  const fraction = digits.slice(-SCALE).replace(/0+$/, '')
  return `${value < 0n ? '-' : ''}${digits.slice(0, -SCALE)}${fraction ? `.${fraction}` : ''}`
}

/** -1, 0 or 1 as a is less than, equal to or greater than b: compareDecimal('1.50', '1.5') → 0. */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const difference = scaled(a) - scaled(b)
  return difference < 0n ? -1 : difference > 0n ? 1 : 0
}

/** The smaller of a and b, as given (a when equal). */
export const minDecimal = (a: string, b: string) => (compareDecimal(a, b) <= 0 ? a : b)

/** The larger of a and b, as given (a when equal). */
export const maxDecimal = (a: string, b: string) => (compareDecimal(a, b) >= 0 ? a : b)

/** a + b: addDecimal('0.1', '0.2') → '0.3'. */
export const addDecimal = (a: string, b: string) => unscaled(scaled(a) + scaled(b))

/** a − b: subtractDecimal('1', '1.25') → '-0.25'. */
export const subtractDecimal = (a: string, b: string) => unscaled(scaled(a) - scaled(b))

/** a ÷ b to `places` decimals, rounded half up, trailing zeros dropped: divideDecimal('2', '3') → '0.66666667'. */
export function divideDecimal(a: string, b: string, places = 8): string {
  const numerator = scaled(a) * 10n ** BigInt(places) * 2n
  const quotient = (numerator / scaled(b) + 1n) / 2n
  const digits = quotient.toString().padStart(places + 1, '0')
  const fraction = digits.slice(-places).replace(/0+$/, '')
  return fraction ? `${digits.slice(0, -places)}.${fraction}` : digits.slice(0, -places)
}

/** At least two decimals ('100' → '100.00'); a value with more is returned as given. */
export function twoDecimals(value: string): string {
  const [whole, fraction = ''] = value.split('.')
  return fraction.length <= 2 ? `${whole}.${fraction.padEnd(2, '0')}` : value
}

/** A non-negative number as a plain decimal string, no exponent: 0.00066413 → '0.00066413'. */
export const decimalOf = (value: number) => value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 })
