const decimalPattern = /^-?\d+(?:\.(\d+))?$/

/** Intl allows at most 100 fraction digits. */
const MAX_FRACTION_DIGITS = 100

/**
 * A decimal string (a balance, an amount, a fee: display.ts has already cut it to the digits the spec shows) in the
 * locale's digits and separators, keeping exactly its fraction digits and never going through a binary float.
 * Anything that is not a plain decimal is returned as it is.
 * @example localizeDecimal('fr', '12345.670') // '12 345,670'
 */
export function localizeDecimal(locale: string, value: string): string {
  const match = decimalPattern.exec(value)
  if (!match) return value
  const fractionDigits = Math.min(match[1]?.length ?? 0, MAX_FRACTION_DIGITS)
  // A string keeps every digit (Intl.NumberFormat v3 formats it as an exact decimal); the digits are already the right ones.
  return new Intl.NumberFormat(locale, { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits, roundingMode: 'trunc' }).format(
    value as Intl.StringNumericLiteral,
  )
}

/**
 * A USD amount with 2 decimals (SPEC §5) as the locale writes money.
 * @example formatUsdValue('en', 0.1234) // '$0.12'; formatUsdValue('fr', 0.1234) // '0,12 $US'
 */
export function formatUsdValue(locale: string, value: number): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value)
}
