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
