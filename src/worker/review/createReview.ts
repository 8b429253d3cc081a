import { getAddress, type Address } from 'viem'
import { formatCaipNetworkId } from '../../shared/protocol/caip'
import type {
  BalanceChange,
  CallToReview,
  CallsReview,
  DecodedCall,
  FeeEstimate,
  NativeCurrency,
  ReviewValue,
  ReviewWarning,
  TokenRef,
  TransactionReview,
  TransactionToReview,
  TypedDataReview,
  TypedDataToReview,
} from '../../shared/protocol/review'
import { decodeCall, type DecodeCallReturnType } from './decodeCall'
import { parseErc7730Descriptor } from './erc7730'
import { isUnlimitedAmount } from './isUnlimitedAmount'
import type { Approval } from './knownFunctions'
import { layoutTypedData } from './layoutTypedData'
import { readTokens, type MulticallClient, type TokenInfo } from './readTokens'
import { simulate, type RpcClient, type SimulateReturnType } from './simulate'

/** The worker's client of the request's network (an Eip155Client): JSON-RPC and batched reads. */
export type ReviewClient = RpcClient & MulticallClient

type ChainReviewParameters = {
  client: ReviewClient
  chainId: number
  /** ERC-7730 calldata descriptors the site provides, as JSON; an invalid one is a ValidationError naming its field. */
  descriptors?: readonly unknown[]
  nativeCurrency?: NativeCurrency
}
export type ReviewTransactionParameters = ChainReviewParameters & { request: TransactionToReview }
export type ReviewCallsParameters = ChainReviewParameters & { from: Address; calls: readonly CallToReview[] }
export type ReviewTypedDataParameters = {
  /** As eth_signTypedData_v4 carries it: the JSON string or the parsed object. */
  typedData: TypedDataToReview | string
  /** The connected chain: typed data for another one is called out. */
  chainId?: number
  /** The typed data's chain (its domain's, else the connected one): the tokens it names are read from it. */
  client?: MulticallClient
}

const ETHER: NativeCurrency = { symbol: 'ETH', decimals: 18 }

const tokenRef = (address: Address, tokens: ReadonlyMap<Address, TokenInfo>): TokenRef => {
  const { symbol, decimals } = tokens.get(address) ?? {}
  return { address, ...(symbol !== undefined && { symbol }), ...(decimals !== undefined && { decimals }) }
}

/** Each contract a decoded call reaches and each token an amount is of, nested calls included. */
function addressesIn(call: DecodedCall): Address[] {
  if (call.kind !== 'function') return []
  return [
    call.to,
    ...call.args.flatMap(({ value }) => (value.kind === 'tokenAmount' || value.kind === 'token' ? [value.token.address] : value.kind === 'calls' ? value.calls.flatMap(addressesIn) : [])),
  ]
}

function withTokenInfo(call: DecodedCall, tokens: ReadonlyMap<Address, TokenInfo>): DecodedCall {
  if (call.kind !== 'function') return call
  const withInfo = (value: ReviewValue): ReviewValue => {
    if (value.kind === 'tokenAmount' || value.kind === 'token') return { ...value, token: tokenRef(value.token.address, tokens) }
    if (value.kind === 'calls') return { ...value, calls: value.calls.map((inner) => withTokenInfo(inner, tokens)) }
    return value
  }
  return { ...call, args: call.args.map((row) => ({ ...row, value: withInfo(row.value) })) }
}

/** Allowances and operator rights as warnings; an allowance of 0 revokes one and is no warning. */
function approvalWarnings(approvals: readonly Approval[], tokens: ReadonlyMap<Address, TokenInfo>): ReviewWarning[] {
  return approvals.flatMap((approval): ReviewWarning[] => {
    if (approval.kind === 'nft') return [{ kind: 'nftApproval', collection: getAddress(approval.collection), spender: getAddress(approval.spender), tokenId: approval.tokenId }]
    if (approval.kind === 'all') return [{ kind: 'approvalForAll', collection: getAddress(approval.collection), operator: getAddress(approval.operator) }]
    if (approval.amount === 0n) return []
    const { kind: _, amountType, token, spender, ...terms } = approval
    const kind = isUnlimitedAmount(approval.amount, amountType) ? 'unlimitedApproval' : 'approval'
    return [{ kind, ...terms, token: tokenRef(getAddress(token), tokens), spender: getAddress(spender) }]
  })
}

function simulationWarnings(simulation: SimulateReturnType | undefined): ReviewWarning[] {
  if (!simulation) return [{ kind: 'notSimulated', why: 'deployment' }]
  if (simulation.status === 'notSimulated') return [{ kind: 'notSimulated', why: simulation.why, errorCode: simulation.errorCode }]
  return simulation.calls.flatMap(({ revert }, callIndex): ReviewWarning[] => (revert ? [{ kind: 'wouldRevert', callIndex, reason: revert }] : []))
}

/**
 * The review of calls from one account, shared by a transaction and a wallet_sendCalls batch:
 * 1. the site's descriptors validated, before the node is asked anything;
 * 2. the calls simulated together, in order, and the gas priced, at once;
 * 3. the calls decoded, what the chain says of their contracts and tokens read in one multicall, and decoded again
 *    with it (an ERC-721's approve shares ERC-20's selector);
 * 4. approvals, reverts and what could not be checked, as warnings.
 */
