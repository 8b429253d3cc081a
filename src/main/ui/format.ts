/** 0x1234…abcdef: 4 characters at the start (after 0x) and 6 at the end (SPEC §5). */
export function shortenAddress(address: string): string {
  const body = address.startsWith('0x') ? address.slice(2) : address
  if (body.length <= 10) return address
  return `${address.startsWith('0x') ? '0x' : ''}${body.slice(0, 4)}…${body.slice(-6)}`
}

/** A token amount truncated (not rounded) to 3 decimals; '0.000' for zero (SPEC §5). */
export function formatBalance(value: bigint, decimals: number, shownDecimals = 3): string {
  const negative = value < 0n
  const abs = negative ? -value : value
  const base = 10n ** BigInt(decimals)
  const whole = abs / base
  const fraction = (abs % base).toString().padStart(decimals, '0').slice(0, shownDecimals).padEnd(shownDecimals, '0')
  return `${negative ? '-' : ''}${whole.toString()}.${fraction}`
}
