import * as z from 'zod/mini'
import {
  bytesToHex,
  createClient,
  decodeFunctionData,
  defineChain,
  erc20Abi,
  formatEther,
  formatUnits,
  getAddress,
  hexToBytes,
  http,
  isAddressEqual,
  maxUint256,
  numberToHex,
  type Address,
  type Client,
  type Hex,
  type LocalAccount,
  type TransactionSerializable,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { getBalance, getBlock, prepareTransactionRequest, readContract, sendRawTransaction } from 'viem/actions'
import { RPC_RETRY_COUNT, RPC_TIMEOUT_MS } from '../../shared/protocol/constants'
import { createWidgetError, fromRpcError, isWidgetError, type WidgetError } from '../../shared/protocol/errors'
import { checkFees } from '../../shared/protocol/fees'
import { MAX_CALLS } from '../../shared/protocol/rpcMethods'
import { parseOrThrow } from '../../shared/protocol/schemas/parse'
import type { FrameEvmNetwork } from '../config/frameConfig'
import { clip, readableText, type ApprovalRequest } from './approvalRequest'

const hex = z.string().check(z.regex(/^0x[0-9a-fA-F]*$/, 'Expected 0x-prefixed hex'))
const quantity = z.string().check(z.regex(/^0x[0-9a-fA-F]{1,64}$/, 'Expected a hex quantity'))
const address = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'Expected an address'))
// Bounds: a message or call data past these is refused before anything is shown (128 KiB of bytes each).
const MAX_DATA_HEX = 2 + 2 * 128 * 1024

const personalSignParams = z.tuple([z.string().check(z.maxLength(MAX_DATA_HEX)), address])
const typedDataParams = z.tuple([address, z.union([z.string().check(z.maxLength(MAX_DATA_HEX)), z.record(z.string(), z.unknown())])])
const typedDataSchema = z.object({
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  primaryType: z.string(),
  domain: z.optional(z.record(z.string(), z.unknown())),
  message: z.record(z.string(), z.unknown()),
})
const transactionSchema = z.object({
  from: z.optional(address),
  to: z.optional(z.nullable(address)),
  value: z.optional(quantity),
  data: z.optional(hex.check(z.maxLength(MAX_DATA_HEX))),
  input: z.optional(hex.check(z.maxLength(MAX_DATA_HEX))),
  gas: z.optional(quantity),
  gasPrice: z.optional(quantity),
  maxFeePerGas: z.optional(quantity),
  maxPriorityFeePerGas: z.optional(quantity),
  nonce: z.optional(quantity),
  chainId: z.optional(quantity),
})
export const sendTransactionParams = z.tuple([transactionSchema])

type TransactionParams = z.infer<typeof transactionSchema>

const callSchema = z.object({
  to: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'Expected an address starting 0x')),
  value: z.optional(quantity),
  data: z.optional(z.string().check(z.regex(/^0x[0-9a-fA-F]*$/, 'Expected data starting 0x'), z.maxLength(MAX_DATA_HEX))),
})
export const sendCallsParams = z.tuple([
  z.object({
    version: z.optional(z.string()),
    from: z.optional(z.string()),
    chainId: z.optional(z.string()),
    atomicRequired: z.optional(z.boolean()),
    calls: z.array(callSchema).check(z.minLength(1), z.maxLength(MAX_CALLS)),
  }),
])

/** A viem client on one configured chain, with the spec's RPC timeout and retries. */
export function createEvmClient(network: FrameEvmNetwork): Client {
  const chain = defineChain({ id: network.chainId, name: network.name, nativeCurrency: network.nativeCurrency, rpcUrls: { default: { http: [network.rpcUrl] } } })
  return createClient({ chain, transport: http(network.rpcUrl, { timeout: RPC_TIMEOUT_MS, retryCount: RPC_RETRY_COUNT }) })
}

/**
 * A failure of viem or of the node as a WidgetError: the node's own code and message classified by the shared table
 * (nonce, funds, revert…), a timeout or an HTTP failure as such; never the library's raw text as the sentence.
 */
