import { parseUnits } from '../../protocol/display'
import { createWidgetError } from '../../protocol/errors'

/** The largest amount a SOL or SPL transfer instruction carries: a u64 of base units. */
export const SOLANA_MAX_AMOUNT = 2n ** 64n - 1n

/** Token decimals on Solana are a u8; SOL itself has 9. */
const MAX_DECIMALS = 255

const invalid = (field: string, details: string) => createWidgetError('SOLANA_SEND_INVALID', { field, details })

/**
 * Throws 'Please enter a valid amount and receiver address' (SPEC §5) unless `amount` is 1 to 2^64-1 base units.
 * @example assertSolanaAmount(1_500_000n) // ok; assertSolanaAmount(0n) throws SOLANA_SEND_INVALID
 */
export function assertSolanaAmount(amount: bigint): void {
  if (typeof amount !== 'bigint') throw invalid('amount', `The amount must be a bigint of base units, got ${typeof amount}`)
  if (amount <= 0n) throw invalid('amount', `The amount must be more than zero, got ${amount}`)
  if (amount > SOLANA_MAX_AMOUNT) throw invalid('amount', `The amount must be at most 2^64-1 base units, got ${amount}`)
}

/**
 * A typed Solana amount in base units, refusing what a transfer cannot carry (SPEC §5): anything but digits with an
 * optional fraction, zero, more fraction digits than the token's `decimals`, more than 2^64-1 base units. Each
 * refusal is SOLANA_SEND_INVALID ('Please enter a valid amount and receiver address') with the reason in details.
 * @example parseSolanaAmount('1.5', 6) // 1500000n; parseSolanaAmount('0.0000001', 6) throws
 */
export function parseSolanaAmount(text: string, decimals: number): bigint {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS) {
    throw invalid('decimals', `Token decimals must be an integer from 0 to ${MAX_DECIMALS}, got ${decimals}`)
  }
  const trimmed = typeof text === 'string' ? text.trim() : ''
  if (!/^\d+(\.\d+)?$/.test(trimmed)) throw invalid('amount', `"${String(text).slice(0, 40)}" is not an amount: digits with an optional fraction`)
  const fraction = trimmed.split('.')[1] ?? ''
  if (fraction.length > decimals) throw invalid('amount', `"${trimmed}" has ${fraction.length} decimals; this token has ${decimals}`)
  const amount = parseUnits(trimmed, decimals)
  assertSolanaAmount(amount)
  return amount
}
