import type { StoreApi } from 'zustand/vanilla'
import { formatCaipAddress, type CaipNetworkId, type ChainNamespace } from '../../shared/protocol/caip'
import { RECENT_WALLETS_LIMIT } from '../../shared/protocol/constants'
import { unknownNetwork as unknownCaipNetwork } from '../../shared/protocol/unknownNetwork'
import { errorTable } from '../../shared/protocol/errorTable'
import { createWidgetError } from '../../shared/protocol/errors'
import type { Core } from '../core/createCore'
import type { WalletConnectConnector } from '../connectors/createWalletConnectConnector'
import { loadAdapter } from '../families/loadAdapter'
import type { NamespaceAdapter, NamespaceConnector, NamespaceDiscovery } from '../families/types'
import type { Modal } from '../state/createModal'
import type { Notifications } from '../state/createNotifications'
import type { Router } from '../state/createRouter'
import { namespacesToDisconnect } from '../state/namespacesToDisconnect'
import { accountViews, shouldShowUnsupportedChain } from '../state/views'
import type { WidgetStorage } from '../storage/createWidgetStorage'
import type { WidgetConfig, WidgetNetwork } from './config'
import { disconnectedNamespace, patchNamespace, topFields, type ConnectorSummary, type NamespaceState, type RecentWallet, type WidgetState } from './widgetState'
import { coreReaches } from '../families/coreChains'

/** Each family's own currency; an unknown Substrate chain's is unknown (the protocol's placeholder). */
const familyCurrencies: Partial<Record<ChainNamespace, WidgetNetwork['nativeCurrency']>> = {
  eip155: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  solana: { name: 'Solana', symbol: 'SOL', decimals: 9 },
  bip122: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 },
}

/**
 * The network placeholder for a network the host did not request (SPEC §3): the protocol's "Unknown Network" (same id,
 * no RPC), with its family's currency so a balance line still names it.
 */
export function unknownNetwork(caipNetworkId: CaipNetworkId): WidgetNetwork {
  const placeholder = unknownCaipNetwork(caipNetworkId)
  return { ...placeholder, nativeCurrency: familyCurrencies[placeholder.chainNamespace] ?? placeholder.nativeCurrency } as WidgetNetwork
}

export type ConnectionControllerParameters = {
  config: WidgetConfig
  store: StoreApi<WidgetState>
  storage: WidgetStorage
  core: Core | undefined
  router: Router
  modal: Modal
  notifications: Notifications
  target: Window | undefined
  /** Loads the WalletConnect connector's code, when a relay is configured; its entry is listed first (SPEC §9 order). */
  loadWalletConnect?: () => Promise<WalletConnectConnector>
  /** Loads the auth connector's sides (e-mail and social login, when configured; one per family it serves): found for reconnect and disconnect, never listed as a wallet. */
  loadAuthConnector?: () => Promise<readonly NamespaceConnector[]>
  /** Told when an account is connected (after connect or reconnect): sign-in decides whether to ask. */
  onConnected: () => Promise<boolean>
  onConnectSuccess: (event: { method: 'browser' | 'qrcode' | 'mobile'; name: string }) => void
}

/**
 * Connections per chain family (SPEC §3, §4): each configured family keeps its own account and network state; one is
 * active. Its code loads when the host configures one of its networks. Rules:
 * - connect stores the connector per family, the connected families and the active one;
 * - reconnect runs one attempt at a time per family, the stored connector first, then the recent wallets;
 * - disconnect ends one family (with the others of a shared WalletConnect or auth session) or all;
 * - a switch to another family's network sets the switching flag while it happens, stores the network, and the
 *   feature controllers reset with it; a stored network the host no longer requests shows as "Unknown Network".
 */
