import { decodeErrorResult, parseAbi, size, type Abi, type Hex } from 'viem'
import type { RevertReason } from '../../shared/protocol/review'
import { argsByName, formatArgs } from './formatArgs'

/** The custom errors of the bundled standards: ERC-6093's token errors (OpenZeppelin 5), Permit2's, the EntryPoint's. */
const knownErrors: Abi = parseAbi([
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InvalidSender(address sender)',
  'error ERC20InvalidReceiver(address receiver)',
  'error ERC20InvalidApprover(address approver)',
  'error ERC20InvalidSpender(address spender)',
  'error ERC721NonexistentToken(uint256 tokenId)',
  'error ERC721IncorrectOwner(address sender, uint256 tokenId, address owner)',
  'error ERC721InsufficientApproval(address operator, uint256 tokenId)',
  'error ERC1155InsufficientBalance(address sender, uint256 balance, uint256 needed, uint256 tokenId)',
  'error ERC1155MissingApprovalForAll(address operator, address owner)',
  'error AllowanceExpired(uint256 deadline)',
  'error InsufficientAllowance(uint256 amount)',
  'error SignatureExpired(uint256 signatureDeadline)',
  'error InvalidNonce()',
  'error InvalidSignature()',
  'error FailedOp(uint256 opIndex, string reason)',
  'error FailedOpWithRevert(uint256 opIndex, string reason, bytes inner)',
])

/**
 * Why a call reverted, from its revert data: Error(string), a panic code, a custom error of the bundled standards,
 * or the raw data.
 * @example decodeRevertReason('0x4e487b71…11') // { kind: 'panic', code: 17 }
 */
export function decodeRevertReason(data: Hex | undefined): RevertReason {
  if (!data || size(data) < 4) return { kind: 'unknown', data: data ?? '0x' }
  try {
    const { errorName, args = [], abiItem } = decodeErrorResult({ abi: knownErrors, data })
    if (errorName === 'Error') return { kind: 'error', message: String(args[0]) }
    if (errorName === 'Panic') return { kind: 'panic', code: Number(args[0]) }
    const inputs = 'inputs' in abiItem ? abiItem.inputs : []
    return { kind: 'customError', name: errorName, args: formatArgs({ params: inputs, roots: { args: argsByName(inputs, args), envelope: {} } }) }
  } catch {
    return { kind: 'unknown', data }
  }
}
