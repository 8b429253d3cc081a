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
  /** An address the call uses as a token (a swap's route, a Permit2 allowance's token): its symbol when the chain says. */
  | { kind: 'token'; token: TokenRef }
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

/**
 * The review of legacy typed data (eth_signTypedData_v1): its fields in the site's order, each labelled with its name.
 * It names no site, contract or chain: the signature is good wherever the same fields mean something.
 */
export type LegacyTypedDataReview = { kind: 'legacyTypedData'; fields: ReviewRow[] }

/** A permission, policy or rule of an ERC-7715 request, or its signer: its type as the site names it, its data in rows. */
export type PermissionPart = { type: string; rows: ReviewRow[] }

/**
 * One request of an ERC-7715 permission grant: who may act (`signer`) for the account on the network, doing what
 * (`permissions`), within which limits, until when (`expiry`, Unix seconds; absent: no end).
 */
export type PermissionGrant = {
  /** Absent: the wallet's network (viem's action names none). */
  caipNetworkId?: CaipNetworkId
  /** Absent: the wallet lets its user choose the account. */
  account?: Address
  expiry?: bigint
  /** Absent: the wallet decides who acts. */
  signer?: PermissionPart
  permissions: PermissionPart[]
  limits: PermissionPart[]
}

/**
 * The review of an ERC-7715 request (wallet_grantPermissions, wallet_requestExecutionPermissions): standing
 * permissions the site then uses without asking again.
 */
export type PermissionsReview = { kind: 'permissions'; grants: PermissionGrant[] }

/**
 * The review of a personal_sign message: its text when it is UTF-8 a person can read, else its bytes; and, for a
 * Sign-In with Ethereum message (EIP-4361), what it signs in to and whether that is the site asking. An eth_sign
 * request is `isBlind`: the wallet may sign its bytes as they are, without the prefix that keeps a message from being a
 * transaction's or an order's hash, so what the signature allows cannot be shown.
 */
export type MessageReview = {
  kind: 'message'
  text?: string
  bytes: Hex
  isBlind?: true
  signIn?: {
    domain: string
    address?: string
    uri?: string
    chainId?: number
    expirationTime?: string
    /** The message's domain is the page's host: a sign-in for another site is a phishing pattern. */
    isForThisSite: boolean
  }
}

// Solana (issue #36): a wire transaction as a site asks the wallet to sign or send it (solana:signTransaction,
// solana:signAndSendTransaction). Addresses are base58 strings; amounts are lamports or a token's smallest unit.

/** A program the review decodes; `program` names it, its address is the instruction's `programAddress`. */
export type SolanaProgram = 'system' | 'token' | 'token2022' | 'associatedToken' | 'computeBudget' | 'memo'

/** A value ready to show; the UI picks the words and number formatting. */
export type SolanaReviewValue =
  | { kind: 'address'; address: string }
  /** SOL in lamports (10^-9 SOL). */
  | { kind: 'lamports'; amount: bigint }
  /**
   * In the token's smallest unit. `decimals` when the instruction carries them (the …Checked ones), `mint` when it
   * names it; `isUnlimited` for u64's maximum (18,446,744,073,709,551,615), what "unlimited" approvals send.
   */
  | { kind: 'tokenAmount'; amount: bigint; mint?: string; decimals?: number; isUnlimited: boolean }
  | { kind: 'number'; value: bigint }
  | { kind: 'text'; value: string }
  /** Base64. */
  | { kind: 'bytes'; value: string }

/** One named argument or account of an instruction: `name` is the program's (`lamports`, `source`, `delegate`). */
export type SolanaReviewRow = { name: string; value: SolanaReviewValue }

/**
 * An account an instruction names, with what the message lets it do; `lookupTable` when a v0 table supplied it
 * (`address` absent when that table could not be read).
 */
export type SolanaAccountMeta = { address?: string; isSigner: boolean; isWritable: boolean; lookupTable?: string }

/** An instruction as decoded for review. */
export type SolanaDecodedInstruction =
  | {
      kind: 'instruction'
      program: SolanaProgram
      programAddress: string
      /** The instruction's name in the program, camelCase: `transfer`, `createAccount`, `transferChecked`, `setComputeUnitPrice`. */
      instruction: string
      /** Its data fields, then its named accounts, in the program's order. */
      args: SolanaReviewRow[]
    }
  /** A program or instruction the review does not know: its accounts and how much data it carries. */
  | { kind: 'unknown'; programAddress: string; program?: SolanaProgram; dataBytes: number; accounts: SolanaAccountMeta[] }

/** How an account's balance moves when the transaction runs, as the node simulated it: `amount` is after − before (the fee payer's includes the fee). */
export type SolanaBalanceChange =
  | { asset: { kind: 'native' }; address: string; before: bigint; after: bigint; amount: bigint }
  /** A token account owned by `address` (a signer, or the reviewed account); a closed one ends at 0. */
  | { asset: { kind: 'token'; mint: string; decimals: number; tokenProgram: string }; address: string; tokenAccount: string; before: bigint; after: bigint; amount: bigint }