export function toEvmWidgetError(error: unknown): WidgetError {
  if (isWidgetError(error)) return error
  const walked: { code?: unknown; details?: unknown; shortMessage?: unknown; name?: unknown }[] = []
  for (let e = error as { cause?: unknown } | undefined, depth = 0; e && depth < 8; e = e.cause as never, depth++) walked.push(e as never)
  const withCode = walked.find((e) => typeof e.code === 'number')
  const nodeText = walked.map((e) => (typeof e.details === 'string' ? e.details : '')).find(Boolean)
  if (withCode || nodeText) return fromRpcError({ code: withCode?.code, message: nodeText ?? (withCode?.shortMessage as string | undefined) })
  if (walked.some((e) => e.name === 'TimeoutError')) return createWidgetError('RPC_TIMEOUT', { cause: error })
  if (walked.some((e) => e.name === 'HttpRequestError')) return createWidgetError('HTTP_REQUEST_FAILED', { cause: error })
  return createWidgetError('UNKNOWN_RPC_ERROR', { cause: error })
}

export const invalidParams = (details: string) => createWidgetError('INVALID_PARAMS', { details })

/** The signer named in a request must be this wallet's account (EIP-1193 4100 otherwise). */
export function requireOwnAccount(named: string | undefined, own: Address) {
  if (named !== undefined && !isAddressEqual(named as Address, own)) throw createWidgetError('UNAUTHORIZED', { details: `${named} is not this wallet's account` })
}

/** personal_sign's message: 0x-hex bytes (what wallets expect), or a plain string signed as its UTF-8 bytes. */
const messageBytes = (message: string) => (/^0x([0-9a-fA-F]{2})*$/.test(message) ? hexToBytes(message as Hex) : new TextEncoder().encode(message))

/** Flattens a typed-data message into "path: value" lines for the screen (at most 60 lines). */
function typedDataFields(value: unknown, path = '', out: { label: string; value: string }[] = []): { label: string; value: string }[] {
  if (out.length >= 60) return out
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value as Record<string, unknown>).slice(0, 60)) typedDataFields(inner, path ? `${path}.${key}` : key, out)
  } else out.push({ label: clip(path, 200), value: clip(String(value), 400) })
  return out
}

const formatAmount = (value: bigint, decimals: number) => (value === maxUint256 ? 'unlimited' : formatUnits(value, decimals))

export type EvmRequestContext = {
  network: FrameEvmNetwork
  client: Client
  privateKey: Hex
  address: Address
  /** The smart account that signs messages and typed data instead of the key (its address is `address`). */
  smartAccount?: Pick<LocalAccount, 'signMessage' | 'signTypedData'>
  /** Shows the request in the frame; resolves when the person approves, rejects with USER_REJECTED otherwise. */
  approve: (request: ApprovalRequest) => Promise<void>
}

/** personal_sign [message, address]: shown as text (or hex when it is not text), then signed with EIP-191. */
export async function personalSign(params: unknown, { network, privateKey, address, smartAccount, approve }: EvmRequestContext): Promise<Hex> {
  const [message, signer] = parseOrThrow(personalSignParams, params, 'personal_sign params', ['params'])
  requireOwnAccount(signer, address)
  const bytes = messageBytes(message)
  const text = readableText(bytes)
  await approve({ kind: 'signMessage', network: network.name, account: address, ...(smartAccount && { accountType: 'smartAccount' }), text: text === undefined ? undefined : clip(text), hex: clip(bytesToHex(bytes)) })
  return (smartAccount ?? privateKeyToAccount(privateKey)).signMessage({ message: { raw: bytes } })
}

/** A token's symbol and decimals from the chain, each undefined when the contract does not answer. */
async function readTokenInfo(client: Client, token: Address) {
  const [symbol, decimals] = await Promise.all([
    readContract(client, { address: token, abi: erc20Abi, functionName: 'symbol' }).catch(() => undefined),
    readContract(client, { address: token, abi: erc20Abi, functionName: 'decimals' }).catch(() => undefined),
  ])
  return { symbol: symbol === undefined ? undefined : clip(symbol, 20), decimals }
}

const toBigInt = (value: unknown) => {
  try {
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' ? BigInt(value) : undefined
  } catch {
    return undefined
  }
}

/**
 * A permission to spend tokens in typed data (ERC-2612 Permit, Permit2's PermitSingle/PermitTransferFrom): the spender
 * and the amount in the token's unit, the token being Permit2's `details.token`/`permitted.token` or the domain's contract.
 */
