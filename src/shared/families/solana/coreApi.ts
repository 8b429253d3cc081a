import type { SolanaTransactionReview } from '../../protocol/review'

/** Solana values between the page and the core worker (structured-cloneable: bigint and Uint8Array travel as they are). */

export type SolanaCommitment = 'processed' | 'confirmed' | 'finalized'

/** One SPL Token or Token-2022 account of an owner. */
export type SolanaTokenBalance = { mint: string; tokenAccount: string; amount: bigint; decimals: number; tokenProgram: string }

export type SolanaTransferParameters = {
  from: string
  to: string
  /** Base units: lamports for SOL, the token's smallest unit for SPL (see parseSolanaAmount). */
  amount: bigint
  /** The SPL mint; omit to send SOL. */
  mint?: string
  /** The decimals `amount` was parsed with; refused when they are not the mint's (9 for SOL). */
  decimals?: number
  /** The message version: legacy by default; 0 for a wallet whose supportedTransactionVersions lacks 'legacy'. */
  version?: 'legacy' | 0
}

export type SolanaTransfer = {
  /** The unsigned wire transaction (signature slot zeroed): what a wallet's solana:signTransaction takes. */
  transaction: Uint8Array
  lastValidBlockHeight: bigint
}

export type SolanaConfirmation = { signature: string; slot: bigint; confirmationStatus: SolanaCommitment }

/**
 * One Solana cluster the core serves: CAIP-2 `solana:` and the first 32 characters of its genesis hash, and its RPC
 * endpoints (`rpcUrls`, ranked with fallback; `rpcUrl` for one).
 */
export type SolanaChainConfig = { caipNetworkId: string; rpcUrl?: string; rpcUrls?: readonly string[] }

/**
 * `core.solana`: the Solana clusters of the core's config, read and sent through the worker. The Solana worker module
 * answers each call under the same name (src/worker/families/solana/solanaWorkerApi.ts).
 */
export type SolanaCoreApi = {
  /** SOL in lamports, cached 30 s (SPEC §9) unless `force`; into the mirrored store's balances (balanceKey(caipNetworkId, address)). */
  getBalance(parameters: { caipNetworkId: string; address: string; force?: boolean }): Promise<bigint>
  /** SPL Token and Token-2022 balances, 0-decimal tokens dropped. */
  getTokenBalances(parameters: { caipNetworkId: string; owner: string }): Promise<SolanaTokenBalance[]>
  /** The unsigned wire transaction for the wallet to sign, and the block height it is valid until. */
  buildTransfer(parameters: SolanaTransferParameters & { caipNetworkId: string }): Promise<SolanaTransfer>
  /** The fee in lamports a wire transaction would pay. */
  estimateFee(parameters: { caipNetworkId: string; transaction: Uint8Array }): Promise<bigint>
  /** Sends the wallet's signed wire transaction; answers its base58 signature. */
  sendTransaction(parameters: { caipNetworkId: string; transaction: Uint8Array }): Promise<string>
  /**
   * What a wire transaction (bytes or base64, as solana:signTransaction and signAndSendTransaction receive it) will do,
   * before the wallet is asked: fee payer and signers, each instruction decoded, the fee, the signers' (and `account`'s)
   * SOL and token balance changes simulated on the node, warnings (approvals, authority changes, a failing simulation).
   * INVALID_PARAMS (field `transaction`) for bytes that are not a transaction.
   */
  reviewTransaction(parameters: { caipNetworkId: string; transaction: Uint8Array | string; account?: string }): Promise<SolanaTransactionReview>
  /** Resolves once the transaction reaches the commitment (within 2 min unless `maxWaitMs`); SOLANA_SEND_FAILED when it failed or expired. */
  waitForConfirmation(parameters: { caipNetworkId: string; signature: string; lastValidBlockHeight: bigint; pollIntervalMs?: number; maxWaitMs?: number }): Promise<SolanaConfirmation>
}

/**
 * The calls of `core.solana`, each with how the core treats it: `maxWaitMs`, how long one that waits on the chain
 * waits unless told (the page 5 s more); `changesBalances`, the worker's cached balances of the network are stale once
 * it answers.
 */
export const solanaCoreCalls = {
  getBalance: {},
  getTokenBalances: {},
  buildTransfer: {},
  estimateFee: {},
  sendTransaction: {},
  reviewTransaction: {},
  waitForConfirmation: { maxWaitMs: 120_000, changesBalances: true },
}
