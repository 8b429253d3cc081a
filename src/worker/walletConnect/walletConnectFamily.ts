import type { CaipNetworkId } from '../../shared/protocol/caip'

/**
 * A CAIP-10 account of a session's namespace: its network and address. One that does not parse keeps its text as the
 * address and has no network, so the family's address check refuses it (WALLET_BAD_RESPONSE) instead of dropping it unseen.
 */
export type SessionAccount = { network: CaipNetworkId | undefined; address: string }

/** What the session lends a family's side of it: the network acted on, its accounts, the wallet. */
export type FamilySide = {
  /** The network to act on: `network` when given (CHAIN_NOT_SUPPORTED unless the wallet approved it), else the session's; DISCONNECTED without one. */
  network(network?: string): CaipNetworkId
  /** The networks of the namespace the wallet approved. */
  approvedNetworks(): CaipNetworkId[]
  /** The accounts on the network acted on (or `network`), as the family reads them, or as the wallet last announced them there. */
  accounts(network?: string): string[]
  /** A request to the wallet on the network acted on (or `network`); the wallet's errors classified. */
  request<T>(method: string, params: unknown, network?: string): Promise<T>
  /** Acts on `network` from now on, and tells the watchers. */
  switchTo(network: CaipNetworkId): void
  /** Tells the watchers these accounts, the session's staying as they are. */
  tell(accounts: string[]): void
  /** The wallet's own accounts on the network acted on: they replace the session's there until the session changes, and are told when new. */
  announce(accounts: string[]): void
}

/**
 * A chain family's side of a WalletConnect session (src/worker/families/<ns>/walletConnect.ts), listed in
 * walletConnectFamilies.ts: what the proposal asks of its namespace, how the session's accounts are read, the wallet's
 * events, and the family's requests with their answers checked.
 */
export type WalletConnectFamily<Requests = unknown> = {
  /** The methods and events the proposal asks for (all optional: the wallet approves what it supports). */
  methods: readonly string[]
  events: readonly string[]
  /** Only the networks the host configured are acted on, never another the wallet approved. */
  keepsToConfiguredNetworks?: boolean
  /** The accounts are told at every session update, the network acted on kept (EIP-1193's accountsChanged); otherwise when they change. */
  tellsEveryUpdate?: boolean
  /** The session's accounts on `network` (out of all the namespace's), checked: WALLET_BAD_RESPONSE for one that is not the family's. */
  readAccounts(accounts: readonly SessionAccount[], network: CaipNetworkId): string[]
  /** A wallet's event on `network` of the namespace; throwing ignores it. */
  onEvent?(event: { name: string; data: unknown }, network: CaipNetworkId, side: FamilySide): void
  /** The family's requests to the wallet. */
  requests(side: FamilySide): Requests
}

/** The addresses on `network`, or on any network of the namespace when none is there. */
export const addressesOnNetworkOrAny = (accounts: readonly SessionAccount[], network: CaipNetworkId): string[] => {
  const onNetwork = accounts.filter((a) => a.network === network)
  return [...new Set((onNetwork.length > 0 ? onNetwork : accounts).map((a) => a.address))]
}
