/** Polkadot values between the page and the core worker (structured-cloneable: amounts in planck as bigint). */

type Hex = `0x${string}`

/**
 * One Polkadot-SDK network the core serves: its CAIP-2 id (`polkadot:` and the first 32 hex characters of the genesis
 * hash, checked against the node's on connecting) and its JSON-RPC WebSocket URLs (`wss://rpc.polkadot.io`, the local
 * stack's `ws://127.0.0.1:9944`): `rpcUrls`, one tried beside another that is slow to connect, or `rpcUrl` for one.
 */
export type PolkadotChainConfig = { caipNetworkId: string; rpcUrl?: string; rpcUrls?: readonly string[] }

/** What the node says about its chain. */
export type PolkadotChainInfo = {
  caipNetworkId: string
  genesisHash: Hex
  /** system_chain. */
  chainName: string
  /** The runtime's SS58 prefix: addresses the worker answers are in it. */
  ss58Prefix: number
  token: { symbol: string; decimals: number }
  /** Planck: an account holding less is removed by the chain. */
  existentialDeposit: bigint
  specVersion: number
}

/** Planck. `transferable` is what a transfer that keeps the account alive can move, its fee included. */
export type PolkadotBalance = {
  free: bigint
  /** Held by the chain (deposits, bonds): counted in the account's total, not spendable. */
  reserved: bigint
  /** Locked by staking, vesting, governance: stays in `free` but cannot leave it. */
  frozen: bigint
  transferable: bigint
}

export type PolkadotTransferParameters = {
  /** The paying account as the wallet gave it: SS58 of this network or generic Substrate (prefix 42). */
  from: string
  to: string
  /** Planck, more than 0. */
  amount: bigint
  /** Planck added for the block author; 0 when left out. */
  tip?: bigint
}

/**
 * The SignerPayloadJSON of polkadot.js extensions (`signer.signPayload`), every number hex-encoded as they expect. The
 * page hands it to the wallet unchanged, and hands it back with the signature.
 */
export type PolkadotSignerPayload = {
  address: string
  assetId?: Hex | number | null
  blockHash: Hex
  blockNumber: Hex
  era: Hex
  genesisHash: Hex
  metadataHash?: Hex | null
  method: Hex
  mode?: number
  nonce: Hex
  specVersion: Hex
  tip: Hex
  transactionVersion: Hex
  signedExtensions: string[]
  version: number
  withSignedTransaction?: boolean
}

export type PolkadotTransfer = {
  /** For `signer.signPayload` (the wallet shows what it signs). */
  payload: PolkadotSignerPayload
  /** The same payload's bytes, for a wallet that only has `signer.signRaw` (`type: 'payload'`). */
  raw: { address: string; data: Hex; type: 'payload' }
  /** Planck, the node's estimate (paymentInfo), the tip not included. */
  fee: bigint
  existentialDeposit: bigint
  /** The recipient in this network's SS58 format. */
  to: string
  /** The last block the transaction can be included in (its mortal era): after it, it is void. */
  validUntilBlock: number
}

/** A submitted transaction, what waitForTransaction tracks it by. */
export type PolkadotSubmission = {
  /** The extrinsic's hash (blake2-256 of its bytes). */
  hash: Hex
  /** The first block that can include it: the one after the block its payload was made at. */
  fromBlock: number
  validUntilBlock: number
}

export type PolkadotInclusion = {
  hash: Hex
  blockHash: Hex
  blockNumber: number
  /** Its index in the block. */
  index: number
  isFinalized: boolean
  /** false when it was included but its call failed (the fee is paid, nothing else happened). */
  isSuccess: boolean
  /** Why the call failed: `pallet.Error` (`balances.InsufficientBalance`) or the dispatch error's kind (`Token.FundsUnavailable`). */
  failure?: string
}

/**
 * `core.polkadot`: the Polkadot networks of the core's config, read and sent through the worker (dedot never
 * loads on the page); amounts in planck (bigint). A transfer: buildTransfer → the extension's
 * signer.signPayload(payload) → submitTransfer({ payload, signature }) → waitForTransaction({ submission }). The
 * Polkadot worker module answers each call under the same name (src/worker/families/polkadot/polkadotWorkerApi.ts).
 */
export type PolkadotCoreApi = {
  /** Genesis, SS58 prefix, token, existential deposit and runtime version, as the node says. */
  getChainInfo(parameters: { caipNetworkId: string }): Promise<PolkadotChainInfo>
  /** `{ free, reserved, frozen, transferable }`, cached 30 s (SPEC §9) unless `force`; free goes into the mirrored store's balances (balanceKey(caipNetworkId, address)). */
  getBalance(parameters: { caipNetworkId: string; address: string; force?: boolean }): Promise<PolkadotBalance>
  /** The fee in planck of `balances.transferKeepAlive`, the node's estimate. */
  estimateTransferFee(parameters: PolkadotTransferParameters & { caipNetworkId: string }): Promise<bigint>
  /** The payload for the extension's signPayload (and `raw` for signRaw), the fee and the era's end; existential-deposit and funds rules checked. */
  buildTransfer(parameters: PolkadotTransferParameters & { caipNetworkId: string }): Promise<PolkadotTransfer>
  /** Adds the extension's signature to the payload and submits the transaction. */
  submitTransfer(parameters: { caipNetworkId: string; payload: PolkadotSignerPayload; signature: string }): Promise<PolkadotSubmission>
  /** Resolves once a block holds the transaction ('inBlock') or that block is final ('finalized', the default), within 10 min unless `maxWaitMs`. */
  waitForTransaction(parameters: {
    caipNetworkId: string
    submission: PolkadotSubmission
    until?: 'inBlock' | 'finalized'
    pollIntervalMs?: number
    maxWaitMs?: number
  }): Promise<PolkadotInclusion>
}

/**
 * The calls of `core.polkadot`, each with how the core treats it: `maxWaitMs`, how long one that waits on the chain
 * waits unless told (the page 5 s more); `changesBalances`, the worker's cached balances of the network are stale once
 * it answers (a submitted transfer counts as soon as a block holds it).
 */
export const polkadotCoreCalls = {
  getChainInfo: {},
  getBalance: {},
  estimateTransferFee: {},
  buildTransfer: {},
  submitTransfer: { changesBalances: true },
  waitForTransaction: { maxWaitMs: 600_000, changesBalances: true },
}
