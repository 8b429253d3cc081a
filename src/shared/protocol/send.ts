import { parseUnits } from 'viem'
import { isEvmAddress } from '../families/eip155/address'

/**
 * Insufficient gas (SPEC §5): true when the native balance is zero or the gas cost in USD exceeds the native balance
 * in USD. Smart accounts are never flagged. USD values are decimal strings.
 */
export function isInsufficientGas({ nativeBalance, gasCostUsd, nativeBalanceUsd, isSmartAccount }: {
  nativeBalance: bigint
  gasCostUsd: string
  nativeBalanceUsd: string
  isSmartAccount: boolean
}): boolean {
  if (isSmartAccount) return false
  if (nativeBalance === 0n) return true
  return compareDecimal(gasCostUsd, nativeBalanceUsd) > 0
}

/** Compares two non-negative decimal strings exactly. */
export function compareDecimal(a: string, b: string): number {
  const [aw = '0', af = ''] = a.split('.')
  const [bw = '0', bf = ''] = b.split('.')
  const width = Math.max(af.length, bf.length)
  const x = BigInt(`${aw}${af.padEnd(width, '0')}`)
  const y = BigInt(`${bw}${bf.padEnd(width, '0')}`)
  return x === y ? 0 : x > y ? 1 : -1
}

/** Whether a typed amount is more than the token balance (`quantity` as the balance API gives it). Unparsable amounts are not. */
export function exceedsBalance(amount: string | undefined, quantity: { numeric: string; decimals: string }): boolean {
  if (!amount || !/^\d+(\.\d+)?$/.test(amount)) return false
  const decimals = Number(quantity.decimals)
  try {
    return parseUnits(amount, decimals) > parseUnits(quantity.numeric, decimals)
  } catch {
    return false
  }
}

/**
 * Whether a typed receiver can be sent to: an EVM address (any case), or a registered name (it has a dot, as in
 * `alice.tessera.id`; the data service resolves it when sending).
 */
export const isReceiverLike = (value: string) => (value.startsWith('0x') ? isEvmAddress(value, { strict: false }) : /^[^\s.]+(\.[^\s.]+)+$/.test(value))
