const UNLIMITED_THRESHOLD = 2n ** 255n

/**
 * Whether an allowance is unlimited in effect: at least 2^255 (what "infinite approval" UIs send, maxUint256 among
 * them), or the largest value of its type when that is narrower (Permit2's uint160 amounts).
 * @example isUnlimitedAmount(maxUint256) // true
 */
export function isUnlimitedAmount(amount: bigint, abiType = 'uint256'): boolean {
  const bits = Number(/^uint(\d+)$/.exec(abiType)?.[1] ?? 256)
  return amount >= UNLIMITED_THRESHOLD || (bits < 256 && amount === 2n ** BigInt(bits) - 1n)
}
