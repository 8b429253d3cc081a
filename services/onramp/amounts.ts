// Decimal amounts as whole numbers of their smallest unit (bigint), so no fiat or crypto amount is ever a float.

const DECIMAL = /^(\d{1,30})(?:\.(\d{1,30}))?$/

/**
 * `text` (digits, optionally a point and more digits) as a whole number of units of 10^-places, or undefined when it
 * is malformed or finer than `places` (trailing zeros past `places` are fine).
 * @example parseDecimal('12.5', 2) // 1250n
 */
export function parseDecimal(text: string, places: number): bigint | undefined {
  const match = DECIMAL.exec(text)
  if (!match) return undefined
  const [, whole = '', fraction = ''] = match
  if (/[^0]/.test(fraction.slice(places))) return undefined
  return BigInt(whole + fraction.slice(0, places).padEnd(places, '0'))
}

/**
 * `value` units of 10^-places as a decimal string, trailing zeros of the fraction dropped down to `minPlaces`.
 * @example formatDecimal(1250n, 2) // '12.50'; formatDecimal(16_500n, 6, { minPlaces: 0 }) // '0.0165'
 */
export function formatDecimal(value: bigint, places: number, { minPlaces = places }: { minPlaces?: number } = {}): string {
  const digits = value.toString().padStart(places + 1, '0')
  const whole = digits.slice(0, digits.length - places)
  let fraction = digits.slice(digits.length - places)
  while (fraction.length > minPlaces && fraction.endsWith('0')) fraction = fraction.slice(0, -1)
  return fraction ? `${whole}.${fraction}` : whole
}

/**
 * A decimal string with its whole part grouped in thousands, for sentences a person reads.
 * @example groupThousands('7500.00') // '7,500.00'
 */
export const groupThousands = (text: string) => text.replace(/^\d+/, (whole) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ','))

/** Fiat amounts are kept in cents. */
export const FIAT_PLACES = 2
/** Prices are kept in units of 10^-8 of the fiat currency. */
export const PRICE_PLACES = 8

export const formatFiat = (cents: bigint) => formatDecimal(cents, FIAT_PLACES)
