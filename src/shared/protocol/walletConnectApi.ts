import type { CaipNetworkId, ChainNamespace } from './caip'

/** What the page gives the WalletConnect worker. */
export type WalletConnectWorkerConfig = {
  projectId: string
  /** Our relay (`services.relay`): the only host the client talks to. */
  relayUrl: string
  metadata: { name: string; description: string; url: string; icons: string[] }
  /**
   * The site's networks by family, as CAIP-2 ids (`solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`): the proposal offers the
   * namespace of each family WalletConnect carries that has any (eip155, solana, bip122).
   */
  networks: Partial<Record<ChainNamespace, string[]>>
  /** How long to wait for the relay before saying it cannot be reached. */
  relayTimeoutMs?: number
  /** Keeps this widget's client (and its stored sessions) apart from other WalletConnect clients on the page. */
  storagePrefix?: string
}

/** The network each family acts on when the wallet approved it and others (the widget's active ones), as CAIP-2 ids. */
export type PreferredNetworks = Partial<Record<ChainNamespace, string>>

/** A family's side of what the wallet approved: its accounts (on bip122 payment first) on the network to act on. */
export type ApprovedNamespace = { accounts: string[]; caipNetworkId: CaipNetworkId }

/** What the wallet approved, by namespace: each configured family it gave an account of. */
export type PairingApproval = Partial<Record<ChainNamespace, ApprovedNamespace>>

/** A session proposal waiting for the wallet: its URI for the QR code and deep links, and the wallet's answer. */
export type Pairing = { uri: string; approval: Promise<PairingApproval> }

/** What the worker tells the page about the session. `accountsChanged` with no account means that family is gone from it. */
export type SessionEvent =
  | { type: 'accountsChanged'; namespace: ChainNamespace; accounts: string[] }
  | { type: 'networkChanged'; namespace: ChainNamespace; caipNetworkId: CaipNetworkId }
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
  /** Starts a pairing and returns its URI; `approval(uri)` then waits for the wallet. */
  pair(preferred?: PreferredNetworks): Promise<string>
  approval(uri: string): Awaitable<Pairing['approval']>
  /** Whether a stored session still gives an account of the family (loads the client, for a reconnect). */
  isAuthorized(namespace: ChainNamespace, preferredCaipNetworkId?: string): Promise<boolean>
  /** The family's accounts on the network it acts on (eip155: checksummed; bip122: payment first). */
  getAccounts(namespace: ChainNamespace): Promise<string[]>
  /** The methods the wallet approved for the family in the session; none without a session. */
  approvedMethods(namespace: ChainNamespace): Awaitable<string[]>
  /** `fallback` when the wallet approved that network, else the one the family acts on. */
  getCaipNetworkId(namespace: ChainNamespace, fallback?: string): Promise<CaipNetworkId>
  /** Acts on another approved network (no round trip); CHAIN_NOT_SUPPORTED for one the wallet did not approve. */
  switchNetwork(namespace: ChainNamespace, caipNetworkId: string): Promise<void>
  disconnect(): Promise<void>
  /** The wallet's name as its session says (its icon URL is not passed on: showing it would call a host nobody configured). */
  getPeerName(): Awaitable<string | undefined>
  /** An EIP-1193 request on the session's eip155 namespace. */
  request(args: { method: string; params?: unknown }): Promise<unknown>
  /** The 64-byte ed25519 signature of the message. */
  solanaSignMessage(args: SolanaSignMessageParameters): Promise<Uint8Array>
  /** The wire transaction signed by the wallet. */
  solanaSignTransaction(args: SolanaSignTransactionParameters): Promise<Uint8Array>
  /** A BIP-322 signature (base64) of the message by the address. */
  bip122SignMessage(args: Bip122SignMessageParameters): Promise<string>
  /** The PSBT with the address's inputs signed (base64), not broadcast. */
  bip122SignPsbt(args: Bip122SignPsbtParameters): Promise<string>
}
