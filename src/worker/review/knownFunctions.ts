import {
  decodeAbiParameters,
  erc1155Abi,
  erc20Abi,
  erc721Abi,
  hexToBigInt,
  multicall3Abi,
  parseAbiItem,
  size,
  slice,
  toFunctionSelector,
  type Abi,
  type AbiFunction,
  type Address,
  type Hex,
} from 'viem'
import { entryPoint08Abi } from 'viem/account-abstraction'
import type { ApprovalKind, CallStandard } from '../../shared/protocol/review'
import type { FieldSpec } from './formatArgs'

export type RawCall = { to: Address; data: Hex; value: bigint }

/** An allowance or operator right a call (or signature) grants, before it becomes a warning. */
export type Approval =
  | { kind: 'allowance'; via: ApprovalKind; token: Address; spender: Address; amount: bigint; amountType: string; expiration?: bigint; deadline?: bigint }
  | { kind: 'nft'; collection: Address; spender: Address; tokenId: bigint }
  | { kind: 'all'; collection: Address; operator: Address }

// The decoded arguments by name; each entry below knows its own shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Args = Record<string, any>

/** A function of the bundled table: its ABI, how its arguments show, and what it calls or approves. */
export type KnownFunction = {
  standard: CallStandard
  abi: AbiFunction
  fields?: FieldSpec[]
  /** Bytes arguments that are calls themselves, by the path of the bytes. */
  innerCalls?: (args: Args, to: Address) => { path: string; calls: RawCall[] }[]
  approvals?: (args: Args, to: Address) => Approval[]
}

const fn = (signature: string) => parseAbiItem(signature) as AbiFunction
const pick = (abi: Abi, name: string, inputCount?: number) =>
  abi.find((item): item is AbiFunction => item.type === 'function' && item.name === name && (inputCount === undefined || item.inputs.length === inputCount))!
/** Fields that are amounts of the token at `tokenPath`. */
export const amounts = (tokenPath: string, ...paths: string[]): FieldSpec[] => paths.map((path) => ({ path, format: 'tokenAmount', tokenPath }))
/** Fields that are tokens' addresses: shown with the token's symbol. */
export const tokens = (...paths: string[]): FieldSpec[] => paths.map((path) => ({ path, format: 'addressName', types: ['token'] }))
/** Fields that are unix times. */
export const dates = (...paths: string[]): FieldSpec[] => paths.map((path) => ({ path, format: 'date' }))
const native = (...paths: string[]): FieldSpec[] => paths.map((path) => ({ path, format: 'nativeAmount' }))

const erc20Allowance = (spender: string, amount: string) => (args: Args, to: Address): Approval[] => [
  { kind: 'allowance', via: 'erc20', token: to, spender: args[spender], amount: args[amount], amountType: 'uint256' },
]

type PermitDetails = { token: Address; amount: bigint | string; expiration: bigint | string }
/** Permit2's allowances, from a PermitSingle or PermitBatch (in calldata or in typed data, where numbers may be strings). */
export const permit2Approvals = ({ details, spender, sigDeadline }: { details: PermitDetails | PermitDetails[]; spender: Address; sigDeadline: bigint | string }): Approval[] =>
  [details].flat().map((d) => ({
    kind: 'allowance',
    via: 'permit2',
    token: d.token,
    spender,
    amount: BigInt(d.amount),
    amountType: 'uint160',
    expiration: BigInt(d.expiration),
    deadline: BigInt(sigDeadline),
  }))

const innerEach = (path: (i: number) => string, toCall: (item: Args) => RawCall) => (args: Args) =>
  (args.calls as Args[]).map((item, i) => ({ path: path(i), calls: [toCall(item)] }))

/** ERC-7579 / ERC-7821 execution data: one packed call (call type 0x00) or an encoded array of them (0x01). */
function executionCalls(mode: Hex, data: Hex): RawCall[] {
  const callType = slice(mode, 0, 1)
  if (callType === '0x00' && size(data) >= 52) return [{ to: slice(data, 0, 20), value: hexToBigInt(slice(data, 20, 52)), data: size(data) > 52 ? slice(data, 52) : '0x' }]
  if (callType !== '0x01') return []
  const [calls] = decodeAbiParameters([{ type: 'tuple[]', components: [{ name: 'target', type: 'address' }, { name: 'value', type: 'uint256' }, { name: 'callData', type: 'bytes' }] }], data)
  return calls.map((call) => ({ to: call.target, value: call.value, data: call.callData }))
}

const uniswapDeadline = dates('deadline')
const route = tokens('path.[]')

