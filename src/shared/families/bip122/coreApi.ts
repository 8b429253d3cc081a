/** Bitcoin values between the page and the core worker (structured-cloneable: amounts in sats as bigint). */

/**
 * One Bitcoin network the core serves: its CAIP-2 id (`bip122:` and the first 32 hex characters of the genesis hash)
 * and Esplora-style REST APIs (Blockstream's, mempool.space's `…/api`, or the local stack's): `apiUrls`, ranked with
 * fallback, or `apiUrl` for one.
 */
export type BitcoinChainConfig = { caipNetworkId: string; apiUrl?: string; apiUrls?: readonly string[] }

/** Sats. `pending` is what the mempool adds or takes away (negative while a send waits) until it confirms. */
export type BitcoinBalance = { confirmed: bigint; pending: bigint }

/** Fee rates in sat/vB, at least 1: for the next block, about 3 blocks (half an hour) and about 6 blocks (an hour). */
export type BitcoinFeeRates = { fast: number; medium: number; slow: number; byTarget: Record<string, number> }

export type BitcoinTransferParameters = {
  /**
   * The paying account as the wallet gave it: a P2WPKH, P2SH-P2WPKH or P2TR address and its public key in hex (the
   * 33-byte compressed key; for P2TR the 32-byte x-only internal key). P2TR and P2SH-P2WPKH need it; P2WPKH checks it.
   */
  from: { address: string; publicKey?: string }
  to: string
  /** Sats. */
  amount: bigint
  /** sat/vB; the API's ~3-block estimate when left out. */
  feeRate?: number
}

export type BitcoinTransferInput = { txid: string; vout: number; value: bigint }

export type BitcoinTransfer = {
  /** The unsigned PSBT (BIP-174) for the wallet's signPsbt: witnessUtxo on every input, tapInternalKey on P2TR ones. */
  psbtBase64: string
  /** Sats: the fee rate times the estimated vsize, plus any change too small to keep (dust). */
  fee: bigint
  feeRate: number
  /** The estimated virtual size once signed. */
  vsize: number
  inputs: BitcoinTransferInput[]
  /** Sats back to `from`; 0n when there is no change output. */
  change: bigint
}

export type BitcoinConfirmation = { txid: string; blockHeight: number; blockHash: string; blockTime?: number }