export function createConnectionController({ config, store, storage, core, router, modal, notifications, target, loadWalletConnect, loadAuthConnector, onConnected, onConnectSuccess }: ConnectionControllerParameters) {
  const networks = config.networks
  const families: ChainNamespace[] = [...new Set(networks.map((n) => n.chainNamespace))]
  const adapters = new Map<ChainNamespace, NamespaceAdapter>()
  const discoveries = new Map<ChainNamespace, NamespaceDiscovery>()
  const stopWatching = new Map<ChainNamespace, () => void>()
  const pendingReconnect = new Map<ChainNamespace, string[]>()
  const reconnecting = new Map<ChainNamespace, Promise<void>>()
  const unsubscribes: (() => void)[] = []
  let balanceRequest = 0
  let isDestroyed = false
  // One WalletConnect session spans families: each family drives its own side of it.
  const walletConnect = new Map<ChainNamespace, NamespaceConnector>()
  let authConnectors: readonly NamespaceConnector[] = []
  const ownConnectors = () => [...walletConnect.values(), ...authConnectors]

  const networkById = (id: string) => networks.find((n) => n.caipNetworkId === id)
  const stateOf = (ns: ChainNamespace): NamespaceState | undefined => store.getState().namespaces[ns]
  const patch = (ns: ChainNamespace, values: Partial<NamespaceState>) => store.setState((s) => patchNamespace(s, ns, values))

  const allConnectors = (): NamespaceConnector[] => [...ownConnectors(), ...[...discoveries.values()].flatMap((d) => d.getConnectors())]
  const connectorFor = (id: string, ns?: ChainNamespace) => allConnectors().find((c) => c.id === id && (ns === undefined || c.namespace === ns))

  const syncConnectors = () => {
    const recent = store.getState().recentWallets.map((w) => w.id)
    const rank = (id: string) => (recent.includes(id) ? recent.indexOf(id) : recent.length)
    const summarize = (c: NamespaceConnector): ConnectorSummary => ({ id: c.id, name: c.name, imageUrl: c.imageUrl, type: c.type, rdns: c.info.rdns, namespace: c.namespace })
    // SPEC §9 connector order: walletConnect, recent, injected. WalletConnect is one entry whatever families it spans.
    const found = [...discoveries.values()].flatMap((d) => d.getConnectors()).map(summarize).sort((a, b) => rank(a.id) - rank(b.id))
    const ownEntry = [...walletConnect.values()][0]
    store.setState({ connectors: [...(ownEntry ? [summarize(ownEntry)] : []), ...found] })
  }

  // Each family's code, then its wallets. Loaded at once only to reconnect a stored connection; otherwise with the
  // first-click prefetch (idle, hover) or the first call that needs it: EIP-6963 and Wallet Standard wallets announce
  // themselves again to a late listener. A load that failed (offline for a moment) is tried again by the next call, for
  // what has not loaded yet.
  let loading: Promise<void> | undefined
  const load = () =>
    (loading ??= Promise.all([
      authConnectors.length > 0
        ? undefined
        : loadAuthConnector?.().then((connectors) => {
            if (!isDestroyed) authConnectors = connectors
          }),
      ...families.map(async (ns) => {
        if (adapters.has(ns)) return
        const adapter = await loadAdapter(ns)
        if (isDestroyed || adapters.has(ns)) return
        adapters.set(ns, adapter)
        if (loadWalletConnect && adapter.walletConnect) walletConnect.set(ns, adapter.walletConnect(loadWalletConnect))
        const discovery = adapter.discover(target, networks.filter((n) => n.chainNamespace === ns), { appName: config.metadata?.name })
        discoveries.set(ns, discovery)
        unsubscribes.push(
          discovery.subscribe(() => {
            syncConnectors()
            onConnectorsChanged(ns)
          }),
        )
      }),
    ]).then(
      () => syncConnectors(),
      (error: unknown) => {
        loading = undefined
        throw error
      },
    ))
  const hasStoredConnection = () => families.some((ns) => storage.get('connectedConnectorIds')?.[ns] !== undefined)

  const activeNetwork = (ns: ChainNamespace = store.getState().activeNamespace): WidgetNetwork => {
    const id = stateOf(ns)?.activeCaipNetworkId ?? store.getState().activeCaipNetworkId
    return networkById(id) ?? unknownNetwork(id)
  }

  /** Reads the active family's native balance through the core, into its mirrored store (nothing without an endpoint). */
  const refreshBalance = async () => {
    const { activeNamespace: ns, address } = store.getState()
    const seq = ++balanceRequest
    const network = activeNetwork(ns)
    if (!address || !core || !adapters.has(ns) || !coreReaches(network)) return
    try {
      await core.getBalance({ caipNetworkId: network.caipNetworkId, address })
    } catch {
      if (seq === balanceRequest) notifications.show({ code: 'TOKEN_BALANCE_UNAVAILABLE', message: errorTable.TOKEN_BALANCE_UNAVAILABLE.message }, { variant: 'error' })
    }
  }

  const refreshIdentity = async (ns: ChainNamespace) => {
    const address = stateOf(ns)?.address
    // Names and identity are eip155's (SPEC §9).
    if (ns !== 'eip155' || !core || !address || !config.services?.api) return
    try {
      const identity = await core.dataService.getIdentity({ address })
      if (stateOf(ns)?.address === address) patch(ns, { profileName: identity.name ?? undefined, profileImage: identity.avatar ?? undefined })
    } catch {
      // identity is optional decoration; the address stays
    }
  }

  const checkUnsupportedChain = () => {
    const state = store.getState()
    if (state.status !== 'connected') return
    const isUnsupported = shouldShowUnsupportedChain({
      activeCaipNetworkId: state.activeCaipNetworkId,
      requestedCaipNetworkIds: state.requestedCaipNetworkIds,
      enableNetworkSwitch: config.enableNetworkSwitch,
      allowUnsupportedChain: config.allowUnsupportedChain,
      isBasicWalletConnect: false,
    })
    if (isUnsupported) {
      router.reset('UnsupportedChain')
      void modal.open({ namespace: state.activeNamespace })
    } else if (router.store.getState().view === 'UnsupportedChain') {
      router.reset('Account')
    }
  }

  const storeConnected = (ns: ChainNamespace, connectorId: string, caipNetworkId: CaipNetworkId) => {
    storage.set('connectedConnectorIds', { ...storage.get('connectedConnectorIds'), [ns]: connectorId })
    storage.set('connectedNamespaces', [...new Set([...(storage.get('connectedNamespaces') ?? []), ns])])
    storage.set('connectionStatus', 'connected')
    if (ns === store.getState().activeNamespace) {
      storage.set('activeNamespace', ns)
      if (networkById(caipNetworkId)) storage.set('activeCaipNetworkId', caipNetworkId)
    }
  }

  const setConnected = (connector: NamespaceConnector, accounts: string[], caipNetworkId: CaipNetworkId) => {
    // A wallet that answers after destroy connects nothing: no state, no storage, no listener left on its provider.
    if (isDestroyed) return
    const ns = connector.namespace
    const address = accounts[0]!
    patch(ns, {
      status: 'connected',
      connectorId: connector.id,
      address,
      allAccounts: accounts,
      caipAddress: formatCaipAddress(caipNetworkId, address),
      activeCaipNetworkId: caipNetworkId,
      connectedWalletInfo: { name: connector.name },
      embeddedWalletInfo: connector.embeddedWalletInfo?.(),
    })
    store.setState({ error: undefined })
    storeConnected(ns, connector.id, caipNetworkId)
    stopWatching.get(ns)?.()
    stopWatching.set(
      ns,
      connector.watch({
        onAccountsChanged: (next) => {
          if (next.length === 0) return void clearConnection([ns])
          const id = stateOf(ns)!.activeCaipNetworkId
          patch(ns, { address: next[0], allAccounts: next, caipAddress: formatCaipAddress(id, next[0]!), profileName: undefined, profileImage: undefined, embeddedWalletInfo: connector.embeddedWalletInfo?.() })
          void refreshBalance()
          void refreshIdentity(ns)
        },
        onNetworkChanged: (id) => {
          const address = stateOf(ns)?.address
          patch(ns, { activeCaipNetworkId: id, caipAddress: address ? formatCaipAddress(id, address) : undefined })
          if (networkById(id) && ns === store.getState().activeNamespace) storage.set('activeCaipNetworkId', id)
          checkUnsupportedChain()
          void refreshBalance()
        },
        onDisconnect: () => clearConnection(namespacesToDisconnect(ns, storage.get('connectedConnectorIds') ?? {}, (id) => connectorFor(id)?.type) as ChainNamespace[]),
      }),
    )
    void refreshBalance()
    void refreshIdentity(ns)
    checkUnsupportedChain()
  }

  /** Forgets the connection of these families: their state, stored connector, and (for the active one) the open views. */
  const clearConnection = (ended: ChainNamespace[]) => {
    const connectorIds = { ...storage.get('connectedConnectorIds') }
    for (const ns of ended) delete connectorIds[ns]
    const remaining = (storage.get('connectedNamespaces') ?? []).filter((ns) => !ended.includes(ns))
    if (Object.keys(connectorIds).length > 0) storage.set('connectedConnectorIds', connectorIds)
    else storage.remove('connectedConnectorIds')
    if (remaining.length > 0) storage.set('connectedNamespaces', remaining)
    else storage.remove('connectedNamespaces')
    storage.remove('connectedSocialProvider')
    storage.set('connectionStatus', remaining.length > 0 ? 'connected' : 'disconnected')
    for (const ns of ended) {
      if (!stateOf(ns)) continue
      stopWatching.get(ns)?.()
      stopWatching.delete(ns)
      if (ns === 'eip155') storage.remove('deepLinkChoice')
      patch(ns, { ...disconnectedNamespace(stateOf(ns)!.activeCaipNetworkId) })
    }
    if (!ended.includes(store.getState().activeNamespace)) return
    // The active family ended: another one still connected becomes active, else the open account views go.
    const stillConnected = families.find((ns) => !ended.includes(ns) && stateOf(ns)?.status === 'connected')
    if (stillConnected) activate(stillConnected, { isSwitchDone: true })
    else if (accountViews.has(router.store.getState().view)) router.reset('Connect')
  }

  const rememberWallet = (wallet: RecentWallet) => {
    const recent = [{ id: wallet.id, name: wallet.name }, ...store.getState().recentWallets.filter((w) => w.id !== wallet.id)].slice(0, RECENT_WALLETS_LIMIT)
    storage.set('recentWallets', recent)
    storage.set('walletId', wallet.id)
    storage.set('walletName', wallet.name)
    store.setState({ recentWallets: recent })
    syncConnectors()
  }

  /**
   * Makes `ns` the active family: its state moves to the top; the switch is flagged while it happens (SPEC §4). An
   * open modal showing an account goes to Connect for that family when it is not connected.
   */
  function activate(ns: ChainNamespace, { isSwitchDone = false } = {}) {
    const state = store.getState()
    if (state.activeNamespace === ns || !state.namespaces[ns]) return
    store.setState({ isSwitchingNamespace: !isSwitchDone, activeNamespace: ns, ...topFields(state.namespaces[ns]!) })
    storage.set('activeNamespace', ns)
    if (state.namespaces[ns]!.status !== 'connected' && modal.store.getState().open && accountViews.has(router.store.getState().view)) {
      router.reset('Connect')
      void modal.open({ namespace: ns })
    }
  }

  // Reconnect (SPEC §4): per family, one attempt at a time, the most recently used connector first.
  const reconnectCandidates = (ns: ChainNamespace) => {
    const stored = storage.get('connectedConnectorIds')?.[ns]
    if (!stored) return []
    const recent = (storage.get('recentWallets') ?? []).map((w) => w.id)
    return [stored, ...recent.filter((id) => id !== stored)]
  }
  const reconnectFamily = (ns: ChainNamespace): Promise<void> => {
    const running = reconnecting.get(ns)
    if (running) return running
    // A family the visitor connected meanwhile (say before the start-up reconnect ran) has nothing to reconnect.
    if (stateOf(ns)?.status === 'connected') return Promise.resolve()
    const candidates = reconnectCandidates(ns)
    if (candidates.length === 0) return Promise.resolve()
    patch(ns, { status: 'reconnecting' })
    const attempt = (async () => {
      for (const id of candidates) {
        const connector = connectorFor(id, ns)
        if (!connector) {
          if (id === candidates[0]) pendingReconnect.set(ns, [id])
          continue
        }
        try {
          if (!(await connector.isAuthorized())) continue
          const [accounts, caipNetworkId] = await Promise.all([connector.getAccounts(), connector.getCaipNetworkId(stateOf(ns)!.activeCaipNetworkId)])
          setConnected(connector, accounts, caipNetworkId)
          pendingReconnect.delete(ns)
          if (ns === store.getState().activeNamespace) await onConnected()
          return
        } catch {
          // try the next one
        }
      }
      if (!pendingReconnect.has(ns)) clearConnection([ns])
      else patch(ns, { status: 'disconnected' })
    })().finally(() => reconnecting.delete(ns))
    reconnecting.set(ns, attempt)
    return attempt
  }
  /** Reconnects every family with a stored connection (loading their code); nothing to do, nothing loads. */
  const reconnect = async () => {
    if (!hasStoredConnection()) return
    await load().catch(() => {})
    await Promise.all(families.map(reconnectFamily))
  }
  // A wallet that announces itself late still gets its reconnect.
  const onConnectorsChanged = (ns: ChainNamespace) => {
    const pending = pendingReconnect.get(ns) ?? []
    if (pending.some((id) => connectorFor(id, ns)) && stateOf(ns)?.status !== 'connected') {
      pendingReconnect.delete(ns)
      void reconnectFamily(ns)
    }
  }

  /** The connected connector of a family (the active one by default); AUTH_CONNECTOR_NOT_FOUND otherwise. */
  const connectedConnector = (ns: ChainNamespace = store.getState().activeNamespace) => {
    const state = stateOf(ns)
    const connector = state?.connectorId ? connectorFor(state.connectorId, ns) : undefined
    if (!connector || state?.status !== 'connected') throw createWidgetError('AUTH_CONNECTOR_NOT_FOUND')
    return connector
  }

  return {
    /** Loads every configured family's code and lists its wallets; resolves when they are listed. */
    load,
    /** A configured family's adapter, its code loaded on first call; CHAIN_ADAPTER_NOT_FOUND for a family the host did not configure. */
    async adapter(ns: ChainNamespace): Promise<NamespaceAdapter> {
      await load()
      const adapter = adapters.get(ns)
      if (!adapter) throw createWidgetError('CHAIN_ADAPTER_NOT_FOUND', { details: `no ${ns} network is configured` })
      return adapter
    },
    /** A family's side of the WalletConnect session, once the family has loaded. */
    getWalletConnect: (ns: ChainNamespace) => walletConnect.get(ns),
    activeNetwork,
    connectorFor,
    connectedConnector,
    syncConnectors,
    rememberWallet,
    refreshBalance,
    reconnect,
    setConnected,
    checkUnsupportedChain,
    /** Makes another connected family the active one (Account's family switch). */
    setActiveNamespace(ns: ChainNamespace) {
      if (!families.includes(ns)) throw createWidgetError('CHAIN_ADAPTER_NOT_FOUND', { details: ns })
      activate(ns)
      const id = stateOf(ns)!.activeCaipNetworkId
      if (networkById(id)) storage.set('activeCaipNetworkId', id)
      store.setState({ isSwitchingNamespace: false })
      void refreshBalance()
    },
    /** The families the site configured, in the order of its networks. */
    families,
    /** A configured network by CAIP-2 id. */
    networkById,
    /** A family's connection state (status, connector, address, network). */
    stateOf,
    /** Updates a family's connection state. */
    patch,
    /** Makes a family the active one: the state's top-level fields repeat it. */
    activate,
    /** Forgets the connections of the families that ended: their state, storage and sessions. */
    clearConnection,
    /** Tells the site a connection the visitor made succeeded (CONNECT_SUCCESS, with how). */
    onConnectSuccess,
    /** Whether destroy() was called: what finishes afterwards must start nothing. */
    isDestroyed: () => isDestroyed,
    /** Stops watching wallets and connections; a family still loading never starts. */
    destroy() {
      isDestroyed = true
      for (const stop of stopWatching.values()) stop()
      stopWatching.clear()
      for (const unsubscribe of unsubscribes.splice(0)) unsubscribe()
      for (const discovery of discoveries.values()) discovery.stop()
      discoveries.clear()
    },
  }
}

export type ConnectionController = ReturnType<typeof createConnectionController>

