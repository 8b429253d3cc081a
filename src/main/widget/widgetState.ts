import type { Address } from 'viem'
import { parseCaipNetworkId, type CaipAddress, type CaipNetworkId, type ChainNamespace } from '../../shared/protocol/caip'
import type { WidgetStorage } from '../storage/createWidgetStorage'
import type { EmbeddedWalletInfo } from '../families/types'
import type { ConnectorType } from '../connectors/eip1193'
import type { PairingState } from './createWalletConnectPairing'

export type { EmbeddedWalletInfo }

export type ConnectionStatus = 'disconnected' | 'connecting' | 'reconnecting' | 'connected'

export type ConnectorSummary = { id: string; name: string; imageUrl: string | undefined; type: ConnectorType; rdns: string; namespace: ChainNamespace }

export type RecentWallet = { id: string; name: string }

/** Account and network state of one chain family (SPEC §3). */
export type NamespaceState = {
  status: ConnectionStatus
  connectorId: string | undefined
  /** The family's own text: 0x hex for eip155, base58 for solana. */
  address: string | undefined
  caipAddress: CaipAddress | undefined
  allAccounts: string[]
  /** The network the family acts on: the wallet's when connected, else the chosen one. */
  activeCaipNetworkId: CaipNetworkId
  /** The wallet behind the connection (SPEC §3 connectedWalletInfo): the extension, or the phone wallet of a session. */
  connectedWalletInfo: { name: string } | undefined
  /** The account's registered name and avatar, from the identity service (eip155). */
  profileName: string | undefined
  profileImage: string | undefined
  /** The embedded wallet's accounts and which one acts (SPEC §3 embeddedWalletInfo); undefined for other wallets. */
  embeddedWalletInfo?: EmbeddedWalletInfo | undefined
}

/** The fields of the active family's NamespaceState repeated at the top of WidgetState, for hosts that know one family. */
export const activeNamespaceFields = ['status', 'connectorId', 'address', 'caipAddress', 'allAccounts', 'activeCaipNetworkId', 'connectedWalletInfo', 'profileName', 'profileImage'] as const

/**
 * The widget's state: one NamespaceState per configured family, the active family (whose fields also sit at the top,
 * so an EVM-only host reads `getState().address` as before), the connectors of every family, and the WalletConnect
 * pairing's.
 */
export type WidgetState = PairingState & {
  /**
   * Whether the widget's code past its first frame has loaded and found the config valid (see createWidget): until
   * then the families' state is empty, and the buttons show "Connect Wallet".
   */
  isStarted: boolean
  activeNamespace: ChainNamespace
  namespaces: Partial<Record<ChainNamespace, NamespaceState>>
  /** True while the active family changes (SPEC §4): views that belong to one family wait. */
  isSwitchingNamespace: boolean
  status: ConnectionStatus
  connectorId: string | undefined
  /** The active family's address (for eip155, typed as a 0x address for hosts that know only EVM). */
  address: Address | undefined
  caipAddress: CaipAddress | undefined
  allAccounts: Address[]
  activeCaipNetworkId: CaipNetworkId
  connectedWalletInfo: { name: string } | undefined
  profileName: string | undefined
  profileImage: string | undefined
  requestedCaipNetworkIds: CaipNetworkId[]
  connectors: ConnectorSummary[]
  recentWallets: RecentWallet[]
  themeMode: 'light' | 'dark'
  /** Why signing in failed, shown on the sign-in view. */
  siwxError: string | undefined
  error: { code: string; message: string } | undefined
}

export const disconnectedNamespace = (activeCaipNetworkId: CaipNetworkId): NamespaceState => ({
  status: 'disconnected',
  connectorId: undefined,
  address: undefined,
  caipAddress: undefined,
  allAccounts: [],
  activeCaipNetworkId,
  connectedWalletInfo: undefined,
  profileName: undefined,
  profileImage: undefined,
  embeddedWalletInfo: undefined,
})

/** The state after `patch` to family `namespace`: its NamespaceState, and the top fields when it is the active one. */
export function patchNamespace(state: WidgetState, namespace: ChainNamespace, patch: Partial<NamespaceState>): Partial<WidgetState> {
  const current = state.namespaces[namespace]
  if (!current) return {}
  const next = { ...current, ...patch }
  return { namespaces: { ...state.namespaces, [namespace]: next }, ...(namespace === state.activeNamespace ? topFields(next) : {}) }
}

/** The top-level fields for the active family. */
export const topFields = (ns: NamespaceState): Partial<WidgetState> =>
  Object.fromEntries(activeNamespaceFields.map((field) => [field, ns[field]])) as Partial<WidgetState>

/** What the families' starting state depends on: the networks' families and ids, and the default network. */
export type NamespacesConfig = { networks: readonly { chainNamespace: ChainNamespace; caipNetworkId: string }[]; defaultNetwork?: string | undefined }

/**
 * Each configured family's starting state: the stored network when it is the stored family's, else its default network
 * (without storage, the defaults).
 */
export function initialNamespaces(config: NamespacesConfig, storage?: Pick<WidgetStorage, 'get'>): { namespaces: Partial<Record<ChainNamespace, NamespaceState>>; activeNamespace: ChainNamespace } {
  const networks = config.networks
  const storedNetwork = storage?.get('activeCaipNetworkId')
  const storedNamespace = storage?.get('activeNamespace')
  const families: ChainNamespace[] = [...new Set(networks.map((n) => n.chainNamespace))]
  const namespaces: Partial<Record<ChainNamespace, NamespaceState>> = {}
  for (const ns of families) {
    const own = networks.filter((n) => n.chainNamespace === ns)
    const defaultId = (config.defaultNetwork && own.some((n) => n.caipNetworkId === config.defaultNetwork) ? config.defaultNetwork : own[0]!.caipNetworkId) as CaipNetworkId
    // SPEC §4: the stored network of a family the host still configures stays, requested or not: one it no longer
    // requests shows as "Unknown Network" (and UnsupportedChain once connected).
    const stored = storedNetwork && storedNamespace === ns && parseCaipNetworkId(storedNetwork)?.namespace === ns ? (storedNetwork as CaipNetworkId) : undefined
    namespaces[ns] = disconnectedNamespace(stored ?? defaultId)
  }
  const defaultNamespace = (config.defaultNetwork ? parseCaipNetworkId(config.defaultNetwork)?.namespace : undefined) ?? families[0]!
  const activeNamespace = storedNamespace && families.includes(storedNamespace) ? storedNamespace : defaultNamespace
  return { namespaces, activeNamespace }
}
