import { SAFE_RPC_METHODS } from '../../../src/shared/protocol/rpcMethods'

/**
 * The methods the hosted RPC endpoint forwards: the widget's safe reads (SPEC §6), the other reads every node answers
 * alike, and eth_sendRawTransaction (a transaction the wallet signed: how wallets send). The rest is refused: node
 * administration and tracing (admin_*, debug_*, txpool_*, miner_*), the node's own keys (personal_*, eth_sign*,
 * eth_sendTransaction), and filters and subscriptions, whose state lives on one node that the next call may not reach.
 * @example RPC_GATEWAY_METHODS.includes('eth_call') // true
 */
export const RPC_GATEWAY_METHODS = [
  ...SAFE_RPC_METHODS,
  'eth_sendRawTransaction',
  'eth_blobBaseFee',
  'eth_createAccessList',
  'eth_getBlockReceipts',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getProof',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getUncleCountByBlockHash',
  'eth_getUncleCountByBlockNumber',
  'eth_syncing',
  'net_listening',
  'web3_sha3',
] as const

const gatewayMethods = new Set<string>(RPC_GATEWAY_METHODS)

/** Whether the hosted RPC endpoint forwards `method` (RPC_GATEWAY_METHODS). */
export const isGatewayMethod = (method: string) => gatewayMethods.has(method)

/** Per method whose answers can be final, whether this answer is: once given, every node gives it again. */
const finalAnswers: Readonly<Record<string, (result: unknown) => boolean>> = {
  eth_chainId: () => true,
  net_version: () => true,
  // A block or receipt that is not there yet is null, and may be there at the next call.
  eth_getBlockByHash: (result) => result !== null,
  eth_getTransactionReceipt: (result) => result !== null,
  // A pending transaction has no block yet: its blockHash, index and block number are still to come.
  eth_getTransactionByHash: (result) => typeof (result as { blockHash?: unknown } | null)?.blockHash === 'string',
}

/**
 * Where an answer that cannot change is kept (see createAnswerCache): the chain, the method and its params (hashes in
 * any case alike); undefined for a method whose answers change.
 * @example finalAnswerKey(1, 'eth_getBlockByHash', ['0xAB…', false]) // '1 eth_getBlockByHash ["0xab…",false]'
 */
export function finalAnswerKey(chainId: number, method: string, params: unknown): string | undefined {
  if (!Object.hasOwn(finalAnswers, method)) return undefined
  return `${chainId} ${method} ${JSON.stringify(params ?? []).toLowerCase()}`
}

/** Whether `result`, the answer to `method`, can be kept for good (a hash's block found, a receipt given, a transaction mined). */
export const isFinalAnswer = (method: string, result: unknown) => finalAnswers[method]?.(result) ?? false