async function reviewFrom({
  client,
  chainId,
  from,
  calls,
  descriptors: given = [],
  nativeCurrency = ETHER,
  gas,
  gasPrice,
  maxFeePerGas,
}: ChainReviewParameters & { from: Address; calls: readonly CallToReview[] } & Pick<TransactionToReview, 'gas' | 'gasPrice' | 'maxFeePerGas'>) {
  const descriptors = given.map(parseErc7730Descriptor)

  const isSimulable = calls.every((call): call is CallToReview & { to: Address } => call.to !== undefined)
  const [simulation, nodeGasPrice] = await Promise.all([
    isSimulable ? simulate({ client, from, calls }) : undefined,
    gasPrice === undefined ? client.request('eth_gasPrice').then((price) => BigInt(price as string), () => undefined) : undefined,
  ])
  const balanceChanges = simulation?.status === 'simulated' ? simulation.balanceChanges : undefined

  const decodeAll = (standardOf?: (address: Address) => TokenInfo['standard']): DecodeCallReturnType[] =>
    calls.map((call) => decodeCall({ chainId, call: { ...call, from }, descriptors, standardOf }))
  const tokens = await readTokens(client, [
    ...decodeAll().flatMap(({ call }) => addressesIn(call)),
    ...(balanceChanges ?? []).flatMap(({ asset }) => (asset === 'native' ? [] : [asset])),
  ])
  const decoded = decodeAll((address) => tokens.get(address)?.standard)

  const gasUnits = gas ?? (simulation?.status === 'simulated' ? simulation.calls.reduce((sum, call) => sum + call.gasUsed, 0n) : undefined)
  const price = gasPrice ?? (nodeGasPrice !== undefined && maxFeePerGas !== undefined && maxFeePerGas < nodeGasPrice ? maxFeePerGas : nodeGasPrice)
  const fee: FeeEstimate | undefined = gasUnits !== undefined && price !== undefined ? { gas: gasUnits, gasPrice: price, amount: gasUnits * price } : undefined

  return {
    network: formatCaipNetworkId('eip155', chainId),
    from: getAddress(from),
    nativeCurrency,
    calls: decoded.map(({ call }) => withTokenInfo(call, tokens)),
    ...(balanceChanges && {
      balanceChanges: balanceChanges.map(({ asset, amount }): BalanceChange => ({
        asset: asset === 'native' ? { kind: 'native' } : { kind: 'erc20', ...tokenRef(asset, tokens) },
        amount,
      })),
    }),
    ...(fee && { fee }),
    warnings: [...approvalWarnings(decoded.flatMap(({ approvals }) => approvals), tokens), ...simulationWarnings(simulation)],
  }
}

/**
 * What a transaction will do, before the wallet is asked: the call decoded, the account's balance changes simulated
 * on the network's node, the fee, and warnings (approvals, a revert and why, what could not be checked).
 * @example const review = await reviewTransaction({ client: clientFor(1), chainId: 1, request: { from, to, data } })
 */
export async function reviewTransaction({ request, ...parameters }: ReviewTransactionParameters): Promise<TransactionReview> {
  const { from, gas, gasPrice, maxFeePerGas, ...call } = request
  const { calls, ...review } = await reviewFrom({ ...parameters, from, calls: [call], gas, gasPrice, maxFeePerGas })
  return { kind: 'transaction', ...review, call: calls[0]! }
}

/**
 * What a wallet_sendCalls batch will do: each call decoded, the batch simulated as one, in order (a call that would
 * revert is named by its index), the balance changes and fee of the whole.
 * @example const review = await reviewCalls({ client, chainId: 1, from, calls })
 */
export async function reviewCalls({ from, calls, ...parameters }: ReviewCallsParameters): Promise<CallsReview> {
  return { kind: 'calls', ...(await reviewFrom({ ...parameters, from, calls })) }
}

/**
 * What a typed-data signature grants, without asking any node: its domain, its message field by field, Permit2's
 * PermitSingle/PermitBatch and EIP-2612's Permit called out as approvals (unlimited ones flagged).
 * @example const review = reviewTypedData({ typedData, chainId: 1 })
 */
export function reviewTypedData({ typedData, chainId }: Omit<ReviewTypedDataParameters, 'client'>): TypedDataReview {
  const { approvals, ...layout } = layoutTypedData(typedData)
  const domainChainId = layout.domain.chainId
  const network = domainChainId ?? chainId
  const warnings = approvalWarnings(approvals, new Map())
  if (chainId !== undefined && domainChainId !== undefined && domainChainId !== chainId) warnings.push({ kind: 'chainMismatch', chainId, domainChainId })
  return { kind: 'typedData', ...(network !== undefined && { network: formatCaipNetworkId('eip155', network) }), ...layout, warnings }
}

/**
 * reviewTypedData, with the symbol and decimals of every token it names (a Permit2 permit's, an EIP-2612 permit's
 * verifying contract) read from the typed data's chain in one multicall; without a client, or where the chain does not
 * answer, the tokens stay addresses.
 * @example const review = await reviewTypedDataOnChain({ typedData, chainId: 1, client: clientFor(1) })
 */
export async function reviewTypedDataOnChain({ client, ...parameters }: ReviewTypedDataParameters): Promise<TypedDataReview> {
  const review = reviewTypedData(parameters)
  const named = [
    ...review.message.flatMap(({ value }) => (value.kind === 'tokenAmount' ? [value.token.address] : [])),
    ...review.warnings.flatMap((warning) => ('token' in warning ? [warning.token.address] : [])),
  ]
  if (!client || named.length === 0) return review
  const tokens = await readTokens(client, named)
  return {
    ...review,
    message: review.message.map((row) => (row.value.kind === 'tokenAmount' ? { ...row, value: { ...row.value, token: tokenRef(row.value.token.address, tokens) } } : row)),
    warnings: review.warnings.map((warning) => ('token' in warning ? { ...warning, token: tokenRef(warning.token.address, tokens) } : warning)),
  }
}