/** What a careful person should know before signing a Solana transaction. */
export type SolanaReviewWarning =
  /** Approve / ApproveChecked: `delegate` may move up to `amount` of the token account `source` without asking again. */
  | { kind: 'approval' | 'unlimitedApproval'; instructionIndex: number; source: string; delegate: string; amount: bigint; mint?: string; decimals?: number }
  /** SetAuthority: who controls an account or mint changes (`authorityType` as the program numbers it; 2 is the owner of a token account). */
  | { kind: 'authorityChange'; instructionIndex: number; account: string; authorityType: number; newAuthority?: string }
  /** System Assign: the account's owner program changes: that program then controls its lamports and data. */
  | { kind: 'ownerChange'; instructionIndex: number; account: string; owner: string }
  /** The simulation failed: the transaction would fail on chain (`error` is the node's `err` as JSON). */
  | { kind: 'wouldFail'; instructionIndex?: number; error: string }
  /**
   * Balance changes could not be checked: the node has no simulateTransaction ('unsupported') or it or the balance
   * read failed ('failed', with the error's code).
   */
  | { kind: 'notSimulated'; why: 'unsupported' | 'failed'; errorCode?: ErrorCode }
  /** The node gave no fee: the blockhash is unknown or expired ('blockhashNotFound': the transaction cannot land as it is), or the call failed. */
  | { kind: 'feeUnknown'; why: 'blockhashNotFound' | 'failed'; errorCode?: ErrorCode }
  /** Accounts of a v0 transaction come from lookup tables that could not be read: those instructions stay unknown. */
  | { kind: 'unresolvedLookupTables'; tables: string[] }

/** The review of a Solana wire transaction. */
export type SolanaTransactionReview = {
  kind: 'solanaTransaction'
  network: CaipNetworkId
  version: 'legacy' | 0 | 1
  /** Pays the fee (and rent of any account it creates); the first signer. */
  feePayer: string
  /** Every required signer, in slot order, and whether its signature slot is filled already. */
  signers: { address: string; isSigned: boolean }[]
  /** The recent blockhash, or the nonce of a durable-nonce transaction (`usesDurableNonce`: it does not expire). */
  lifetimeToken: string
  usesDurableNonce: boolean
  instructions: SolanaDecodedInstruction[]
  /** Lamports, from the node's getFeeForMessage (signatures and priority fee); absent with a `feeUnknown` warning. */
  fee?: bigint
  /** Compute units the simulation used. */
  computeUnitsConsumed?: bigint
  /** Absent when the transaction was not simulated (a `notSimulated` or `wouldFail` warning says why). */
  balanceChanges?: SolanaBalanceChange[]
  warnings: SolanaReviewWarning[]
}

// Bitcoin (issue #36): a PSBT (BIP-174) as a site asks the wallet to sign it (signPsbt). Amounts in sats.

/** One input: the output it spends and what the PSBT says about it. */
export type PsbtInputReview = {
  index: number
  txid: string
  vout: number
  /** Sats, from the input's witnessUtxo or nonWitnessUtxo (checked against the txid); absent when it carries neither. */
  value?: bigint
  /** The address the spent output paid; absent when unknown or when its script has no address form (`script`, hex). */
  address?: string
  script?: string
  /** It spends an output of one of the account's addresses. */
  isAccount: boolean
  /** The request asks the wallet to sign it. */
  isToSign: boolean
  /** It carries a signature already (partial or final). */
  isSigned: boolean
  sequence: number
  /** A sighash type other than ALL or DEFAULT, as the PSBT asks for it (a `sighash` warning says so too). */
  sighashType?: number
}

/** One output: an address, OP_RETURN data or a script without an address form. */
export type PsbtOutputReview =
  /** `isAccount`: it pays one of the account's addresses (change). */
  | { index: number; kind: 'address'; address: string; value: bigint; isAccount: boolean }
  /** Data carried by OP_RETURN, hex (its pushes joined). */
  | { index: number; kind: 'opReturn'; data: string; value: bigint }
  | { index: number; kind: 'script'; script: string; value: bigint }

export type PsbtReviewWarning =
  /** These inputs carry neither witnessUtxo nor nonWitnessUtxo: their value, so the fee and perhaps the net change, cannot be known. */
  | { kind: 'missingUtxo'; inputIndexes: number[] }
  /**
   * An input asks for a sighash other than ALL/DEFAULT: NONE lets anyone change the outputs, SINGLE all but one,
   * ANYONECANPAY (0x80) other inputs.
   */
  | { kind: 'sighash'; inputIndex: number; sighashType: number }
  /** The request asks the wallet to sign inputs that do not spend the account's outputs. */
  | { kind: 'signsOtherInputs'; inputIndexes: number[] }
  /** The fee rate is above `limit` sat/vB (Bitcoin Core's default maxfeerate): nodes refuse to relay it, the fee is likely a mistake. */
  | { kind: 'highFeeRate'; feeRate: number; limit: number }

/** The review of a PSBT for the account's addresses. */
export type PsbtReview = {
  kind: 'psbt'
  network: CaipNetworkId
  inputs: PsbtInputReview[]
  outputs: PsbtOutputReview[]
  /** Sats: inputs − outputs; absent when an input's value is unknown (a `missingUtxo` warning names it). */
  fee?: bigint
  /** The estimated virtual size once signed; absent when an input's script type has no known signature size. */
  vsize?: number
  /** fee ÷ vsize, sat/vB, rounded to 0.1. */
  feeRate?: number
  /** Sats the account's addresses receive minus what they spend: negative leaves the account. Absent when an account input's value is unknown. */
  netChange?: bigint
  locktime: number
  /** Some input signals replace-by-fee (BIP-125). */
  isReplaceable: boolean
  warnings: PsbtReviewWarning[]
}
