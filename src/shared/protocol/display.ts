/** Decimal-string arithmetic for display: amounts are bigint or decimal strings, never binary floats. */

const decimalPattern = /^(-)?(\d+)(?:\.(\d+))?$/

function truncateDecimal(value: string, decimals: number): string {
  const match = decimalPattern.exec(value.trim())
  if (!match) return `0.${'0'.repeat(decimals)}`
  const [, sign = '', whole, fraction = ''] = match
  const cut = fraction.slice(0, decimals).padEnd(decimals, '0')
  const isZero = /^0*$/.test(whole!) && /^0*$/.test(cut)
  const wholeDigits = whole!.replace(/^0+(?=\d)/, '')
  return `${isZero ? '' : sign}${wholeDigits}${decimals > 0 ? `.${cut}` : ''}`
}

/** A base-unit amount as a decimal string: 1500000n with 6 decimals → '1.5'. */
export function formatUnits(value: bigint, decimals: number): string {
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}

/** A decimal string in base units: '1.5' with 6 decimals → 1500000n. Throws on a malformed amount or too many decimals. */
export function parseUnits(value: string, decimals: number): bigint {
  const match = decimalPattern.exec(value.trim())
  if (!match) throw new Error(`Invalid amount: "${value}"`)
  const [, sign = '', whole, fraction = ''] = match
  if (fraction.length > decimals) throw new Error(`Invalid amount: "${value}" has more than ${decimals} decimals`)
  const units = BigInt(`${whole}${fraction.padEnd(decimals, '0')}`)
  return sign ? -units : units
}

/**
 * A balance truncated (not rounded) to 3 decimals, "0.000" when absent (SPEC §5). Testnets and unsupported chains
 * show "0.00".
 */
export function formatBalance(value: string | bigint | undefined, { decimals = 18, isTestnetOrUnsupported = false }: { decimals?: number; isTestnetOrUnsupported?: boolean } = {}): string {
  if (isTestnetOrUnsupported) return '0.00'
  if (value === undefined) return '0.000'
  return truncateDecimal(typeof value === 'bigint' ? formatUnits(value, decimals) : value, 3)
}

/** A token quantity with 3 decimals. */
export const formatTokenQuantity = (value: string | bigint, decimals = 18) =>
  truncateDecimal(typeof value === 'bigint' ? formatUnits(value, decimals) : value, 3)

/** A dollar amount with 2 decimals: '$1,234.50'. */
export function formatUsd(value: string): string {
  const fixed = truncateDecimal(value, 2)
  const negative = fixed.startsWith('-')
  const [whole, fraction] = fixed.replace('-', '').split('.') as [string, string]
  return `${negative ? '-' : ''}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`
}

/** An address as 4 characters at the start and 6 at the end (SPEC §5): 0xab16…5Bfcdb. */
export function shortenAddress(address: string): string {
  const hasPrefix = address.startsWith('0x')
  const body = hasPrefix ? address.slice(2) : address
  if (body.length <= 10) return address
  return `${hasPrefix ? '0x' : ''}${body.slice(0, 4)}…${body.slice(-6)}`
}

/**
 * Relative time with the usual thresholds (SPEC §9): seconds up to 44 s, "a minute" up to 89 s, then minutes up to
 * 44 min, "an hour" up to 89 min, hours up to 21 h, "a day" up to 35 h, days up to 25 d, "a month" up to 45 d,
 * months up to 319 d, "a year" up to 547 d, then years.
 */
export function formatRelativeTime(fromMs: number, nowMs: number): string {
  const seconds = Math.round(Math.abs(nowMs - fromMs) / 1_000)
  const isFuture = fromMs > nowMs
  const say = (text: string) => (isFuture ? `in ${text}` : `${text} ago`)
  const minutes = Math.round(seconds / 60)
  const hours = Math.round(minutes / 60)
  const days = Math.round(hours / 24)
  if (seconds <= 44) return say(seconds <= 1 ? 'a few seconds' : `${seconds} seconds`)
  if (seconds <= 89) return say('a minute')
  if (minutes <= 44) return say(`${minutes} minutes`)
  if (minutes <= 89) return say('an hour')
  if (hours <= 21) return say(`${hours} hours`)
  if (hours <= 35) return say('a day')
  if (days <= 25) return say(`${days} days`)
  if (days <= 45) return say('a month')
  if (days <= 319) return say(`${Math.round(days / 30.4)} months`)
  if (days <= 547) return say('a year')
  return say(`${Math.round(days / 365)} years`)
}
