import type { CaipNetworkId, ChainNamespace } from '../../shared/protocol/caip'
import type { Core } from '../core/createCore'
import type { Notifications } from '../state/createNotifications'
import type { Router } from '../state/createRouter'
import type { SendState } from './sendForm'
import type { StoreApi } from 'zustand/vanilla'
import type { ConnectorType, WalletRequest } from '../connectors/eip1193'
import type { WidgetNetwork } from '../widget/config'

/** The embedded (e-mail) wallet's side of an EVM connection: its accounts by type, the one in use, whether the smart one is deployed. */
export type EmbeddedWalletInfo = {
  accountType: 'eoa' | 'smartAccount'
  accounts: { address: string; type: 'eoa' | 'smartAccount' }[]
  isSmartAccountDeployed: boolean
}

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
  /** The embedded wallet's accounts by type, as it last answered (its eip155 side only). */
  embeddedWalletInfo?: () => EmbeddedWalletInfo | undefined
  /**
   * Whether the wallet refuses `method` at once, without asking its user (the e-mail wallet's frame rules, the methods
   * a WalletConnect session approved): such a request is not reviewed before the refusal.
   */
  refusesMethod?: (method: string) => Promise<boolean>
}

export type NamespaceDiscovery = {
  getConnectors(): NamespaceConnector[]
  subscribe(listener: () => void): () => void
  stop(): void
}

/** A native balance as the UI shows it. */
/** What a family's send form needs of the widget. */
export type SendContext = {
  core: Core | undefined
  notifications: Notifications
  router: Router
  /** The family's account and network. */
  getAccount: () => { address: string | undefined; caipNetworkId: string }
  /** The configured network behind a CAIP-2 id (its tokens, its currency). */
  getNetwork: (caipNetworkId: string) => WidgetNetwork | undefined
  /** The family's connected wallet; AUTH_CONNECTOR_NOT_FOUND without one. */
  getConnector: () => NamespaceConnector
  /** Called once the transfer is confirmed. */
  onConfirmed?: (transaction: string) => void
  now?: () => number
}

/** A family's send form (SPEC §4, §5): one shape, so the Send view serves every family. */
export type SendController = {
  store: StoreApi<SendState>
  loadTokenBalances(options?: { force?: boolean }): Promise<void>
  setToken(token: SendState['token']): void
  setAmount(amount: string): void
  setReceiver(receiver: string): void
  /** Whether the receiver field holds something the family could send to (an address, or a name where names resolve). */
  isReceiverLike(value: string): boolean
  /** Prices the transfer the form holds (gas in USD on eip155, the fee in SOL on solana). */
  estimate(): Promise<void>
  reset(options?: { keepBalances?: boolean }): void
  /** Sends what the form holds; resolves to the transaction's hash or signature. */
  send(): Promise<string>
}

/** What a sign-in message binds (CAIP-122): the widget fills them, the family writes them in its own format. */
export type SignInMessageFields = {
  address: string
  caipNetworkId: string
  domain: string
  uri: string
  nonce: string
  statement: string
  issuedAt: Date
  expirationTime: Date
}

/**
 * What one chain family brings (SPEC §1): its wallets on the page, its native balance through the core, its send
 * form and its sign-in message (those two fetched on first use). Each lives in `src/main/families/<namespace>/` and is fetched only when the host configures a network of it. Address rules
 * are the protocol's (`isAddress(namespace, address)` in src/shared/protocol/addresses), shared with the worker and
 * loaded with the views that check addresses, not at start-up.
 */
export type NamespaceAdapter = {
  namespace: ChainNamespace
  /**
   * Finds the family's wallets on the page (for the family's configured `networks`); late arrivals reach subscribers.
   * `appName` is the site's name, for wallets that show it when asked to connect (Polkadot's enable(appName)).
   */
  discover(target: Window | undefined, networks: readonly WidgetNetwork[], options?: { appName?: string }): NamespaceDiscovery
  /** The family's send form, fetched when the Send view first opens on the family. */
  loadSend(): Promise<(context: SendContext) => SendController>
  /** The family's sign-in message (SIWE on eip155, SIWS on solana), fetched when sign-in is on. */
  loadSignInMessage(): Promise<(fields: SignInMessageFields) => string>
  /**
   * The family's side of the WalletConnect session, whose code `load`s on first use (eip155, solana, bip122). `load`
   * gives the WalletConnect connector (connectors/createWalletConnectConnector.ts), which implements this contract: the
   * family names its type, so the contract does not import its implementation.
   */
  walletConnect?(load: () => Promise<unknown>): NamespaceConnector
}
