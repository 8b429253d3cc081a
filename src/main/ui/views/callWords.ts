import { zeroAddress } from 'viem'
import type { DecodedCall, ReviewRow } from '../../../shared/protocol/review'
import type { ReviewMessageKey } from '../i18n/reviewEn'

// The worker names a call of its bundled table as the ABI does (`swapExactETHForTokens`, `amountOutMin`, `path.[0]`):
// here those names become the visitor's words. A site's ERC-7730 descriptor brings its own intent and labels.

export type FunctionCall = Extract<DecodedCall, { kind: 'function' }>

const valueAt = (call: FunctionCall, path: string) => call.args.find((row) => row.path === path)?.value

/** An approval of nothing (amount 0, the zero address, `approved` false) takes one back. */
function takesBack(call: FunctionCall, path: string) {
  const value = valueAt(call, path)
  if (value?.kind === 'tokenAmount') return value.amount === 0n
  if (value?.kind === 'address') return value.address === zeroAddress
  return value?.kind === 'bool' && !value.value
}

/** What a call of the bundled table does, in a few words; undefined for a call no bundled ABI decoded. */
export function intentOf(call: FunctionCall): ReviewMessageKey | undefined {
  const { standard, functionName: name } = call
  switch (standard) {
    case 'erc20':
      if (name === 'transfer') return 'review.intent.send'
      if (name === 'transferFrom') return 'review.intent.move'
      return takesBack(call, 'amount') ? 'review.intent.revoke' : 'review.intent.approve'
    case 'permit2':
      if (name === 'transferFrom') return 'review.intent.move'
      return name === 'approve' && takesBack(call, 'amount') ? 'review.intent.revoke' : 'review.intent.approve'
    case 'erc721':
      if (name === 'approve') return takesBack(call, 'spender') ? 'review.intent.revoke' : 'review.intent.approveNft'
      if (name === 'setApprovalForAll') return takesBack(call, 'approved') ? 'review.intent.revoke' : 'review.intent.approveCollection'
      return 'review.intent.sendNft'
    case 'erc1155':
      if (name === 'setApprovalForAll') return takesBack(call, 'approved') ? 'review.intent.revoke' : 'review.intent.approveCollection'
      return 'review.intent.send'
    case 'uniswapV2Router':
      if (name.startsWith('addLiquidity')) return 'review.intent.addLiquidity'
      if (name.startsWith('removeLiquidity')) return 'review.intent.removeLiquidity'
      return 'review.intent.swap'
    case 'multicall3':
      return 'review.intent.batch'
    case 'entryPoint':
      return 'review.intent.userOperations'
    case 'smartAccount':
      return 'review.intent.accountCalls'
    case undefined:
      return undefined
  }
}

/** The bundled table's argument names (the last name of a path), in words. */
const argumentWords = new Map<string, ReviewMessageKey>([
  ['to', 'review.arg.recipient'],
  ['recipient', 'review.arg.recipient'],
  ['from', 'review.arg.from'],
  ['sender', 'review.arg.from'],
  ['amount', 'review.arg.amount'],
  ['value', 'review.arg.amount'],
  ['values', 'review.arg.amount'],
  ['addedValue', 'review.arg.addedAllowance'],
  ['spender', 'review.arg.spender'],
  ['owner', 'review.arg.owner'],
  ['operator', 'review.arg.operator'],
  ['approved', 'review.arg.approved'],
  ['token', 'review.arg.token'],
  ['tokenId', 'review.arg.token'],
  ['id', 'review.arg.token'],
  ['ids', 'review.arg.token'],
  ['expiration', 'review.arg.expires'],
  ['nonce', 'review.arg.nonce'],
  ['sigDeadline', 'review.arg.signatureDeadline'],
  ['signature', 'review.arg.signature'],
  ['deadline', 'review.arg.deadline'],
  ['amountIn', 'review.arg.youPay'],
  ['amountInMax', 'review.arg.maximumPaid'],
  ['amountOut', 'review.arg.youReceive'],
  ['amountOutMin', 'review.arg.minimumReceived'],
  ['path', 'review.arg.route'],
  ['liquidity', 'review.arg.liquidity'],
  ['target', 'review.arg.calledAddress'],
  ['callData', 'review.arg.call'],
  ['executionCalldata', 'review.arg.calls'],
  ['data', 'review.arg.data'],
])

/**
 * A row's label: a descriptor's, else, for a call of the bundled table, its argument in words with its place in an
 * array counted from 1 (`path.[1]` is "Route 2", `calls.[0].callData` "Call 1"), else the argument's path as
 * Solidity writes it (`details[0].amount`).
 */
export function rowLabel(row: ReviewRow, call: FunctionCall | undefined, translate: (key: ReviewMessageKey) => string): string {
  if (row.label) return row.label
  const segments = row.path.split('.')
  const words = call?.standard ? argumentWords.get(segments.filter((segment) => !segment.startsWith('[')).at(-1) ?? '') : undefined
  if (!words) return row.path.replaceAll('.[', '[')
  const places = segments.filter((segment) => segment.startsWith('[')).map((segment) => Number(segment.slice(1, -1)) + 1)
  return [translate(words), ...(places.length > 0 ? [places.join('.')] : [])].join(' ')
}
