import type { Address } from 'viem'
import type { CaipNetworkId } from './caip'

/** What the page gives the WalletConnect worker. */
export type WalletConnectWorkerConfig = {
  projectId: string
  /** Our relay (`services.relay`): the only host the client talks to. */
  relayUrl: string
  metadata: { name: string; description: string; url: string; icons: string[] }
  chainIds: number[]
  /** Solana clusters as CAIP-2 ids (`solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`): with any, the proposal also offers the `solana` namespace. */
  solanaCaipNetworkIds?: string[]
  /** Bitcoin networks as CAIP-2 ids (`bip122:000000000019d6689c085ae165831e93`): with any, the proposal also offers the `bip122` namespace. */
  bip122CaipNetworkIds?: string[]
  /** How long to wait for the relay before saying it cannot be reached. */
  relayTimeoutMs?: number
  /** Keeps this widget's client (and its stored sessions) apart from other WalletConnect clients on the page. */
  storagePrefix?: string
}

/**
 * What the wallet approved, per namespace. `accounts` and `chainId` are eip155's, as before the Solana namespace:
 * a wallet that approved Solana or Bitcoin only leaves `accounts` empty (`chainId` is then the chain the widget asked for).
 * `solana` is there when the wallet approved a Solana account: base58 addresses and the cluster to act on.
 */
export type PairingApproval = {
  accounts: Address[]
  chainId: number
  solana?: { accounts: string[]; caipNetworkId: CaipNetworkId }
  /** There when the wallet approved a Bitcoin address on a configured network: its addresses there, payment first. */
  bip122?: { accounts: string[]; caipNetworkId: CaipNetworkId }
}

/** A session proposal waiting for the wallet: its URI for the QR code and deep links, and the wallet's answer. */
export type Pairing = { uri: string; approval: Promise<PairingApproval> }

/** What the worker tells the page about the session. `solanaAccountsChanged` with no account means Solana is gone from it. */
export type SessionEvent =
  | { type: 'accountsChanged'; accounts: Address[] }
  | { type: 'chainChanged'; chainId: number }
  | { type: 'solanaAccountsChanged'; accounts: string[] }
  | { type: 'bip122AccountsChanged'; accounts: string[] }
  | { type: 'disconnect' }

/** `solana_signMessage`: the bytes to sign, the signer, and the cluster (the session's by default). */
export type SolanaSignMessageParameters = { message: Uint8Array; address: string; caipNetworkId?: string }

/**
 * `solana_signTransaction`: a wire transaction (legacy or v0). `address` is the signer whose slot takes a bare
 * signature (the fee payer's, the first slot, when not given).
 */
export type SolanaSignTransactionParameters = { transaction: Uint8Array; caipNetworkId?: string; address?: string }

/** WalletConnect's Bitcoin `signMessage`: the text, the signing address, and the network (the session's by default). */
export type Bip122SignMessageParameters = { message: string; address: string; caipNetworkId?: string }

/** WalletConnect's Bitcoin `signPsbt`: the unsigned PSBT (base64) and which of its inputs `address` signs. */
export type Bip122SignPsbtParameters = { psbtBase64: string; address: string; signingIndexes: number[]; caipNetworkId?: string }

type Awaitable<T> = T | Promise<T>

/** The WalletConnect worker's API as the page calls it over comlink; the worker's implementation is checked against it. */
export type WalletConnectWorkerApi = {
  configure(config: WalletConnectWorkerConfig, onEvent: (event: SessionEvent) => void): Awaitable<void>
  isAuthorized(preferredChainId?: number): Promise<boolean>
  getAccounts(): Promise<Address[]>
  getChainId(): Promise<number>
  request(args: { method: string; params?: unknown }): Promise<unknown>
  disconnect(): Promise<void>
  /** The wallet's name as its session says (its icon URL is not passed on: showing it would call a host nobody configured). */
  getPeerName(): Awaitable<string | undefined>
  /** Starts a pairing and returns its URI; `approval(uri)` then waits for the wallet. */
  pair(preferredChainId?: number, preferredSolanaCaipNetworkId?: string, preferredBip122CaipNetworkId?: string): Promise<string>
  approval(uri: string): Awaitable<Pairing['approval']>
  /** Whether a stored session still gives a Solana account (loads the client, for a reconnect). */
  solanaIsAuthorized(preferredCaipNetworkId?: string): Promise<boolean>
  /** The session's Solana accounts (base58) on its cluster. */
  solanaGetAccounts(): Promise<string[]>
  /** `fallback` when the wallet approved that cluster, else the session's. */
  solanaGetCaipNetworkId(fallback?: string): Promise<CaipNetworkId>
  /** Acts on another approved cluster (no round trip); CHAIN_NOT_SUPPORTED for one the wallet did not approve. */
  solanaSwitchNetwork(caipNetworkId: string): Promise<void>
  /** The 64-byte ed25519 signature of the message. */
  solanaSignMessage(args: SolanaSignMessageParameters): Promise<Uint8Array>
  /** The wire transaction signed by the wallet. */
  solanaSignTransaction(args: SolanaSignTransactionParameters): Promise<Uint8Array>
  /** Whether a stored session still gives a Bitcoin address (loads the client, for a reconnect). */
  bip122IsAuthorized(preferredCaipNetworkId?: string): Promise<boolean>
  /** The session's Bitcoin addresses on its network, payment first. */
  bip122GetAccounts(): Promise<string[]>
  /** `fallback` when the wallet approved that network, else the session's. */
  bip122GetCaipNetworkId(fallback?: string): Promise<CaipNetworkId>
  /** Acts on another approved network (no round trip); CHAIN_NOT_SUPPORTED for one the wallet did not approve. */
  bip122SwitchNetwork(caipNetworkId: string): Promise<void>
  /** A BIP-322 signature (base64) of the message by the address. */
  bip122SignMessage(args: Bip122SignMessageParameters): Promise<string>
  /** The PSBT with the address's inputs signed (base64), not broadcast. */
  bip122SignPsbt(args: Bip122SignPsbtParameters): Promise<string>
}
