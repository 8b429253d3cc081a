import { concat, numberToHex, type Address, type Hex, type LocalAccount } from 'viem'
import { toPackedUserOperation } from 'viem/account-abstraction'
import type { SponsoredUserOperation } from './parseParams'

/** PaymasterSigner's EIP-712 type (OpenZeppelin 5.7, account/paymaster/extensions/PaymasterSigner.sol). */
const userOperationRequestTypes = {
  UserOperationRequest: [
    { name: 'sender', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'initCode', type: 'bytes' },
    { name: 'callData', type: 'bytes' },
    { name: 'accountGasLimits', type: 'bytes32' },
    { name: 'preVerificationGas', type: 'uint256' },
    { name: 'gasFees', type: 'bytes32' },
    { name: 'paymasterVerificationGasLimit', type: 'uint256' },
    { name: 'paymasterPostOpGasLimit', type: 'uint256' },
    { name: 'validAfter', type: 'uint48' },
    { name: 'validUntil', type: 'uint48' },
  ],
} as const

/**
 * A signature for gas estimation, never valid: r and s in range (s under n/2) and v 28, so ecrecover runs in full and
 * the estimate is what the real signature will cost (a malformed one returns early, for less gas). Alto 0.0.20
 * estimates with simulateHandleOp, which reports a failed paymaster signature in its result without reverting, and
 * refuses one only when the operation is sent (eth_sendUserOperation: "Invalid UserOperation signature or paymaster
 * signature"); so a stub need not be signed. Signing it would not help either: the bundler simulates with gas limits
 * and fees of its own, which the signature covers.
 */
const STUB_SIGNATURE: Hex = '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c'

export type PaymasterDataParameters = {
  chainId: number
  paymasterAddress: Address
  userOperation: SponsoredUserOperation
  paymasterVerificationGasLimit: bigint
  paymasterPostOpGasLimit: bigint
  /** Seconds since the epoch; 0 for validAfter means "from now on". */
  validAfter: number
  validUntil: number
}

const window = (validAfter: number, validUntil: number) => concat([numberToHex(validAfter, { size: 6 }), numberToHex(validUntil, { size: 6 })])

/** paymasterData for estimation: the validity window and STUB_SIGNATURE, the same length as a real one. */
export const stubPaymasterData = ({ validAfter, validUntil }: Pick<PaymasterDataParameters, 'validAfter' | 'validUntil'>): Hex =>
  concat([window(validAfter, validUntil), STUB_SIGNATURE])

/**
 * TesseraPaymaster's paymasterData: validAfter (6 bytes) ‖ validUntil (6 bytes) ‖ the signer's signature over the
 * operation's fields as the contract packs them (initCode = factory ‖ factoryData, the gas limits and fees in two
 * bytes32) and the paymaster's own gas limits, under the domain { TesseraPaymaster, 1, chainId, paymaster }.
 * @example const paymasterData = await signPaymasterData(signer, { chainId, paymasterAddress, userOperation, … })
 */
export async function signPaymasterData(signer: LocalAccount, parameters: PaymasterDataParameters): Promise<Hex> {
  const { chainId, paymasterAddress, userOperation, paymasterVerificationGasLimit, paymasterPostOpGasLimit, validAfter, validUntil } = parameters
  const packed = toPackedUserOperation({
    ...userOperation,
    maxFeePerGas: userOperation.maxFeePerGas ?? 0n,
    maxPriorityFeePerGas: userOperation.maxPriorityFeePerGas ?? 0n,
    signature: '0x',
  })
  const signature = await signer.signTypedData({
    domain: { name: 'TesseraPaymaster', version: '1', chainId, verifyingContract: paymasterAddress },
    types: userOperationRequestTypes,
    primaryType: 'UserOperationRequest',
    message: {
      sender: packed.sender,
      nonce: packed.nonce,
      initCode: packed.initCode,
      callData: packed.callData,
      accountGasLimits: packed.accountGasLimits,
      preVerificationGas: packed.preVerificationGas,
      gasFees: packed.gasFees,
      paymasterVerificationGasLimit,
      paymasterPostOpGasLimit,
      validAfter,
      validUntil,
    },
  })
  return concat([window(validAfter, validUntil), signature])
}
