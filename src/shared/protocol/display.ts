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

/**
 * An address as 4 characters at the start and 6 at the end (SPEC §5), a `0x` prefix counting among the 4, as the
 * reference kit shows it. Addresses of other families (base58) have no prefix: their first 4 characters.
 * @example shortenAddress('0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb') // '0xab…5Bfcdb'
 */
export function shortenAddress(address: string): string {
  // Shorter than 4 + '…' + 6 gains nothing.
  if (address.length <= 11) return address
  return `${address.slice(0, 4)}…${address.slice(-6)}`
}
