import { createStore } from 'zustand/vanilla'
import { RECENT_WALLETS_LIMIT } from '../../shared/protocol/constants'
import { errorTable } from '../../shared/protocol/errorTable'
import { createWidgetError, type WidgetError } from '../../shared/protocol/errors'
import { subscribeWithSelector } from 'zustand/middleware'
import type { Address } from 'viem'
import { utf8ToHex } from '../../shared/protocol/eip1193'
import { createCore, type Core } from '../core/createCore'
import { createInjectedConnector, type InjectedConnector } from '../providers/createInjectedConnector'
import { createLazyConnector } from '../providers/createLazyConnector'
import { WALLET_CONNECT_ID, type Connector, type ConnectorType } from '../providers/eip1193'
import type { PairingState } from './createWalletConnectPairing'
import type { WidgetWalletConnect } from './walletConnect'
import { discoverInjected, type InjectedDiscovery } from '../providers/discoverInjected'
import { createModal } from '../state/createModal'
import { formatSdkVersion } from '../../shared/protocol/sdkVersion'
import { createAnalytics } from './createAnalytics'
import { isSiwxConfig, type DefaultSiwxOptions, type SIWXConfig } from './siwxConfig'
import { createNotifications } from '../state/createNotifications'
import { namespacesToDisconnect } from '../state/namespacesToDisconnect'
import { createRouter, type RouteData } from '../state/createRouter'
import { accountViews, embeddedCloseView, resolveOpenView, shouldShowUnsupportedChain, type View } from '../state/views'
import { createWidgetStorage, type WidgetStorage } from '../storage/createWidgetStorage'
import { parseWidgetConfig, type WidgetConfig, type WidgetConfigInput, type WidgetNetwork } from './config'

/** This package's version, in the SDK version string (type-adapters-version, SPEC §1). */
export const SDK_VERSION = '0.1.0'

export type ConnectionStatus = 'disconnected' | 'connecting' | 'reconnecting' | 'connected'

export type ConnectorSummary = { id: string; name: string; imageUrl: string | undefined; type: ConnectorType; rdns: string }

export type RecentWallet = { id: string; name: string }

/** The widget's state for one namespace (eip155 for now), with the WalletConnect pairing's. */
export type WidgetState = PairingState & {
  status: ConnectionStatus
  connectorId: string | undefined
  address: Address | undefined
  caipAddress: `eip155:${number}:${Address}` | undefined
  allAccounts: Address[]
  /** The network the widget acts on: the wallet's when connected, else the chosen one. */
  activeCaipNetworkId: string
  requestedCaipNetworkIds: string[]
  connectors: ConnectorSummary[]
  recentWallets: RecentWallet[]
  themeMode: 'light' | 'dark'
  balance: { value: bigint; symbol: string; decimals: number } | undefined
  /** The account's registered name, from the identity service. */
  profileName: string | undefined
  /** The wallet behind the connection (SPEC §3 connectedWalletInfo): the extension, or the phone wallet of a session. */
  connectedWalletInfo: { name: string } | undefined
  /** The account's avatar from the identity service (an image URL), if it has one. */
  profileImage: string | undefined
  /** Why signing in failed, shown on the sign-in view. */
  siwxError: string | undefined
  error: { code: string; message: string } | undefined
}


/** The network placeholder for a chain the host did not request (SPEC §3). */
export const unknownNetwork = (chainId: number): WidgetNetwork => ({
  chainNamespace: 'eip155',
  caipNetworkId: `eip155:${chainId}`,
  id: chainId,
  name: 'Unknown Network',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [] }, chainDefault: { http: [] } },
})

