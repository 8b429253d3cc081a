import type { Address, Hex } from 'viem'
import type { CaipNetworkId } from './caip'
import type { ErrorCode } from './errorTable'

// What a request will do, as the worker works it out before the wallet is asked (issue #36). Every string here is data
// (codes, names from ABIs and descriptors, values): the UI words and translates it.

/** A transaction as a site asks for it (eth_sendTransaction), amounts in the smallest unit. */
export type TransactionToReview = {
  from: Address
  /** Absent for a contract deployment. */
  to?: Address
  data?: Hex
  value?: bigint
  gas?: bigint
  gasPrice?: bigint
  maxFeePerGas?: bigint
}

/** One call of a wallet_sendCalls batch. */
export type CallToReview = { to?: Address; data?: Hex; value?: bigint }

/** EIP-712 typed data as eth_signTypedData_v4 carries it (the JSON string or the parsed object). */
export type TypedDataToReview = {
  domain?: { name?: string; version?: string; chainId?: number | string | bigint; verifyingContract?: string; salt?: string }
  types: Record<string, readonly { name: string; type: string }[]>
  primaryType: string
  message: Record<string, unknown>
}

/** Which bundled standard decoded a call. */
export type CallStandard = 'erc20' | 'erc721' | 'erc1155' | 'permit2' | 'uniswapV2Router' | 'multicall3' | 'entryPoint' | 'smartAccount'

/** A token as far as it is known: symbol and decimals are read from the chain and may be missing. */
export type TokenRef = { address: Address; symbol?: string; decimals?: number }

/** A value ready to show; the UI picks the words and number formatting. */
export type ReviewValue =
  | { kind: 'address'; address: Address }
  /** `isUnlimited`: at least 2^255, or the maximum of its type (Permit2's uint160), or the descriptor's threshold. */
  | { kind: 'tokenAmount'; token: TokenRef; amount: bigint; isUnlimited: boolean }
  /** In the network's native currency (the review's `nativeCurrency`). */
  | { kind: 'nativeAmount'; amount: bigint }
  /** Unix time in seconds. */
  | { kind: 'date'; timestamp: bigint }
  | { kind: 'number'; value: bigint }
  | { kind: 'bool'; value: boolean }
  | { kind: 'text'; value: string }
  | { kind: 'bytes'; value: Hex }
  /** Bytes that are themselves calls (Multicall3, a smart account's execute, a user operation), decoded. */
  | { kind: 'calls'; calls: DecodedCall[] }

/**
 * One labelled row: `path` names the argument as the ABI (or typed data) does, nested structs and arrays flattened
 * (`permitSingle.details.token`, `path.[1]`); `label` is an ERC-7730 descriptor's, when one applies.
 */
export type ReviewRow = { path: string; label?: string; value: ReviewValue }

/** A call as decoded for review. */
export type DecodedCall =
  | {
      kind: 'function'
      to: Address
      value: bigint
      /** The bundled standard whose ABI decoded it; absent when only the site's descriptor did. */
      standard?: CallStandard
      functionName: string
      /** The function's signature, e.g. `transfer(address,uint256)`. */
      signature: string
      /** An ERC-7730 descriptor's intent: the title. */
      intent?: string
      /** Every argument: the descriptor's fields first, in its order, then any it left out (a site cannot hide one). */
      args: ReviewRow[]
    }
  | { kind: 'nativeTransfer'; to: Address; value: bigint }
  /** A selector no bundled ABI or descriptor knows. */
  | { kind: 'unknown'; to: Address; value: bigint; selector: Hex; dataBytes: number }
  | { kind: 'deployment'; value: bigint; dataBytes: number }

/** Why a call reverted: the contract's own words, a panic code (0x11 overflow …), a decoded custom error, or raw data. */
export type RevertReason =
  | { kind: 'error'; message: string }
  | { kind: 'panic'; code: number }
  | { kind: 'customError'; name: string; args: ReviewRow[] }
  | { kind: 'unknown'; data: Hex }

/** What a careful person should know before signing. */
export type ReviewWarning =
  /** An allowance of at least 2^255 (or the maximum of its type): the spender may take every token, now and later. */
  | { kind: 'unlimitedApproval'; via: ApprovalKind; token: TokenRef; spender: Address; amount: bigint; expiration?: bigint; deadline?: bigint }
  | { kind: 'approval'; via: ApprovalKind; token: TokenRef; spender: Address; amount: bigint; expiration?: bigint; deadline?: bigint }
  /** One NFT (ERC-721 approve). */
  | { kind: 'nftApproval'; collection: Address; spender: Address; tokenId: bigint }
  /** setApprovalForAll(operator, true): every NFT of the collection. */
  | { kind: 'approvalForAll'; collection: Address; operator: Address }
  /** `callIndex` is the call's place in the request (0 for a transaction). */
  | { kind: 'wouldRevert'; callIndex: number; reason: RevertReason }
  /**
   * The balance changes could not be checked: the node has no eth_simulateV1 ('unsupported'), a deployment cannot be
   * simulated ('deployment'), or the simulation failed ('failed', with the error's code).
   */
  | { kind: 'notSimulated'; why: 'unsupported' | 'deployment' | 'failed'; errorCode?: ErrorCode }
  /** Typed data signed for another chain than the one connected. */
  | { kind: 'chainMismatch'; chainId: number; domainChainId: number }

/** How an allowance is granted: an ERC-20 call, Permit2 (call or signature), or an EIP-2612 permit signature. */
export type ApprovalKind = 'erc20' | 'permit2' | 'eip2612'

/** A change of the account's balance the simulation saw: negative leaves the account. Gas is in `fee`, not here. */
export type BalanceChange = { asset: { kind: 'native' } | ({ kind: 'erc20' } & TokenRef); amount: bigint }

/** gas × price in the native currency's smallest unit. */
export type FeeEstimate = { gas: bigint; gasPrice: bigint; amount: bigint }

export type NativeCurrency = { symbol: string; decimals: number }

type ChainReview = {
  network: CaipNetworkId
  from: Address
  nativeCurrency: NativeCurrency
  /** Absent when the request was not simulated (a `notSimulated` warning says why). */
  balanceChanges?: BalanceChange[]
  fee?: FeeEstimate
  warnings: ReviewWarning[]
}

/** The review of one transaction (eth_sendTransaction). */
export type TransactionReview = ChainReview & { kind: 'transaction'; call: DecodedCall }

/** The review of a wallet_sendCalls batch: call by call, simulated together in order. */
export type CallsReview = ChainReview & { kind: 'calls'; calls: DecodedCall[] }

/** The review of EIP-712 typed data: its domain and its message field by field. */
export type TypedDataReview = {
  kind: 'typedData'
  /** The domain's chain, else the connected one. */
  network?: CaipNetworkId
  primaryType: string
  domain: { name?: string; version?: string; chainId?: number; verifyingContract?: Address; salt?: Hex }
  message: ReviewRow[]
  warnings: ReviewWarning[]
}
