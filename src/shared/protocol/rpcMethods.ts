import type { ChainNamespace } from './caip'

/** Read methods any site may call freely (SPEC §6). */
export const SAFE_RPC_METHODS = [
  'eth_accounts', 'eth_blockNumber', 'eth_call', 'eth_chainId', 'eth_estimateGas', 'eth_feeHistory', 'eth_gasPrice',
  'eth_getBalance', 'eth_getBlockByHash', 'eth_getBlockByNumber', 'eth_getCode', 'eth_getLogs', 'eth_getStorageAt',
  'eth_getTransactionByHash', 'eth_getTransactionCount', 'eth_getTransactionReceipt', 'eth_maxPriorityFeePerGas',
  'net_version', 'web3_clientVersion',
] as const

/** Methods that need the user's approval (SPEC §6). */
export const UNSAFE_RPC_METHODS = [
  'personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction', 'solana_signMessage', 'solana_signTransaction',
  'solana_signAllTransactions', 'solana_signAndSendTransaction', 'wallet_sendCalls', 'wallet_grantPermissions',
  'wallet_revokePermissions', 'eth_sendUserOperation',
] as const

/** Accepted by the secure frame besides the safe and unsafe ones (SPEC §6). */
/** wallet_sendCalls (EIP-5792): the most calls one batch may carry, for every wallet (the embedded one included). */
export const MAX_CALLS = 10

export const FRAME_ONLY_RPC_METHODS = ['wallet_getCallsStatus', 'wallet_getCapabilities', 'wallet_getAssets'] as const

export type SafeRpcMethod = (typeof SAFE_RPC_METHODS)[number]
export type UnsafeRpcMethod = (typeof UNSAFE_RPC_METHODS)[number]

const safe = new Set<string>(SAFE_RPC_METHODS)
const unsafe = new Set<string>(UNSAFE_RPC_METHODS)
const frameOnly = new Set<string>(FRAME_ONLY_RPC_METHODS)

export const isSafeRpcMethod = (method: string): method is SafeRpcMethod => safe.has(method)
export const isUnsafeRpcMethod = (method: string): method is UnsafeRpcMethod => unsafe.has(method)
/** Whether the secure frame accepts the method at all; others get 'Requested RPC call is not allowed'. */
export const isFrameRpcMethodAllowed = (method: string) => safe.has(method) || unsafe.has(method) || frameOnly.has(method)

export type AccountType = 'eoa' | 'smartAccount' | 'payment'

/** The default account type per namespace (SPEC §6). */
export const DEFAULT_ACCOUNT_TYPES: Record<ChainNamespace, AccountType> = {
  eip155: 'smartAccount',
  bip122: 'payment',
  solana: 'eoa',
  polkadot: 'eoa',
}