async function describePermit(client: Client, primaryType: string, message: Record<string, unknown>, verifyingContract: unknown) {
  const spender = message.spender
  if (typeof spender !== 'string' || !/permit/i.test(primaryType)) return undefined
  const inner = (message.details ?? message.permitted) as Record<string, unknown> | undefined
  const amount = toBigInt(message.value ?? message.amount ?? inner?.amount)
  const token = inner?.token ?? verifyingContract
  const { symbol, decimals } = typeof token === 'string' && /^0x[0-9a-fA-F]{40}$/.test(token) ? await readTokenInfo(client, token as Address) : { symbol: undefined, decimals: undefined }
  const shown = amount === undefined ? '?' : formatAmount(amount, decimals ?? 0)
  return { spender: clip(spender, 100), amount: symbol && shown !== 'unlimited' ? `${shown} ${symbol}` : shown }
}

/** eth_signTypedData_v4 [address, typedData]: its domain, type and fields shown (a token permission said as such), then signed (EIP-712). */
export async function signTypedDataV4(params: unknown, { network, client, privateKey, address, smartAccount, approve }: EvmRequestContext): Promise<Hex> {
  const [signer, raw] = parseOrThrow(typedDataParams, params, 'eth_signTypedData_v4 params', ['params'])
  requireOwnAccount(signer, address)
  let json: unknown = raw
  if (typeof raw === 'string') {
    try {
      json = JSON.parse(raw)
    } catch {
      throw invalidParams('eth_signTypedData_v4: the typed data is not JSON')
    }
  }
  const typedData = parseOrThrow(typedDataSchema, json, 'typed data', ['params', '1'])
  const domain = typedData.domain ?? {}
  if (domain.chainId !== undefined && toBigInt(domain.chainId) !== BigInt(network.chainId)) {
    throw invalidParams(`the typed data is for chain ${String(domain.chainId)}, the wallet is on ${network.chainId}`)
  }
  await approve({
    kind: 'signTypedData',
    network: network.name,
    account: address,
    ...(smartAccount && { accountType: 'smartAccount' }),
    domainName: typeof domain.name === 'string' ? clip(domain.name, 200) : undefined,
    verifyingContract: typeof domain.verifyingContract === 'string' ? clip(domain.verifyingContract, 100) : undefined,
    primaryType: clip(typedData.primaryType, 200),
    permit: await describePermit(client, typedData.primaryType, typedData.message, domain.verifyingContract),
    fields: typedDataFields(typedData.message),
  })
  try {
    return await (smartAccount ?? privateKeyToAccount(privateKey)).signTypedData(typedData as never)
  } catch (error) {
    throw invalidParams(`the typed data cannot be signed: ${(error as Error).message.split('\n')[0]}`)
  }
}

/** An ERC-20 transfer or approve in the call data, with the token's symbol and decimals read from the chain when it answers. */
export async function describeTokenCall(client: Client, contract: Address, data: Hex | undefined): Promise<Extract<ApprovalRequest, { kind: 'sendTransaction' }>['token']> {
  if (!data || data.length < 10) return undefined
  let decoded: ReturnType<typeof decodeFunctionData<typeof erc20Abi>>
  try {
    decoded = decodeFunctionData({ abi: erc20Abi, data })
  } catch {
    return undefined
  }
  if (decoded.functionName !== 'transfer' && decoded.functionName !== 'approve') return undefined
  const [counterparty, amount] = decoded.args as readonly [Address, bigint]
  const { symbol, decimals } = await readTokenInfo(client, contract)
  return { action: decoded.functionName, counterparty, contract, symbol, amount: formatAmount(amount, decimals ?? 0) }
}

/**
 * Gas with room for what an estimate, run on the latest block, cannot know: the block the call lands in. A swap in a
 * pool that the latest block traded in writes the pool's price accumulators once a later second has begun (5,000 to
 * 22,100 gas a slot, two slots a pool); estimated exactly, it runs out of gas and reverts. Unused gas is not paid for
 * (an ERC-4337 operation pays a tenth of its unused call gas past 40,000).
 */
export const withGasRoom = (gas: bigint) => (gas * 5n) / 4n + 20_000n

