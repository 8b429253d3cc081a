import { FEE_CEILING_WEI } from './constants'

export type FeeValues = { gasPrice?: bigint; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint }

export type FeeProblem =
  | { code: 'FEE_CONFLICT'; message: string }
  | { code: 'FEE_CAP_TOO_HIGH'; message: string }
  | { code: 'TIP_ABOVE_FEE_CAP'; message: string }

/**
 * The fee rules of SPEC §5: gasPrice cannot be combined with EIP-1559 fields, maxFeePerGas cannot exceed 2^256−1,
 * and the priority fee cannot exceed maxFeePerGas. Returns the first problem, or undefined when the fees hold.
 */
export function checkFees({ gasPrice, maxFeePerGas, maxPriorityFeePerGas }: FeeValues): FeeProblem | undefined {
  if (gasPrice !== undefined && (maxFeePerGas !== undefined || maxPriorityFeePerGas !== undefined)) {
    return { code: 'FEE_CONFLICT', message: 'Cannot specify both a `gasPrice` and a `maxFeePerGas`/`maxPriorityFeePerGas`.' }
  }
  for (const [name, value] of [['gasPrice', gasPrice], ['maxFeePerGas', maxFeePerGas]] as const) {
    if (value !== undefined && value > FEE_CEILING_WEI) {
      return { code: 'FEE_CAP_TOO_HIGH', message: `The fee cap (\`${name}\` = ${value}) cannot be higher than the maximum allowed value (2^256-1).` }
    }
  }
  if (maxFeePerGas !== undefined && maxPriorityFeePerGas !== undefined && maxPriorityFeePerGas > maxFeePerGas) {
    return {
      code: 'TIP_ABOVE_FEE_CAP',
      message: `The provided tip (\`maxPriorityFeePerGas\` = ${maxPriorityFeePerGas}) cannot be higher than the fee cap (\`maxFeePerGas\` = ${maxFeePerGas}).`,
    }
  }
  return undefined
}

/** The base-fee multiplier must be at least 1 (SPEC §5). */
export function checkBaseFeeMultiplier(multiplier: number): string | undefined {
  return Number.isFinite(multiplier) && multiplier >= 1 ? undefined : '`baseFeeMultiplier` must be greater than 1.'
}
