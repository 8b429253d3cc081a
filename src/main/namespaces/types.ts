import type { CaipNetworkId, ChainNamespace } from '../../shared/protocol/caip'
import type { Core } from '../core/createCore'
import type { WalletConnectConnector } from '../providers/createWalletConnectConnector'
import type { ConnectorType, WalletRequest } from '../providers/eip1193'
import type { WidgetNetwork } from '../widget/config'

export type NamespaceConnectorEvents = {
  onAccountsChanged?: (accounts: string[]) => void
  onNetworkChanged?: (caipNetworkId: CaipNetworkId) => void
  onDisconnect?: () => void
}

/**
 * A wallet as the connection layer drives it, whatever its chain family: an EIP-1193 provider, a WalletConnect
 * session, a Wallet Standard wallet. Addresses are the family's own text (0x hex, base58, …).
 */
export type NamespaceConnector = {
  id: string
  name: string
  type: ConnectorType
  namespace: ChainNamespace
  imageUrl: string | undefined
  info: { rdns: string }
  /** Asks the wallet for its accounts (the wallet shows its prompt) on `network` where the family has a choice. */
  connect(network: WidgetNetwork): Promise<{ accounts: string[]; caipNetworkId: CaipNetworkId }>
  /** Whether the wallet still lets this site see accounts, without asking the visitor (for reconnect). */
  isAuthorized(): Promise<boolean>
  getAccounts(): Promise<string[]>
  /** The wallet's network, or `fallback` for a family whose wallets do not say (Solana: the widget chooses). */
  getCaipNetworkId(fallback: CaipNetworkId): Promise<CaipNetworkId>
  disconnect(): Promise<void>
  /** Moves the wallet to `network` (EVM: asks it, adding the chain if needed); families without a wallet-side network just agree. */
  switchNetwork(network: WidgetNetwork): Promise<void>
  /** Signs a text message with `address`: hex for eip155 (personal_sign), base58 for solana. */
  signMessage(message: string, address: string): Promise<string>
  watch(events: NamespaceConnectorEvents): () => void
  /** The wallet's EIP-1193 requests, for the eip155 features (send, names); undefined for other families. */
  request?: WalletRequest
  /** Signs a wire transaction without sending it (Solana's solana:signTransaction); undefined where sends go by `request`. */
  signTransaction?: (transaction: Uint8Array, address: string, caipNetworkId: CaipNetworkId) => Promise<Uint8Array>
}

export type NamespaceDiscovery = {
  getConnectors(): NamespaceConnector[]
  subscribe(listener: () => void): () => void
  stop(): void
}

/** A native balance as the UI shows it. */
export type NativeBalance = { value: bigint; symbol: string; decimals: number }

/**
 * What one chain family brings (SPEC §1): its wallets on the page and its native balance through the core. Each lives
 * in `src/main/namespaces/<namespace>/` and is fetched only when the host configures a network of it. Address rules
 * are the protocol's (`isAddress(namespace, address)` in src/shared/protocol/addresses), shared with the worker and
 * loaded with the views that check addresses, not at start-up.
 */
export type NamespaceAdapter = {
  namespace: ChainNamespace
  /** Finds the family's wallets on the page (for the family's configured `networks`); late arrivals reach subscribers. */
  discover(target: Window | undefined, networks: readonly WidgetNetwork[]): NamespaceDiscovery
  /** Reads the native balance through the core (and so into its mirrored store); undefined when the network has no RPC. */
  readNativeBalance(core: Core, network: WidgetNetwork, address: string): Promise<NativeBalance | undefined>
  /** The family's side of the WalletConnect session, whose code `load`s on first use (eip155 and solana). */
  walletConnect?: (load: () => Promise<WalletConnectConnector>) => NamespaceConnector
}