export type CreateWidgetParameters = Omit<WidgetConfigInput, 'siwx'> & {
  /** Sign in with the wallet: your own SIWXConfig, or options for the default one (sessions in the data service). */
  siwx?: SIWXConfig | DefaultSiwxOptions | boolean
  /** Where injected wallets announce themselves; defaults to the page's window. */
  window?: Window
  storage?: WidgetStorage
  /** The core's worker; hosts with their own bundling (and tests) can pass one. */
  createWorker?: () => Worker
  /** Whether the page runs on a phone or tablet (no QR code to scan there: wallets open by deep link). Guessed from the user agent by default. */
  isMobile?: boolean
}

/**
 * Creates a widget: validated config, its own stores, core worker, storage and connectors. Two widgets on one
 * page share nothing.
 * @example
 * const widget = createWidget({ projectId: 'demo', networks: [tesseraLocal] })
 * widget.open()
 */
export function createWidget({ window: target = globalThis.window, storage = createWidgetStorage(), createWorker, isMobile = typeof navigator !== 'undefined' && /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent), ...input }: CreateWidgetParameters) {
  const config: WidgetConfig = parseWidgetConfig(input)
  const networks = config.networks
  const storedNetwork = storage.get('activeCaipNetworkId')
  const initialNetwork =
    (storedNetwork && networks.some((n) => n.caipNetworkId === storedNetwork) ? storedNetwork : undefined) ??
    config.defaultNetwork ??
    networks[0]!.caipNetworkId

  const store = createStore<WidgetState>()(
    subscribeWithSelector((): WidgetState => ({
      status: 'disconnected',
      connectorId: undefined,
      address: undefined,
      caipAddress: undefined,
      allAccounts: [],
      activeCaipNetworkId: initialNetwork,
      requestedCaipNetworkIds: networks.map((n) => n.caipNetworkId),
      connectors: [],
      recentWallets: storage.get('recentWallets') ?? [],
      themeMode: config.themeMode,
      balance: undefined,
      profileName: undefined,
      profileImage: undefined,
      connectedWalletInfo: undefined,
      siwxError: undefined,
      error: undefined,
      wcUri: undefined,
      wcPairingExpiry: undefined,
      wcLinking: undefined,
      wcWallet: undefined,
      wcError: undefined,
    })),
  )
  const router = createRouter()
  const modal = createModal()
  const notifications = createNotifications()

  const core: Core | undefined =
    typeof Worker === 'undefined'
      ? undefined
      : createCore({
          createWorker,
          chains: networks
            .filter((n) => n.rpcUrls.default.http.length > 0)
            .map((n) => ({ chainId: n.id, name: n.name, rpcUrls: n.rpcUrls.default.http, multicall3: n.contracts?.multicall3?.address as Address | undefined })),
          dataService: config.services?.api
            ? {
                baseUrl: config.services.api,
                walletRegistryUrl: config.services.walletRegistry,
                projectId: config.projectId,
                sdkVersion: formatSdkVersion({ type: 'react', adapters: ['eip155'], version: SDK_VERSION }),
                supportedCaipNetworkIds: networks.map((n) => n.caipNetworkId),
              }
            : undefined,
        })
  // The default SIWX (and viem's SIWE code) loads only when a site turns sign-in on.
  const siwxReady: Promise<SIWXConfig | undefined> = isSiwxConfig(config.siwx)
    ? Promise.resolve(config.siwx)
    : config.siwx && core
      ? import('./siwx').then(({ createDefaultSiwx }) =>
          createDefaultSiwx({ dataService: core.dataService, storage, ...(typeof config.siwx === 'object' ? (config.siwx as DefaultSiwxOptions) : {}) }),
        )
      : Promise.resolve(undefined)
  const analytics = createAnalytics({
    isEnabled: config.features.analytics,
    dataService: core?.dataService,
    notifications,
    getAddress: () => store.getState().address,
  })

  const connectors = new Map<string, InjectedConnector>()
  const relayUrl = config.services?.relay
  // WalletConnect's code (and its worker) loads when a WalletConnect view opens or a stored session reconnects.
  let walletConnectLoad: Promise<WidgetWalletConnect> | undefined
  const loadWalletConnect = (relay: string) =>
    (walletConnectLoad ??= import('./walletConnect').then(({ createWidgetWalletConnect }) =>
      createWidgetWalletConnect({
        connector: {
          projectId: config.projectId,
          relayUrl: relay,
          metadata: {
            name: config.metadata?.name ?? (typeof document === 'undefined' ? 'dApp' : document.title),
            description: config.metadata?.description ?? '',
            url: config.metadata?.url ?? (typeof location === 'undefined' ? 'http://localhost' : location.origin),
            icons: config.metadata?.icons ?? [],
          },
          chainIds: networks.map((n) => n.id),
          getPreferredChainId: () => Number(store.getState().activeCaipNetworkId.split(':')[1]),
        },
        store,
        onApproved: (result) => void onWalletConnectApproved(result),
      }),
    ))
  const walletConnect = relayUrl
    ? createLazyConnector({ id: WALLET_CONNECT_ID, name: 'WalletConnect', type: 'WALLET_CONNECT', chain: 'eip155', imageUrl: undefined, info: { rdns: '' } }, async () => (await loadWalletConnect(relayUrl)).connector)
    : undefined
  const connectorById = (id: string): Connector | undefined => (id === WALLET_CONNECT_ID ? walletConnect : connectors.get(id))
  const discovery: InjectedDiscovery | undefined = target ? discoverInjected(target) : undefined
  const syncConnectors = () => {
    for (const detail of discovery?.getProviders() ?? []) {
      const existing = connectors.get(detail.info.rdns)
      if (existing?.provider !== detail.provider) connectors.set(detail.info.rdns, createInjectedConnector(detail))
    }
    const recent = store.getState().recentWallets.map((w) => w.id)
    const summarize = (c: Connector): ConnectorSummary => ({ id: c.id, name: c.name, imageUrl: c.imageUrl, type: c.type, rdns: c.info.rdns })
    // SPEC §9 connector order: walletConnect, recent, injected.
    const injected = [...connectors.values()].map(summarize).sort((a, b) => rank(a.id) - rank(b.id))
    const summaries = walletConnect ? [summarize(walletConnect), ...injected] : injected
    function rank(id: string) {
      const i = recent.indexOf(id)
      return i === -1 ? recent.length : i
    }
    store.setState({ connectors: summaries })
  }
  syncConnectors()
  const stopDiscovery = discovery?.subscribe(() => {
    syncConnectors()
    onConnectorsChanged()
  })

  const networkById = (caipNetworkId: string) => networks.find((n) => n.caipNetworkId === caipNetworkId)
  const activeNetwork = (): WidgetNetwork => {
    const id = store.getState().activeCaipNetworkId
    return networkById(id) ?? unknownNetwork(Number(id.split(':')[1]))
  }

  let stopWatching: (() => void) | undefined
  let balanceRequest = 0

  const refreshBalance = async () => {
    const { address } = store.getState()
    const network = activeNetwork()
    const seq = ++balanceRequest
    if (!address || !core || network.rpcUrls.default.http.length === 0) return store.setState({ balance: undefined })
    try {
      const value = await core.getBalance({ chainId: network.id, address })
      if (seq === balanceRequest) store.setState({ balance: { value, symbol: network.nativeCurrency.symbol, decimals: network.nativeCurrency.decimals } })
    } catch {
      if (seq === balanceRequest) {
        store.setState({ balance: undefined })
        notifications.show(errorTable.TOKEN_BALANCE_UNAVAILABLE.message, { variant: 'error' })
      }
    }
  }

  const setConnected = (connector: Connector, accounts: Address[], chainId: number) => {
    const address = accounts[0]!
    store.setState({
      status: 'connected',
      connectorId: connector.id,
      address,
      allAccounts: accounts,
      caipAddress: `eip155:${chainId}:${address}`,
      activeCaipNetworkId: `eip155:${chainId}`,
      connectedWalletInfo: { name: connector.name },
      error: undefined,
    })
    if (connector.type === 'WALLET_CONNECT') {
      void walletConnectLoad
        ?.then((loaded) => loaded.connector.getPeerName())
        .then((name) => name && store.getState().connectorId === connector.id && store.setState({ connectedWalletInfo: { name } }))
        .catch(() => {})
    }
    storage.set('connectedConnectorIds', { eip155: connector.id })
    storage.set('connectedNamespaces', ['eip155'])
    storage.set('activeNamespace', 'eip155')
    storage.set('connectionStatus', 'connected')
    if (networkById(`eip155:${chainId}`)) storage.set('activeCaipNetworkId', `eip155:${chainId}`)
    stopWatching?.()
    stopWatching = connector.watch({
      onAccountsChanged: (next) => {
        if (next.length === 0) return void clearConnection()
        const { caipAddress } = store.getState()
        const id = Number(caipAddress?.split(':')[1])
        store.setState({ address: next[0], allAccounts: next, caipAddress: `eip155:${id}:${next[0]!}`, profileName: undefined, profileImage: undefined })
        void refreshBalance()
        void refreshIdentity()
      },
      onChainChanged: (id) => {
        const { address } = store.getState()
        store.setState({ activeCaipNetworkId: `eip155:${id}`, caipAddress: address ? `eip155:${id}:${address}` : undefined })
        if (networkById(`eip155:${id}`)) storage.set('activeCaipNetworkId', `eip155:${id}`)
        checkUnsupportedChain()
        void refreshBalance()
      },
      onDisconnect: () => clearConnection(namespacesToDisconnect('eip155', storage.get('connectedConnectorIds') ?? {}, (id) => connectorById(id)?.type)),
    })
    void refreshBalance()
    void refreshIdentity()
    checkUnsupportedChain()
  }

  /** Forgets the connection on these namespaces (the store holds eip155; the others live in storage only for now). */
  const clearConnection = (namespaces: string[] = ['eip155']) => {
    const connectorIds = { ...storage.get('connectedConnectorIds') }
    for (const ns of namespaces) delete connectorIds[ns as keyof typeof connectorIds]
    const remaining = (storage.get('connectedNamespaces') ?? []).filter((ns) => !namespaces.includes(ns))
    if (Object.keys(connectorIds).length > 0) storage.set('connectedConnectorIds', connectorIds)
    else storage.remove('connectedConnectorIds')
    if (remaining.length > 0) storage.set('connectedNamespaces', remaining)
    else storage.remove('connectedNamespaces')
    storage.remove('connectedSocialProvider')
    if (!namespaces.includes('eip155')) return
    storage.remove('deepLinkChoice')
    stopWatching?.()
    stopWatching = undefined
    store.setState({ status: 'disconnected', connectorId: undefined, address: undefined, caipAddress: undefined, allAccounts: [], balance: undefined, profileName: undefined, profileImage: undefined, connectedWalletInfo: undefined })
    storage.set('connectionStatus', remaining.length > 0 ? 'connected' : 'disconnected')
    if (accountViews.has(router.store.getState().view)) router.reset('Connect')
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
      void modal.open({ namespace: 'eip155' })
    } else if (router.store.getState().view === 'UnsupportedChain') {
      router.reset('Account')
    }
  }

  const rememberWallet = (wallet: RecentWallet) => {
    const recent = [{ id: wallet.id, name: wallet.name }, ...store.getState().recentWallets.filter((w) => w.id !== wallet.id)].slice(0, RECENT_WALLETS_LIMIT)
    storage.set('recentWallets', recent)
    storage.set('walletId', wallet.id)
    storage.set('walletName', wallet.name)
    store.setState({ recentWallets: recent })
    syncConnectors()
  }

  // Reconnect (SPEC §4): one attempt at a time, the most recently used connector first.
  let reconnecting: Promise<void> | undefined
  let pendingReconnect: string[] = []
  const reconnectCandidates = () => {
    const stored = storage.get('connectedConnectorIds')?.eip155
    if (!stored) return []
    const recent = (storage.get('recentWallets') ?? []).map((w) => w.id)
    return [stored, ...recent.filter((id) => id !== stored)]
  }
  const reconnect = (): Promise<void> => {
    if (reconnecting) return reconnecting
    const candidates = reconnectCandidates()
    if (candidates.length === 0) return Promise.resolve()
    store.setState({ status: 'reconnecting' })
    reconnecting = (async () => {
      for (const id of candidates) {
        const connector = connectorById(id)
        if (!connector) {
          if (id === candidates[0]) pendingReconnect = [id]
          continue
        }
        try {
          if (!(await connector.isAuthorized())) continue
          const [accounts, chainId] = await Promise.all([connector.getAccounts(), connector.getChainId()])
          setConnected(connector, accounts, chainId)
          pendingReconnect = []
          await requireSignIn()
          return
        } catch {
          // try the next one
        }
      }
      if (pendingReconnect.length === 0) clearConnection()
      else store.setState({ status: 'disconnected' })
    })().finally(() => {
      reconnecting = undefined
    })
    return reconnecting
  }
  // A wallet that announces itself late still gets its reconnect.
  const onConnectorsChanged = () => {
    if (pendingReconnect.some((id) => connectors.has(id)) && store.getState().status !== 'connected') {
      pendingReconnect = []
      void reconnect()
    }
  }

  const connectedConnector = () => {
    const connector = connectorById(store.getState().connectorId ?? '')
    if (!connector || store.getState().status !== 'connected') throw createWidgetError('AUTH_CONNECTOR_NOT_FOUND')
    return connector
  }
  const currentAccount = () => {
    const { address, activeCaipNetworkId } = store.getState()
    return { address, chainId: Number(activeCaipNetworkId.split(':')[1]) }
  }
  const refreshIdentity = async () => {
    const { address } = store.getState()
    if (!core || !address || !config.services?.api) return
    try {
      const identity = await core.dataService.getIdentity({ address })
      if (store.getState().address === address) store.setState({ profileName: identity.name ?? undefined, profileImage: identity.avatar ?? undefined })
    } catch {
      // identity is optional decoration; the address stays
    }
  }
  /** After connecting (SPEC §4): with SIWX on and no session for the account, the sign-message view opens. */
  const requireSignIn = async () => {
    const { address, activeCaipNetworkId } = store.getState()
    const siwx = await siwxReady
    if (!siwx || !address) return false
    const sessions = await siwx.getSessions({ accountAddress: address, chainId: Number(activeCaipNetworkId.split(':')[1]) }).catch(() => [])
    if (sessions.length > 0) return false
    store.setState({ siwxError: undefined })
    router.reset('SIWXSignMessage')
    void modal.open({ namespace: 'eip155' })
    return true
  }

  /** Successful connection (SPEC §4): the deep link and the recent wallet are stored, CONNECT_SUCCESS is tracked. */
  const onWalletConnectApproved = async ({ accounts, chainId }: { accounts: Address[]; chainId: number }) => {
    if (!walletConnect || store.getState().status === 'connected') return
    const { wcWallet, wcLinking } = store.getState()
    const wallet = wcWallet ?? { id: WALLET_CONNECT_ID, name: walletConnect.name }
    rememberWallet(wallet)
    if (wcLinking) storage.set('deepLinkChoice', wcLinking)
    setConnected(walletConnect, accounts, chainId)
    void analytics.track('CONNECT_SUCCESS', { method: wcLinking ? 'mobile' : 'qrcode', name: wallet.name })
    ;(await walletConnectLoad)?.pairing.reset()
    if (router.store.getState().view === 'UnsupportedChain') return
    if (!(await requireSignIn())) router.reset('Account')
  }
  /** Closing the modal resets the pairing URI (SPEC §2). */
  const resetPairing = () => void walletConnectLoad?.then((loaded) => loaded.onClose())

  const widget = {
    config,
    isMobile,
    /** Signs the SIWX message and stores the session; success closes the modal, failure keeps the view. */
    async signIn() {
      const { address, activeCaipNetworkId, caipAddress } = store.getState()
      const siwx = await siwxReady
      if (!siwx) throw createWidgetError('SIWX_NOT_ENABLED')
      if (!address || !caipAddress) throw createWidgetError('NO_ACTIVE_CAIP_ADDRESS')
      store.setState({ siwxError: undefined })
      notifications.show(errorTable.AUTHENTICATING.message, { variant: 'loading', autoClose: false })
      try {
        const message = await siwx.createMessage({ accountAddress: address, chainId: Number(activeCaipNetworkId.split(':')[1]) })
        const signature = (await connectedConnector().request({ method: 'personal_sign', params: [utf8ToHex(message), address] })) as string
        await siwx.addSession({ caipAddress, message, signature })
        notifications.close()
        modal.close()
        return true
      } catch (error) {
        notifications.close()
        const isDeclined = (error as { code?: string }).code === 'USER_REJECTED'
        store.setState({ siwxError: (isDeclined ? errorTable.SIGNATURE_DECLINED : errorTable.SIWX_INIT_FAILED).message })
        return false
      }
    },
    /** Declining to sign in: disconnects when sign-in is required, otherwise just closes. */
    async cancelSignIn() {
      if ((await siwxReady)?.getRequired()) await widget.disconnect().catch(() => {})
      modal.close()
    },
    /** What the lazily loaded features (send, history, names) need from this widget. */
    context: {
      core,
      notifications,
      router,
      analytics,
      projectId: config.projectId,
      getAccount: currentAccount,
      walletRequest: (args: { method: string; params?: unknown }) => connectedConnector().request(args),
      onBalancesChanged: () => void refreshBalance(),
      setProfileName: (profileName: string) => store.setState({ profileName }),
    },
    core,
    analytics,
    router,
    modal,
    notifications,
    storage,
    /** The current state: account, network, connection and theme. */
    getState: store.getState,
    /** Calls listener when the selected part of the state changes. */
    subscribe: <T>(selector: (state: WidgetState) => T, listener: (selected: T, previous: T) => void) => store.subscribe(selector, listener),
    store,
    getNetworks: () => networks,
    getActiveNetwork: activeNetwork,
    open({ view, data }: { view?: View; data?: RouteData } = {}) {
      const state = store.getState()
      router.reset(resolveOpenView({ requestedView: view, isConnected: state.status === 'connected', isMobile, hasAdapters: true }), data)
      void modal.open({ namespace: 'eip155' })
      void analytics.track('MODAL_OPEN', { connected: state.status === 'connected' })
    },
    close() {
      if (config.enableEmbedded) return router.reset(embeddedCloseView(store.getState().status === 'connected'))
      modal.close()
      resetPairing()
      void analytics.track('MODAL_CLOSE', { connected: store.getState().status === 'connected' })
    },
    /**
     * WalletConnect, when the config names a relay: the views start a pairing (showing its URI as a QR code and deep
     * links) and pause it when they go; the wallet's approval connects.
     */
    walletConnect: relayUrl
      ? {
          start: async (wallet?: { id: string; name: string }) => (await loadWalletConnect(relayUrl)).pairing.start(wallet),
          pause: () => void walletConnectLoad?.then((loaded) => loaded.pairing.pause()),
          setLinking: (linking: PairingState['wcLinking']) => store.setState({ wcLinking: linking }),
        }
      : undefined,
    /** Connects the wallet behind `connectorId` (an EIP-6963 rdns, or 'injected'). */
    async connect(connectorId: string) {
      const connector = connectors.get(connectorId)
      if (!connector) throw createWidgetError('WALLET_NOT_FOUND', { details: connectorId })
      store.setState({ status: 'connecting', error: undefined })
      try {
        const { accounts, chainId } = await connector.connect()
        rememberWallet(connector)
        setConnected(connector, accounts, chainId)
        void analytics.track('CONNECT_SUCCESS', { method: 'browser', name: connector.name })
        if (router.store.getState().view === 'UnsupportedChain') return
        if (!(await requireSignIn())) router.reset('Account')
      } catch (error) {
        const e = error as Partial<WidgetError>
        store.setState({ status: 'disconnected', error: { code: e.code ?? 'UNKNOWN', message: e.shortMessage ?? errorTable.SOMETHING_WENT_WRONG.message } })
        throw error
      }
    },
    /** Disconnects the namespace's wallet (eip155, the only one until the other chain families land). */
    async disconnect(namespace: string = 'eip155') {
      if (namespace !== 'eip155') throw createWidgetError('CHAIN_ADAPTER_NOT_FOUND', { details: namespace })
      const connector = connectorById(store.getState().connectorId ?? '')
      const ended = namespacesToDisconnect('eip155', storage.get('connectedConnectorIds') ?? {}, (id) => connectorById(id)?.type)
      try {
        await connector?.disconnect()
      } catch (error) {
        notifications.show(errorTable.DISCONNECT_FAILED.message, { variant: 'error' })
        throw error
      } finally {
        clearConnection(ended)
      }
      router.reset('Connect')
    },
    /** Switches the active network; when connected, asks the wallet (adding the chain if it does not know it). */
    async switchNetwork(caipNetworkId: string) {
      const network = networkById(caipNetworkId)
      if (!network) throw createWidgetError('NETWORK_NOT_FOUND', { details: `${caipNetworkId} is not one of the widget's networks` })
      const state = store.getState()
      const connector = connectorById(state.connectorId ?? '')
      if (state.status === 'connected' && connector) {
        await connector.switchChain({
          id: network.id,
          name: network.name,
          nativeCurrency: network.nativeCurrency,
          rpcUrls: network.rpcUrls.default.http,
          blockExplorerUrls: network.blockExplorers ? [network.blockExplorers.default.url] : [],
        })
      }
      store.setState({ activeCaipNetworkId: caipNetworkId, caipAddress: state.address ? `eip155:${network.id}:${state.address}` : undefined })
      storage.set('activeCaipNetworkId', caipNetworkId)
      checkUnsupportedChain()
      await refreshBalance()
    },
    /**
     * For pages without React: renders the connect button and the modal into `element` (the UI loads on demand).
     * @example const unmount = await widget.mount(document.getElementById('wallet')!)
     */
    /** The registry's image of a wallet, or undefined without a wallet registry. */
    walletImageUrl(imageId: string) {
      const base = config.services?.walletRegistry ?? config.services?.api
      if (!base) return undefined
      const url = new URL(`getWalletImage/${encodeURIComponent(imageId)}`, base.endsWith('/') ? base : `${base}/`)
      url.search = new URLSearchParams({ projectId: config.projectId, st: 'tessera', sv: formatSdkVersion({ type: 'react', adapters: ['eip155'], version: SDK_VERSION }) }).toString()
      return url.toString()
    },
    async mount(element: Element) {
      const { mountWidget } = await import('../ui/mountWidget')
      return mountWidget(widget, element)
    },
    setThemeMode(mode: 'light' | 'dark') {
      store.setState({ themeMode: mode })
    },
    reconnect,
    refreshBalance,
    /** Frees everything the widget started: its workers, timers and listeners. */
    destroy() {
      clearTimeout(reconnectTimer)
      void walletConnectLoad?.then((loaded) => {
        loaded.pairing.reset()
        loaded.connector.destroy()
      })
      notifications.close()
      modal.close()
      stopWatching?.()
      stopDiscovery?.()
      discovery?.stop()
      core?.destroy()
    },
  }
  // In a task of its own: creating the widget stays short in the page's start-up task.
  const reconnectTimer = setTimeout(() => void reconnect(), 0)
  return widget
}

export type Widget = ReturnType<typeof createWidget>
