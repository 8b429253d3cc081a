import { createStore } from 'zustand/vanilla'
import { subscribeWithSelector } from 'zustand/middleware'
import type { Address } from 'viem'
import { parseCaipNetworkId, type CaipNetworkId, type ChainNamespace } from '../../shared/protocol/caip'
import { createWidgetError } from '../../shared/protocol/errors'
import { formatSdkVersion } from '../../shared/protocol/sdkVersion'
import { START_UP_IDLE_TIMEOUT_MS, whenPageIdle } from '../core/whenPageIdle'
import { createCore, type Core } from '../core/createCore'
import { WALLET_CONNECT_ID } from '../providers/walletConnectId'
import { createModal } from '../state/createModal'
import { createNotifications } from '../state/createNotifications'
import { createRouter, type RouteData } from '../state/createRouter'
import { embeddedCloseView, resolveOpenView, type View } from '../state/views'
import { createWidgetStorage, type WidgetStorage } from '../storage/createWidgetStorage'
import { parseWidgetConfig, type WidgetConfig, type WidgetConfigInput } from './config'
import { polkadotRpcUrl } from './polkadotRpcUrl'
import { createAnalytics } from './createAnalytics'
import { createConnectionController, initialNamespaces } from './createConnectionController'
import type { ConnectionActions } from './createConnectionActions'
import type { PairingState } from './createWalletConnectPairing'
import type { PairingApproval } from '../../shared/protocol/walletConnectApi'
import { isSiwxConfig, type DefaultSiwxOptions, type SIWXConfig } from './siwxConfig'
import type { AuthConnector } from '../providers/auth/createAuthConnector'
import type { AuthLogin, AuthLoginState } from './createAuthLogin'
import { widgetLocale } from '../ui/i18n/buttons'
import type { WidgetWalletConnect } from './walletConnect'
import { patchNamespace, topFields, type WidgetState } from './widgetState'

export { unknownNetwork } from './createConnectionController'
export type { ConnectionStatus, ConnectorSummary, NamespaceState, RecentWallet, WidgetState } from './widgetState'

/** This package's version, in the SDK version string (type-adapters-version, SPEC §1). */
export const SDK_VERSION = '0.2.0'

/**
 * A library adapter (`tessera/wagmi`, `tessera/ethers`, `tessera/ethers5`): named in the SDK version string, and
 * attached to the widget once it exists (a wagmi config's connector needs the widget, for instance).
 */
export type WidgetAdapter = { type: 'wagmi' | 'ethers' | 'ethers5'; attach?: (widget: Widget) => void }

/** The SDK version's adapters (SPEC §1): the library adapters, then the families other than EVM by their adapter type. */
const sdkAdapterNames = (adapters: readonly WidgetAdapter[], families: readonly ChainNamespace[]) => {
  const familyNames: Record<ChainNamespace, string> = { eip155: 'eip155', solana: 'solana', bip122: 'bitcoin', polkadot: 'polkadot' }
  const names = adapters.map((a) => a.type)
  return [...new Set([...names, ...families.filter((ns) => !(ns === 'eip155' && names.length > 0)).map((ns) => familyNames[ns])])]
}

