import type { PsbtReview } from '../../protocol/review'

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

/**
 * `core.bitcoin`: the Bitcoin networks of the core's config, read and sent through the worker; amounts in sats
 * (bigint). The Bitcoin worker module answers each call under the same name (src/worker/families/bip122/bitcoinWorkerApi.ts).
 */
export type BitcoinCoreApi = {
  /** `{ confirmed, pending }`, cached 30 s (SPEC §9) unless `force`; confirmed + pending goes into the mirrored store's balances (balanceKey(caipNetworkId, address)). */
  getBalance(parameters: { caipNetworkId: string; address: string; force?: boolean }): Promise<BitcoinBalance>
  /** sat/vB for about 1, 3 and 6 blocks. */
  getFeeRates(parameters: { caipNetworkId: string }): Promise<BitcoinFeeRates>
  /** The unsigned PSBT (base64) for the wallet's signPsbt, with its fee, inputs and change; dust, funds and address rules checked. */
  buildTransfer(parameters: BitcoinTransferParameters & { caipNetworkId: string }): Promise<BitcoinTransfer>
  /** Sends a signed raw transaction (hex); answers its txid. */
  broadcast(parameters: { caipNetworkId: string; txHex: string }): Promise<string>
  /** Finalizes the PSBT the wallet signed, extracts and sends it; answers its txid. */
  finalizeAndBroadcast(parameters: { caipNetworkId: string; psbtBase64: string }): Promise<string>
  /**
   * What a PSBT (base64 or hex, as signPsbt receives it) does for the account's `addresses`, before the wallet is asked:
   * inputs (whose, which the request signs), outputs (change, OP_RETURN), the fee and fee rate, the net change,
   * warnings (inputs without UTXO data, sighash types, inputs of others). Read from the PSBT alone; INVALID_PARAMS
   * (field `psbt`) for anything that is not one.
   */
  reviewPsbt(parameters: { caipNetworkId: string; psbt: string; addresses: readonly string[]; signingIndexes?: readonly number[] }): Promise<PsbtReview>
  /** Resolves once the transaction is in a block (within an hour unless `maxWaitMs`); RPC_TIMEOUT after that. */
  waitForConfirmation(parameters: { caipNetworkId: string; txid: string; pollIntervalMs?: number; maxWaitMs?: number }): Promise<BitcoinConfirmation>
}

/**
 * The calls of `core.bitcoin`, each with how the core treats it: `maxWaitMs`, how long one that waits on the chain
 * waits unless told (the page 5 s more); `changesBalances`, the worker's cached balances of the network are stale once
 * it answers (a sent transaction counts at once, as pending).
 */
export const bitcoinCoreCalls = {
  getBalance: {},
  getFeeRates: {},
  buildTransfer: {},
  broadcast: { changesBalances: true },
  finalizeAndBroadcast: { changesBalances: true },
  reviewPsbt: {},
  waitForConfirmation: { maxWaitMs: 3_600_000, changesBalances: true },
}