/** The common standards' state-changing functions, minimal: what a site most often asks a wallet to sign. */
export const knownFunctions: readonly KnownFunction[] = [
  // ERC-20 first: its approve and transferFrom share their selectors with ERC-721's, which win only for a contract
  // that says it is an ERC-721.
  { standard: 'erc20', abi: pick(erc20Abi, 'transfer'), fields: amounts('@.to', 'amount') },
  { standard: 'erc20', abi: pick(erc20Abi, 'approve'), fields: amounts('@.to', 'amount'), approvals: erc20Allowance('spender', 'amount') },
  { standard: 'erc20', abi: pick(erc20Abi, 'transferFrom'), fields: amounts('@.to', 'amount') },
  {
    standard: 'erc20',
    abi: fn('function increaseAllowance(address spender, uint256 addedValue)'),
    fields: amounts('@.to', 'addedValue'),
    approvals: erc20Allowance('spender', 'addedValue'),
  },

  { standard: 'erc721', abi: pick(erc721Abi, 'transferFrom') },
  { standard: 'erc721', abi: pick(erc721Abi, 'safeTransferFrom', 3) },
  { standard: 'erc721', abi: pick(erc721Abi, 'safeTransferFrom', 4) },
  { standard: 'erc721', abi: pick(erc721Abi, 'approve'), approvals: (args, to) => [{ kind: 'nft', collection: to, spender: args.spender, tokenId: args.tokenId }] },
  { standard: 'erc721', abi: pick(erc721Abi, 'setApprovalForAll'), approvals: (args, to) => (args.approved ? [{ kind: 'all', collection: to, operator: args.operator }] : []) },

  { standard: 'erc1155', abi: pick(erc1155Abi, 'safeTransferFrom') },
  { standard: 'erc1155', abi: pick(erc1155Abi, 'safeBatchTransferFrom') },
  { standard: 'erc1155', abi: pick(erc1155Abi, 'setApprovalForAll'), approvals: (args, to) => (args.approved ? [{ kind: 'all', collection: to, operator: args.operator }] : []) },

  {
    standard: 'permit2',
    abi: fn('function approve(address token, address spender, uint160 amount, uint48 expiration)'),
    fields: [...tokens('token'), ...amounts('token', 'amount'), ...dates('expiration')],
    approvals: ({ token, spender, amount, expiration }) => [{ kind: 'allowance', via: 'permit2', token, spender, amount, amountType: 'uint160', expiration }],
  },
  {
    standard: 'permit2',
    abi: fn('function permit(address owner, ((address token, uint160 amount, uint48 expiration, uint48 nonce) details, address spender, uint256 sigDeadline) permitSingle, bytes signature)'),
    fields: [...tokens('permitSingle.details.token'), ...amounts('permitSingle.details.token', 'permitSingle.details.amount'), ...dates('permitSingle.details.expiration', 'permitSingle.sigDeadline')],
    approvals: (args) => permit2Approvals(args.permitSingle),
  },
  {
    standard: 'permit2',
    abi: fn('function permit(address owner, ((address token, uint160 amount, uint48 expiration, uint48 nonce)[] details, address spender, uint256 sigDeadline) permitBatch, bytes signature)'),
    fields: [...tokens('permitBatch.details.[].token'), ...amounts('permitBatch.details.[].token', 'permitBatch.details.[].amount'), ...dates('permitBatch.details.[].expiration', 'permitBatch.sigDeadline')],
    approvals: (args) => permit2Approvals(args.permitBatch),
  },
  { standard: 'permit2', abi: fn('function transferFrom(address from, address to, uint160 amount, address token)'), fields: [...tokens('token'), ...amounts('token', 'amount')] },

  {
    standard: 'uniswapV2Router',
    abi: fn('function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)'),
    fields: [...amounts('path.[0]', 'amountIn'), ...amounts('path.[-1]', 'amountOutMin'), ...route, ...uniswapDeadline],
  },
  {
    standard: 'uniswapV2Router',
    abi: fn('function swapTokensForExactTokens(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline)'),
    fields: [...amounts('path.[-1]', 'amountOut'), ...amounts('path.[0]', 'amountInMax'), ...route, ...uniswapDeadline],
  },
  {
    standard: 'uniswapV2Router',
    abi: fn('function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable'),
    fields: [...amounts('path.[-1]', 'amountOutMin'), ...route, ...uniswapDeadline],
  },
  {
    standard: 'uniswapV2Router',
    abi: fn('function swapTokensForExactETH(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline)'),
    fields: [...native('amountOut'), ...amounts('path.[0]', 'amountInMax'), ...route, ...uniswapDeadline],
  },
  {
    standard: 'uniswapV2Router',
    abi: fn('function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)'),
    fields: [...amounts('path.[0]', 'amountIn'), ...native('amountOutMin'), ...route, ...uniswapDeadline],
  },
  {
    standard: 'uniswapV2Router',
    abi: fn('function swapETHForExactTokens(uint256 amountOut, address[] path, address to, uint256 deadline) payable'),
    fields: [...amounts('path.[-1]', 'amountOut'), ...route, ...uniswapDeadline],
  },
  {
    standard: 'uniswapV2Router',
    abi: fn('function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline)'),
    fields: [...tokens('tokenA', 'tokenB'), ...amounts('tokenA', 'amountADesired', 'amountAMin'), ...amounts('tokenB', 'amountBDesired', 'amountBMin'), ...uniswapDeadline],
  },
  {
    standard: 'uniswapV2Router',
    abi: fn('function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable'),
    fields: [...tokens('token'), ...amounts('token', 'amountTokenDesired', 'amountTokenMin'), ...native('amountETHMin'), ...uniswapDeadline],
  },
  {
    standard: 'uniswapV2Router',
    abi: fn('function removeLiquidity(address tokenA, address tokenB, uint256 liquidity, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline)'),
    fields: [...tokens('tokenA', 'tokenB'), ...amounts('tokenA', 'amountAMin'), ...amounts('tokenB', 'amountBMin'), ...uniswapDeadline],
  },
  {
    standard: 'uniswapV2Router',
    abi: fn('function removeLiquidityETH(address token, uint256 liquidity, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline)'),
    fields: [...tokens('token'), ...amounts('token', 'amountTokenMin'), ...native('amountETHMin'), ...uniswapDeadline],
  },

  // Multicall3's inner calls run as Multicall3, not as the account.
  {
    standard: 'multicall3',
    abi: fn('function aggregate((address target, bytes callData)[] calls) payable'),
    innerCalls: innerEach((i) => `calls.[${i}].callData`, (call) => ({ to: call.target, data: call.callData, value: 0n })),
  },
  {
    standard: 'multicall3',
    abi: fn('function tryAggregate(bool requireSuccess, (address target, bytes callData)[] calls) payable'),
    innerCalls: innerEach((i) => `calls.[${i}].callData`, (call) => ({ to: call.target, data: call.callData, value: 0n })),
  },
  {
    standard: 'multicall3',
    abi: pick(multicall3Abi, 'aggregate3'),
    innerCalls: innerEach((i) => `calls.[${i}].callData`, (call) => ({ to: call.target, data: call.callData, value: 0n })),
  },
  {
    standard: 'multicall3',
    abi: fn('function aggregate3Value((address target, bool allowFailure, uint256 value, bytes callData)[] calls) payable'),
    fields: native('calls.[].value'),
    innerCalls: innerEach((i) => `calls.[${i}].callData`, (call) => ({ to: call.target, data: call.callData, value: call.value })),
  },

  // A user operation's callData is a call to its own account: decoded as the account functions below.
  {
    standard: 'entryPoint',
    abi: pick(entryPoint08Abi, 'handleOps'),
    innerCalls: (args) => (args.ops as Args[]).map((op, i) => ({ path: `ops.[${i}].callData`, calls: [{ to: op.sender, data: op.callData, value: 0n }] })),
  },
  {
    standard: 'smartAccount',
    abi: fn('function execute(address target, uint256 value, bytes data)'),
    fields: native('value'),
    innerCalls: (args) => [{ path: 'data', calls: [{ to: args.target, data: args.data, value: args.value }] }],
  },
  {
    standard: 'smartAccount',
    abi: fn('function executeBatch((address target, uint256 value, bytes data)[] calls)'),
    fields: native('calls.[].value'),
    innerCalls: innerEach((i) => `calls.[${i}].data`, (call) => ({ to: call.target, data: call.data, value: call.value })),
  },
  {
    standard: 'smartAccount',
    abi: fn('function execute(bytes32 mode, bytes executionCalldata) payable'),
    innerCalls: (args) => [{ path: 'executionCalldata', calls: executionCalls(args.mode, args.executionCalldata) }],
  },
]

/** The bundled functions by selector, in table order. */
export const knownFunctionsBySelector: ReadonlyMap<Hex, readonly KnownFunction[]> = knownFunctions.reduce((bySelector, known) => {
  const selector = toFunctionSelector(known.abi)
  return bySelector.set(selector, [...(bySelector.get(selector) ?? []), known])
}, new Map<Hex, KnownFunction[]>())