export type CreateWidgetParameters = Omit<WidgetConfigInput, 'siwx'> & {
  /** Library adapters: `wagmiAdapter` from 'tessera/wagmi', `ethersAdapter` from 'tessera/ethers', … */
  adapters?: readonly WidgetAdapter[]
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
 * Creates a widget: validated config, its own stores, core worker, storage and connectors, one connection state per
 * configured chain family. Two widgets on one page share nothing.
 * @example
 * const widget = createWidget({ projectId: 'demo', networks: [tesseraLocal] })
 * widget.open()
 */
export function createWidget({ adapters = [], window: target = globalThis.window, storage = createWidgetStorage(), createWorker, isMobile = typeof navigator !== 'undefined' && /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent), ...input }: CreateWidgetParameters) {
  const config: WidgetConfig = parseWidgetConfig(input)
  const networks = config.networks
  // Storage is read in the task after this one (restoreStoredState): see createWidgetStorage.
  const { namespaces, activeNamespace } = initialNamespaces(config)
  const sdkVersion = formatSdkVersion({ type: 'react', adapters: sdkAdapterNames(adapters, [...new Set(networks.map((n) => n.chainNamespace))]), version: SDK_VERSION })

  const store = createStore<WidgetState>()(
    subscribeWithSelector((): WidgetState => ({
      ...(topFields(namespaces[activeNamespace]!) as Pick<WidgetState, 'status' | 'connectorId' | 'address' | 'caipAddress' | 'allAccounts' | 'activeCaipNetworkId' | 'connectedWalletInfo' | 'profileName' | 'profileImage'>),
      activeNamespace,
      namespaces,
      isSwitchingNamespace: false,
      requestedCaipNetworkIds: networks.map((n) => n.caipNetworkId as CaipNetworkId),
      connectors: [],
      recentWallets: [],
      themeMode: config.themeMode,
      siwxError: undefined,
      error: undefined,
      wcUri: undefined,
      wcPairingExpiry: undefined,
      wcLinking: undefined,
      wcWallet: undefined,
      wcError: undefined,
    })),
  )
  const initialState = store.getState()
  const router = createRouter()
  const modal = createModal()
  const notifications = createNotifications()

  const evmNetworks = networks.filter((n) => n.chainNamespace === 'eip155')
  const core: Core | undefined =
    typeof Worker === 'undefined'
      ? undefined
      : createCore({
          createWorker,
          chains: evmNetworks
            .filter((n) => n.rpcUrls.default.http.length > 0)
            .map((n) => ({ chainId: Number(n.id), name: n.name, rpcUrls: n.rpcUrls.default.http, multicall3: n.contracts?.multicall3?.address as Address | undefined })),
          solanaChains: networks.filter((n) => n.chainNamespace === 'solana' && n.rpcUrls.default.http.length > 0).map((n) => ({ caipNetworkId: n.caipNetworkId, rpcUrl: n.rpcUrls.default.http[0]! })),
          // A Bitcoin network's http URL is its Esplora-style API.
          bitcoinChains: networks.filter((n) => n.chainNamespace === 'bip122' && n.rpcUrls.default.http.length > 0).map((n) => ({ caipNetworkId: n.caipNetworkId, apiUrl: n.rpcUrls.default.http[0]! })),
          // A Polkadot network is reached over WebSocket (its webSocket URL, or its http one as ws).
          polkadotChains: networks.flatMap((n) => {
            const rpcUrl = n.chainNamespace === 'polkadot' ? polkadotRpcUrl(n) : undefined
            return rpcUrl ? [{ caipNetworkId: n.caipNetworkId, rpcUrl }] : []
          }),
          dataService: config.services?.api
            ? { baseUrl: config.services.api, walletRegistryUrl: config.services.walletRegistry, projectId: config.projectId, sdkVersion, supportedCaipNetworkIds: networks.map((n) => n.caipNetworkId) }
            : undefined,
        })
  const analytics = createAnalytics({
    isEnabled: config.features.analytics,
    dataService: core?.dataService,
    notifications,
    getAddress: () => store.getState().address,
  })

  // WalletConnect (eip155 sessions, through our relay): its code and worker load when a WalletConnect view opens or a
  // stored session reconnects.
  const relayUrl = config.services?.relay
  const hasWalletConnectFamily = networks.some((n) => n.chainNamespace === 'eip155' || n.chainNamespace === 'solana' || n.chainNamespace === 'bip122')
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
          chainIds: evmNetworks.map((n) => Number(n.id)),
          solanaCaipNetworkIds: networks.filter((n) => n.chainNamespace === 'solana').map((n) => n.caipNetworkId),
          bip122CaipNetworkIds: networks.filter((n) => n.chainNamespace === 'bip122').map((n) => n.caipNetworkId),
          getPreferredChainId: () => Number(parseCaipNetworkId(store.getState().namespaces.eip155?.activeCaipNetworkId ?? '')?.reference) || undefined,
          getPreferredSolanaCaipNetworkId: () => store.getState().namespaces.solana?.activeCaipNetworkId,
          getPreferredBip122CaipNetworkId: () => store.getState().namespaces.bip122?.activeCaipNetworkId,
        },
        store,
        onApproved: (result) => void onWalletConnectApproved(result),
      }),
    ))

  // E-mail and social login (SPEC §1): the auth connector's code loads with the families' (modal prefetch, reconnect);
  // its secure frame loads when Connect shows the login, or to reconnect a stored login.
  let authLoad: Promise<AuthConnector> | undefined
  const loadAuth = (auth: NonNullable<WidgetConfig['auth']>) =>
    (authLoad ??= import('../providers/auth/createAuthConnector').then(({ createAuthConnector }) =>
      createAuthConnector({
        frameUrl: auth.frameUrl,
        params: {
          projectId: config.projectId,
          chainId: Number(evmNetworks.find((n) => n.caipNetworkId === store.getState().namespaces.eip155?.activeCaipNetworkId)?.id ?? evmNetworks[0]!.id),
          version: sdkVersion,
          enableLogger: config.logLevel === 'debug',
          locale: widgetLocale(config.locale),
        },
        window: target,
        storage,
        theme: () => ({ themeMode: store.getState().themeMode, ...(config.themeVariables && { themeVariables: config.themeVariables }) }),
        dappData: { sdkType: 'tessera', ...(config.metadata && { metadata: config.metadata }) },
        notifications,
        // The Solana side's cluster before it is connected or switched (reconnect): the widget's, when it is a configured one.
        solanaCaipNetworkId: () => {
          const solanaNetworks = networks.filter((n) => n.chainNamespace === 'solana')
          const id = store.getState().namespaces.solana?.activeCaipNetworkId
          return (solanaNetworks.find((n) => n.caipNetworkId === id) ?? solanaNetworks[0])?.caipNetworkId as CaipNetworkId | undefined
        },
      }),
    ))
  const authConfig = config.auth && target ? config.auth : undefined

  const connection = createConnectionController({
    config,
    store,
    storage,
    core,
    router,
    modal,
    notifications,
    target,
    loadWalletConnect: relayUrl && hasWalletConnectFamily ? async () => (await loadWalletConnect(relayUrl)).connector : undefined,
    loadAuthConnector: authConfig
      ? async () => {
          const auth = await loadAuth(authConfig)
          return [auth.eip155, auth.solana]
        }
      : undefined,
    onConnected: () => requireSignIn(),
    onConnectSuccess: ({ method, name }) => void analytics.track('CONNECT_SUCCESS', { method, name }),
  })
  // The default SIWX loads only when a site turns sign-in on; each family's message format comes with its adapter.
  const siwxReady: Promise<SIWXConfig | undefined> = isSiwxConfig(config.siwx)
    ? Promise.resolve(config.siwx)
    : config.siwx && core
      ? import('./siwx').then(({ createDefaultSiwx }) =>
          createDefaultSiwx({
            dataService: core.dataService,
            storage,
            createSignInMessage: async (fields) => {
              const namespace = parseCaipNetworkId(fields.caipNetworkId)?.namespace
              if (!namespace) throw createWidgetError('CHAIN_ADAPTER_NOT_FOUND', { details: `not a network id: ${fields.caipNetworkId}` })
              return (await (await connection.adapter(namespace)).loadSignInMessage())(fields)
            },
            ...(typeof config.siwx === 'object' ? (config.siwx as DefaultSiwxOptions) : {}),
          }),
        )
      : Promise.resolve(undefined)
  // What a visitor does (connect, disconnect, switch) loads on first use or with the modal's prefetch, not at start-up.
  let actionsLoad: Promise<ConnectionActions> | undefined
  const actions = () => (actionsLoad ??= import('./createConnectionActions').then(({ createConnectionActions }) => createConnectionActions(connection, { onConnectDone })))
  // Sign-in's code loads only for a site that turned it on.
  const signInLoad = config.siwx
    ? import('./createSignInController').then(({ createSignInController }) =>
        createSignInController({
          siwx: siwxReady,
          store,
          router,
          modal,
          notifications,
          connectedConnector: () => connection.connectedConnector(),
          disconnect: async () => (await actions()).disconnect(),
        }),
      )
    : undefined
  const requireSignIn = async () => (signInLoad ? (await signInLoad).requireSignIn() : false)
  /**
   * A connection the visitor asked for is made (SPEC §4): Switch Network stays when the wallet is on a network the site
   * did not ask for; sign-in opens when it follows; otherwise the modal closes, as peers do (embedded, it shows Account).
   */
  const onConnectDone = async () => {
    if (router.store.getState().view === 'UnsupportedChain') return
    if (await requireSignIn()) return
    if (modal.store.getState().open) widget.close()
    router.reset('Account')
  }

  /** Successful connection (SPEC §4): the deep link and the recent wallet are stored, CONNECT_SUCCESS is tracked. */
  const onWalletConnectApproved = async ({ accounts, chainId, solana, bip122 }: PairingApproval) => {
    // One approval may carry several families: each one it carries is connected through its side of the session.
    const approved = [
      ...(accounts.length > 0 ? [{ ns: 'eip155' as const, accounts: accounts as string[], caipNetworkId: `eip155:${chainId}` as CaipNetworkId }] : []),
      ...(solana && solana.accounts.length > 0 ? [{ ns: 'solana' as const, accounts: solana.accounts, caipNetworkId: solana.caipNetworkId }] : []),
      ...(bip122 && bip122.accounts.length > 0 ? [{ ns: 'bip122' as const, accounts: bip122.accounts, caipNetworkId: bip122.caipNetworkId }] : []),
    ].filter(({ ns }) => connection.getWalletConnect(ns) && store.getState().namespaces[ns]?.status !== 'connected')
    if (approved.length === 0) return
    const { wcWallet, wcLinking } = store.getState()
    const wallet = wcWallet ?? { id: WALLET_CONNECT_ID, name: 'WalletConnect' }
    connection.rememberWallet(wallet)
    if (wcLinking) storage.set('deepLinkChoice', wcLinking)
    // The family the visitor was on stays active when the wallet approved it.
    const active = approved.find(({ ns }) => ns === store.getState().activeNamespace) ?? approved[0]!
    for (const family of [...approved.filter((f) => f !== active), active]) connection.setConnected(connection.getWalletConnect(family.ns)!, family.accounts, family.caipNetworkId)
    if (store.getState().activeNamespace !== active.ns) connection.setActiveNamespace(active.ns)
    const loaded = await walletConnectLoad
    void loaded?.connector
      .getPeerName()
      .then((name) => name && store.getState().namespaces.eip155?.connectorId === WALLET_CONNECT_ID && store.setState((s) => patchNamespace(s, 'eip155', { connectedWalletInfo: { name } })))
      .catch(() => {})
    void analytics.track('CONNECT_SUCCESS', { method: wcLinking ? 'mobile' : 'qrcode', name: wallet.name })
    loaded?.pairing.reset()
    await onConnectDone()
  }
  /** Closing the modal resets the pairing URI (SPEC §2). */
  const resetPairing = () => void walletConnectLoad?.then((loaded) => loaded.onClose())

  /** What `mount()` rendered, unmounted by destroy(). */
  const mounted = new Set<() => void>()
  // The login steps' code loads with the first login action (or the Connect view's preload); its state is here at once.
  const authStore = createStore<AuthLoginState>()(() => ({ step: 'email', email: undefined, socialProvider: undefined, isBusy: false, error: undefined }))
  let authLoginLoad: Promise<AuthLogin> | undefined
  const authLogin = () =>
    (authLoginLoad ??= import('./createAuthLogin').then(({ createAuthLogin }) =>
      createAuthLogin({
        store: authStore,
        load: () => loadAuth(authConfig!),
        router,
        activeNetwork: () => connection.activeNetwork('eip155'),
        // One login connects the Solana account too when the site has Solana networks (SPEC §6).
        ...(networks.some((n) => n.chainNamespace === 'solana') && { solanaNetwork: () => connection.activeNetwork('solana') }),
        activate: () => connection.internals.activate('eip155'),
        setConnected: connection.setConnected,
        onConnectSuccess: ({ method, name }) => void analytics.track('CONNECT_SUCCESS', { method, name }),
        onConnectDone: () => onConnectDone(),
        window: target,
      }),
    ))
  // The frame's screens follow the widget's theme.
  const stopThemeSync = store.subscribe(
    (s) => s.themeMode,
    () => void authLoad?.then((auth) => auth.syncTheme()).catch(() => {}),
  )
  const widget = {
    config,
    /** The SDK version string sent to our services (SPEC §1, §7), e.g. `react-wagmi,solana-0.2.0`. */
    sdkVersion,
    isMobile,
    core,
    analytics,
    router,
    modal,
    notifications,
    storage,
    /** Loads the code of every configured chain family and lists its wallets (the modal and the first click do it too). */
    ready: () => connection.load(),
    /** Signs the SIWX message and stores the session; success closes the modal, failure keeps the view. */
    async signIn() {
      if (!signInLoad) throw createWidgetError('SIWX_NOT_ENABLED')
      return (await signInLoad).signIn()
    },
    /** Declining to sign in: disconnects when sign-in is required, otherwise just closes. */
    async cancelSignIn() {
      if (!signInLoad) return modal.close()
      return (await signInLoad).cancelSignIn()
    },
    /** Loads what the first click will need (the connection actions); the UI calls it on idle, hover and focus. */
    prefetch: () => void Promise.all([actions(), connection.load()]).catch(() => {}),
    /** The current state: the active family's account and network at the top, every family's under `namespaces`. */
    getState: store.getState,
    /** Calls listener when the selected part of the state changes. */
    subscribe: <T>(selector: (state: WidgetState) => T, listener: (selected: T, previous: T) => void) => store.subscribe(selector, listener),
    store,
    getNetworks: () => networks,
    getActiveNetwork: () => connection.activeNetwork(),
    /** A configured family's adapter (wallets, balance, send, sign-in message), its code loaded on first call. */
    getAdapter: connection.adapter,
    /** The connected wallet of a family (the active one by default); AUTH_CONNECTOR_NOT_FOUND without one. */
    getConnectedConnector: connection.connectedConnector,
    /** An EIP-1193 request to the connected EVM wallet (names); AUTH_CONNECTOR_NOT_FOUND without one. */
    walletRequest: (args: { method: string; params?: unknown }) => {
      const request = connection.connectedConnector('eip155').request
      if (!request) throw createWidgetError('AUTH_CONNECTOR_NOT_FOUND')
      return request(args)
    },
    /** A name was registered for the EVM account: the account shows it. */
    setProfileName: (profileName: string) => store.setState((s) => patchNamespace(s, 'eip155', { profileName })),
    open({ view, data, namespace }: { view?: View; data?: RouteData; namespace?: ChainNamespace } = {}) {
      void connection.load().catch(() => {})
      if (namespace && store.getState().namespaces[namespace]) connection.setActiveNamespace(namespace)
      const state = store.getState()
      router.reset(resolveOpenView({ requestedView: view, isConnected: state.status === 'connected', isMobile, hasAdapters: true }), data)
      // With a family named, Connect lists only that family's wallets.
      void modal.open({ namespace })
      void analytics.track('MODAL_OPEN', { connected: state.status === 'connected' })
    },
    close() {
      // Closing the sign-in view (✕, Escape, the overlay) is declining it: a required sign-in then disconnects.
      if (signInLoad && router.store.getState().view === 'SIWXSignMessage') void signInLoad.then((signIn) => signIn.cancelSignIn()).catch(() => {})
      if (config.enableEmbedded) return router.reset(embeddedCloseView(store.getState().status === 'connected'))
      modal.close()
      resetPairing()
      void analytics.track('MODAL_CLOSE', { connected: store.getState().status === 'connected' })
    },
    /**
     * WalletConnect, when the config names a relay: the views start a pairing (showing its URI as a QR code and deep
     * links) and pause it when they go; the wallet's approval connects.
     */
    /**
     * E-mail and social login, when the config has `auth`: the login steps' state and actions (the Connect views use
     * them), the social providers offered, and the auth connector (its EIP-1193 requests go to the secure frame).
     */
    auth: authConfig
      ? {
          store: authStore,
          socials: authConfig.socials ?? (['google', 'x', 'discord', 'farcaster', 'github', 'apple', 'facebook'] as const),
          /** Loads the login's code and the secure frame ahead of the first login (the Connect view does it). */
          preload: () => void authLogin().then((login) => login.preload(), () => {}),
          submitEmail: async (email: string) => (await authLogin()).submitEmail(email),
          submitOtp: async (otp: string) => (await authLogin()).submitOtp(otp),
          /** Call it in the click itself: the popup opens before anything is awaited. */
          connectSocial(provider: Parameters<AuthLogin['connectSocial']>[0]) {
            const popup = target?.open('about:blank', 'tessera-social-login', 'popup,width=480,height=640') ?? null
            return authLogin().then((login) => login.connectSocial(provider, popup))
          },
          /** Sign In With Farcaster: its view shows a QR code until the person's phone approves. */
          connectFarcaster: async () => (await authLogin()).connectFarcaster(),
          /** Back to the e-mail field: a device wait or a popup still running stops. */
          reset: () => void authLoginLoad?.then((login) => login.reset()),
          connector: () => loadAuth(authConfig),
        }
      : undefined,
    walletConnect: relayUrl && hasWalletConnectFamily
      ? {
          start: async (wallet?: { id: string; name: string }) => (await loadWalletConnect(relayUrl)).pairing.start(wallet),
          pause: () => void walletConnectLoad?.then((loaded) => loaded.pairing.pause()),
          setLinking: (linking: PairingState['wcLinking']) => store.setState({ wcLinking: linking }),
        }
      : undefined,
    /** Connects the wallet behind `connectorId` (an EIP-6963 rdns, 'injected', a Wallet Standard wallet) on its family. */
    connect: async (connectorId: string, namespace?: ChainNamespace) => (await actions()).connect(connectorId, namespace),
    /** Disconnects the active family (or `namespace`, or 'all'). */
    disconnect: async (namespace?: ChainNamespace | 'all') => (await actions()).disconnect(namespace),
    /** Switches the active network; a network of another family makes that family active (SPEC §4). */
    switchNetwork: async (caipNetworkId: string) => (await actions()).switchNetwork(caipNetworkId),
    /** Makes another connected family the active one. */
    setActiveNamespace: connection.setActiveNamespace,
    /** The registry's image of a wallet, or undefined without a wallet registry. */
    walletImageUrl(imageId: string) {
      const base = config.services?.walletRegistry ?? config.services?.api
      if (!base) return undefined
      const url = new URL(`getWalletImage/${encodeURIComponent(imageId)}`, base.endsWith('/') ? base : `${base}/`)
      url.search = new URLSearchParams({ projectId: config.projectId, st: 'tessera', sv: sdkVersion }).toString()
      return url.toString()
    },
    /**
     * For pages without React: renders the connect button and the modal into `element` (the UI loads on demand).
     * @example const unmount = await widget.mount(document.getElementById('wallet')!)
     */
    async mount(element: Element) {
      const { mountWidget } = await import('../ui/mountWidget')
      const unmount = mountWidget(widget, element)
      mounted.add(unmount)
      return () => {
        mounted.delete(unmount)
        unmount()
      }
    },
    setThemeMode(mode: 'light' | 'dark') {
      store.setState({ themeMode: mode })
    },
    /** Reconnects the stored connections (the widget does it in the task after it is made). */
    reconnect: () => {
      restoreStoredState()
      return connection.reconnect()
    },
    /** Reads the active account's native balance again (into the core's mirrored store, where the UI reads it). */
    refreshBalance: connection.refreshBalance,
    /** Frees everything the widget started: its workers, timers and listeners. */
    destroy() {
      cancelReconnect()
      void signInLoad?.then((signIn) => signIn.stop()).catch(() => {})
      for (const unmount of mounted) unmount()
      mounted.clear()
      void walletConnectLoad?.then((loaded) => {
        loaded.pairing.reset()
        loaded.connector.destroy()
      })
      notifications.close()
      modal.close()
      connection.destroy()
      core?.destroy()
      stopThemeSync()
      void authLoginLoad?.then((login) => login.reset())
      void authLoad?.then((auth) => auth.destroy())
    },
  }
  /** What the last visit stored (SPEC §4): the family and network it was on and the recent wallets, unless changed since. */
  let isRestored = false
  const restoreStoredState = () => {
    if (isRestored) return
    isRestored = true
    const stored = initialNamespaces(config, storage)
    store.setState((state) => ({
      ...(state.recentWallets === initialState.recentWallets && { recentWallets: storage.get('recentWallets') ?? [] }),
      ...(state.namespaces === initialState.namespaces &&
        state.activeNamespace === initialState.activeNamespace && {
          ...(topFields(stored.namespaces[stored.activeNamespace]!) as Partial<WidgetState>),
          activeNamespace: stored.activeNamespace,
          namespaces: stored.namespaces,
        }),
    }))
  }
  for (const adapter of adapters) adapter.attach?.(widget)
  // Once the page is idle: creating the widget stays short in the page's start-up task, and the stored state (a
  // synchronous storage read) and the reconnect come after the page's first render and its frame.
  const cancelReconnect = whenPageIdle(() => void widget.reconnect(), { timeoutMs: START_UP_IDLE_TIMEOUT_MS })
  return widget
}

export type Widget = ReturnType<typeof createWidget>