/** The fields of an eth_sendTransaction as viem's transaction request, the fee rules of SPEC §5 checked. */
function toTransactionRequest(tx: TransactionParams, network: FrameEvmNetwork) {
  if (tx.chainId !== undefined && BigInt(tx.chainId) !== BigInt(network.chainId)) {
    throw invalidParams(`the transaction is for chain ${BigInt(tx.chainId)}, the wallet is on ${network.chainId}`)
  }
  const fees = {
    gasPrice: tx.gasPrice === undefined ? undefined : BigInt(tx.gasPrice),
    maxFeePerGas: tx.maxFeePerGas === undefined ? undefined : BigInt(tx.maxFeePerGas),
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas === undefined ? undefined : BigInt(tx.maxPriorityFeePerGas),
  }
  const problem = checkFees(fees)
  if (problem) throw createWidgetError(problem.code === 'FEE_CONFLICT' ? 'INVALID_PARAMS' : problem.code, { details: problem.message })
  return {
    to: tx.to ?? undefined,
    value: tx.value === undefined ? 0n : BigInt(tx.value),
    data: (tx.data ?? tx.input) as Hex | undefined,
    gas: tx.gas === undefined ? undefined : BigInt(tx.gas),
    nonce: tx.nonce === undefined ? undefined : Number(BigInt(tx.nonce)),
    ...(fees.gasPrice !== undefined ? { gasPrice: fees.gasPrice } : {}),
    ...(fees.maxFeePerGas !== undefined ? { maxFeePerGas: fees.maxFeePerGas } : {}),
    ...(fees.maxPriorityFeePerGas !== undefined ? { maxPriorityFeePerGas: fees.maxPriorityFeePerGas } : {}),
  }
}

/**
 * eth_sendTransaction [tx]:
 * 1. the request is prepared on the chain's RPC (nonce, gas, fees): a transaction that would fail is refused here,
 *    with the node's reason classified, before the person is asked;
 * 2. the screen says the recipient, the amount in the native unit, the most the fee can cost and any token transfer
 *    or approval in the data;
 * 3. once approved it is signed in the frame by viem's local account and sent raw; the hash is the answer.
 */
export async function sendTransaction(params: unknown, { network, client, privateKey, address, approve }: EvmRequestContext): Promise<Hex> {
  const [tx] = parseOrThrow(sendTransactionParams, params, 'eth_sendTransaction params', ['params'])
  requireOwnAccount(tx.from, address)
  const account = privateKeyToAccount(privateKey)
  const request = toTransactionRequest(tx, network)
  let prepared: Awaited<ReturnType<typeof prepareTransactionRequest>>
  try {
    // A contract call the site gave no gas for gets room over the node's estimate, within the block's gas limit (the
    // block read beside the preparation, not after it).
    const needsRoom = request.gas === undefined && request.data !== undefined && request.data !== '0x'
    const [estimated, block] = await Promise.all([prepareTransactionRequest(client, { ...request, account, chain: client.chain } as never), needsRoom ? getBlock(client) : undefined])
    prepared = estimated
    if (block && prepared.gas !== undefined) {
      const gas = withGasRoom(prepared.gas) < block.gasLimit ? withGasRoom(prepared.gas) : block.gasLimit
      prepared = { ...prepared, gas } as typeof prepared
    }
  } catch (error) {
    throw toEvmWidgetError(error)
  }
  const feePerGas = (prepared.maxFeePerGas ?? prepared.gasPrice) as bigint | undefined
  const maxFeeWei = feePerGas !== undefined && prepared.gas !== undefined ? feePerGas * (prepared.gas as bigint) : undefined
  // Nodes estimate a plain transfer without checking the balance: a send it cannot pay is refused here, not after approval.
  const balance = await getBalance(client, { address }).catch((error: unknown) => {
    throw toEvmWidgetError(error)
  })
  if (balance < request.value + (maxFeeWei ?? 0n)) throw createWidgetError('INSUFFICIENT_FUNDS', { details: `balance ${formatEther(balance)}, needed ${formatEther(request.value + (maxFeeWei ?? 0n))}` })
  const maxFee = maxFeeWei === undefined ? undefined : formatEther(maxFeeWei)
  const token = request.to ? await describeTokenCall(client, getAddress(request.to), request.data) : undefined
  await approve({
    kind: 'sendTransaction',
    network: network.name,
    account: address,
    to: request.to ? getAddress(request.to) : undefined,
    amount: formatEther(request.value),
    symbol: network.nativeCurrency.symbol,
    maxFee,
    token,
    dataBytes: request.data ? (request.data.length - 2) / 2 : 0,
  })
  try {
    const serializedTransaction = await account.signTransaction(prepared as TransactionSerializable)
    return await sendRawTransaction(client, { serializedTransaction })
  } catch (error) {
    throw toEvmWidgetError(error)
  }
}

/** eth_chainId as a hex quantity. */
export const chainIdHex = (network: FrameEvmNetwork) => numberToHex(network.chainId)
