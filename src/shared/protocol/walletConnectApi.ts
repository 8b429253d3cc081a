import type { Address } from 'viem'

/** What the page gives the WalletConnect worker. */
export type WalletConnectWorkerConfig = {
  projectId: string
  /** Our relay (`services.relay`): the only host the client talks to. */
  relayUrl: string
  metadata: { name: string; description: string; url: string; icons: string[] }
  chainIds: number[]
  /** How long to wait for the relay before saying it cannot be reached. */
  relayTimeoutMs?: number
  /** Keeps this widget's client (and its stored sessions) apart from other WalletConnect clients on the page. */
  storagePrefix?: string
}

/** A session proposal waiting for the wallet: its URI for the QR code and deep links, and the wallet's answer. */
export type Pairing = { uri: string; approval: Promise<{ accounts: Address[]; chainId: number }> }

/** What the worker tells the page about the session. */
export type SessionEvent = { type: 'accountsChanged'; accounts: Address[] } | { type: 'chainChanged'; chainId: number } | { type: 'disconnect' }

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
  pair(preferredChainId?: number): Promise<string>
  approval(uri: string): Awaitable<Pairing['approval']>
}
