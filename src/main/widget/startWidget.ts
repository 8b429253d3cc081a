import { createStore, type StoreApi } from 'zustand/vanilla'
import type { Address } from 'viem'
import { namespaces, parseCaipNetworkId, type CaipNetworkId, type ChainNamespace } from '../../shared/protocol/caip'
import { createWidgetError } from '../../shared/protocol/errors'
import { START_UP_IDLE_TIMEOUT_MS, whenPageIdle } from '../core/whenPageIdle'
import { createCore, type Core } from '../core/createCore'
import { WALLET_CONNECT_ID } from '../connectors/walletConnectId'
import type { createModal } from '../state/createModal'
import type { createNotifications } from '../state/createNotifications'
import type { createRouter } from '../state/createRouter'
import type { RouteData } from '../state/createRouter'
import { embeddedCloseView, resolveOpenView, type View } from '../state/views'
import { createWidgetStorage, type WidgetStorage } from '../storage/createWidgetStorage'
import { parseWidgetConfig, type WidgetConfig, type WidgetConfigInput } from './config'
import { createAnalytics } from './createAnalytics'
import { createConnectionController } from './createConnectionController'
import type { PairingState } from './createWalletConnectPairing'
import type { ApprovedNamespace, PairingApproval } from '../../shared/protocol/walletConnectApi'
import { isSiwxConfig, type DefaultSiwxOptions, type SIWXConfig } from './siwxConfig'
import type { AuthLogin } from './createAuthLogin'
import { initialAuthLoginState, type AuthLoginState } from './authLoginState'
import { widgetLocale } from './locale'
import { initialNamespaces, patchNamespace, topFields, type WidgetState } from './widgetState'
import { familyCoreChains } from '../families/coreChains'
import { createRequestReview } from './createRequestReview'
import { isReviewedMethod } from './reviewedMethods'
import type { NamespaceConnector } from '../families/types'
import type { WalletRequest } from '../connectors/eip1193'
import type { Bip122NamespaceConnector, SignPsbtRequest } from '../families/bip122/connector'
import { pageFamilies } from '../families/index'
import { loadOnce } from '../lazy/loadOnce'
import { retryingImport } from '../lazy/retryingImport'

// What loads on first use; a load that failed is asked for anew by the next use (see retryingImport).
const walletConnectCode = retryingImport(() => import('./walletConnect'), 'createWidgetWalletConnect')
const authConnectorCode = retryingImport(() => import('../connectors/auth/createAuthConnector'), 'createAuthConnector')
const connectionActionsCode = retryingImport(() => import('./createConnectionActions'), 'createConnectionActions')
const authLoginCode = retryingImport(() => import('./createAuthLogin'), 'createAuthLogin')

/** The site's parameters (createWidget's), but the library adapters and `isMobile`, which the shell keeps. */
export type StartWidgetParameters = Omit<WidgetConfigInput, 'siwx'> & {
  /** Sign in with the wallet: your own SIWXConfig, or options for the default one (sessions in the data service). */
  siwx?: SIWXConfig | DefaultSiwxOptions | boolean
  /** Where injected wallets announce themselves; defaults to the page's window. */
  window?: Window
  storage?: WidgetStorage
  /** The core's worker; hosts with their own bundling (and tests) can pass one. */
  createWorker?: () => Worker
}

/** What `createWidget` made at once and hands to the widget's code once it has loaded. */
export type WidgetShell = {
  store: StoreApi<WidgetState> & { subscribe: WidgetSubscribe }
  /** The state the widget was made with (the families' from the networks as given): what the stored state may replace. */
  initialState: WidgetState
  router: ReturnType<typeof createRouter>
  modal: ReturnType<typeof createModal>
  notifications: ReturnType<typeof createNotifications>
  isMobile: boolean
  sdkVersion: string
  /** The widget as the site holds it: closed when the sign-in is cancelled. */
  widget: { close: () => void }
}
type WidgetSubscribe = {
  (listener: (state: WidgetState, previous: WidgetState) => void): () => void
  <T>(selector: (state: WidgetState) => T, listener: (selected: T, previous: T) => void, options?: { equalityFn?: (a: T, b: T) => boolean; fireImmediately?: boolean }): () => void
}

/**
 * The widget's code past its first frame (see createWidget): checks the config (INVALID_CONFIG, SIWX_CONFIG_CONFLICT),
 * sets the configured families' state, and makes the core worker, storage, connectors and controllers, one connection
 * state per configured chain family.
 */
export function startWidget(
  { window: target = globalThis.window, storage = createWidgetStorage(), createWorker, ...input }: StartWidgetParameters,
  { store, initialState, router, modal, notifications, isMobile, sdkVersion, widget: siteWidget }: WidgetShell,
) {
  const config: WidgetConfig = parseWidgetConfig(input)
  const networks = config.networks
  store.setState({ isStarted: true })

  const evmNetworks = networks.filter((n) => n.chainNamespace === 'eip155')
  const core: Core | undefined =
    typeof Worker === 'undefined'
      ? undefined
      : createCore({
          createWorker,
          chains: evmNetworks
            .filter((n) => n.rpcUrls.default.http.length > 0)
            .map((n) => ({ chainId: Number(n.id), name: n.name, rpcUrls: n.rpcUrls.default.http, multicall3: n.contracts?.multicall3?.address as Address | undefined, blockTime: n.blockTime })),
          ...familyCoreChains(networks),
          dataService: config.services?.api
            ? { baseUrl: config.services.api, walletRegistryUrl: config.services.walletRegistry, projectId: config.projectId, sdkVersion, supportedCaipNetworkIds: networks.map((n) => n.caipNetworkId) }
            : undefined,
        })
  const analytics = createAnalytics({
    isEnabled: config.features.analytics,
    // No data service configured: nowhere to send them (not even a message to the worker).
    dataService: config.services?.api ? core?.dataService : undefined,
    notifications,
    getAddress: () => store.getState().address,
  })

  // WalletConnect (eip155 sessions, through our relay): its code and worker load when a WalletConnect view opens or a
  // stored session reconnects.
  const relayUrl = config.services?.relay
  const hasWalletConnectFamily = networks.some((n) => pageFamilies[n.chainNamespace].hasWalletConnect)
  const walletConnectLoader =
    relayUrl && hasWalletConnectFamily
      ? loadOnce(() =>
          walletConnectCode().then(({ createWidgetWalletConnect }) =>
            createWidgetWalletConnect({
              connector: {
                projectId: config.projectId,
                relayUrl,
                metadata: {
                  name: config.metadata?.name ?? (typeof document === 'undefined' ? 'dApp' : document.title),
                  description: config.metadata?.description ?? '',
                  url: config.metadata?.url ?? (typeof location === 'undefined' ? 'http://localhost' : location.origin),
                  icons: config.metadata?.icons ?? [],
                },
                networks: Object.fromEntries(namespaces.map((ns) => [ns, networks.filter((n) => n.chainNamespace === ns).map((n) => n.caipNetworkId)])),
                getPreferredCaipNetworkId: (namespace) => store.getState().namespaces[namespace]?.activeCaipNetworkId,
              },
              store,
              onApproved: (result) => void onWalletConnectApproved(result),
            }),
          ),
        )
      : undefined

  // E-mail and social login (SPEC §1): the auth connector's code loads with the families' (modal prefetch, reconnect);
  // its secure frame loads when Connect shows the login, or to reconnect a stored login.
  const authConfig = config.auth && target ? config.auth : undefined
  const authConnectorLoader = authConfig
    ? loadOnce(() =>
        authConnectorCode().then(({ createAuthConnector }) =>
          createAuthConnector({
            frameUrl: authConfig.frameUrl,
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
        ),
      )
    : undefined

  const connection = createConnectionController({
    config,
    store,
    storage,
    core,
    router,
    modal,
    notifications,
    target,
    loadWalletConnect: walletConnectLoader && (async () => (await walletConnectLoader.load()).connector),
    loadAuthConnector: authConnectorLoader
      ? async () => {
          const auth = await authConnectorLoader.load()
          return [auth.eip155, auth.solana]
        }
      : undefined,
    onConnected: () => requireSignIn(),
    onConnectSuccess: ({ method, name }) => void analytics.track('CONNECT_SUCCESS', { method, name }),
  })
  // What a site's transaction, batch or typed data will do, shown before the wallet asks (issue #36).
  const requestReview = createRequestReview({
    core,
    router,
    modal,
    account: () => {
      const evm = store.getState().namespaces.eip155
      return evm?.status === 'connected' && evm.address ? { address: evm.address, caipNetworkId: evm.activeCaipNetworkId } : undefined
    },
    nativeCurrency: (caipNetworkId) => networks.find((n) => n.caipNetworkId === caipNetworkId)?.nativeCurrency,
    ...(typeof config.review === 'object' && config.review.descriptors && { descriptors: config.review.descriptors }),
    ...(target?.location?.host && { pageHost: target.location.host }),
  })
  /** What the connected EVM wallet refuses at once (see NamespaceConnector.refusesMethod) gets no review before the refusal. */
  const isRefusedByWallet = async (method: string) => {
    try {
      return (await connection.connectedConnector('eip155').refusesMethod?.(method)) === true
    } catch {
      return false
    }
  }
  const reviewRequest = async <T,>({ method, params }: { method: string; params?: unknown }, send: () => Promise<T>): Promise<T> =>
    config.review !== false && isReviewedMethod(method) && !(await isRefusedByWallet(method)) ? requestReview.confirm({ method, params }, send) : send()
  /**
   * The connected wallet as a site drives it: its EVM requests, Solana transactions and Bitcoin PSBTs are reviewed
   * first (issue #36). The widget's own Send does not go through it: its form is what the visitor reviews.
   */
  const reviewedConnector = (connector: NamespaceConnector): NamespaceConnector => {
    const { signTransaction, request } = connector
    const { signPsbt, bitcoinAccounts } = connector as Partial<Bip122NamespaceConnector>
    // The e-mail wallet's Solana side also signs and sends in one call (solana_signAndSendTransaction).
    const { signAndSendTransaction } = connector as { signAndSendTransaction?: (transaction: Uint8Array, address: string, caipNetworkId: CaipNetworkId) => Promise<string> }
    const reviewSolana = (transaction: Uint8Array, address: string, caipNetworkId: CaipNetworkId) => () => core!.solana.reviewTransaction({ caipNetworkId, transaction, account: address })
    return {
      ...connector,
      ...(request && { request: ((args: { method: string; params?: unknown }) => reviewRequest(args, () => request(args))) as WalletRequest }),
      ...(signTransaction && {
        signTransaction: (transaction: Uint8Array, address: string, caipNetworkId: CaipNetworkId) =>
          requestReview.confirmFamily({ method: 'solana_signTransaction', caipNetworkId, review: reviewSolana(transaction, address, caipNetworkId) }, () => signTransaction(transaction, address, caipNetworkId)),
      }),
      ...(signAndSendTransaction && {
        signAndSendTransaction: (transaction: Uint8Array, address: string, caipNetworkId: CaipNetworkId) =>
          requestReview.confirmFamily({ method: 'solana_signTransaction', caipNetworkId, review: reviewSolana(transaction, address, caipNetworkId) }, () => signAndSendTransaction(transaction, address, caipNetworkId)),
      }),
      ...(signPsbt &&
        bitcoinAccounts && {
          signPsbt: (psbt: SignPsbtRequest) =>
            requestReview.confirmFamily(
              { method: 'bip122_signPsbt', caipNetworkId: psbt.caipNetworkId, review: () => core!.bitcoin.reviewPsbt({ caipNetworkId: psbt.caipNetworkId, psbt: psbt.psbtBase64, addresses: bitcoinAccounts().map((a) => a.address), signingIndexes: psbt.signingIndexes }) },
              () => signPsbt(psbt),
            ),
        }),
    } as NamespaceConnector
  }
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
  const actions = loadOnce(() => connectionActionsCode().then(({ createConnectionActions }) => createConnectionActions(connection, { store, storage, router, notifications, onConnectDone }))).load
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
          isSmartAccount: () => store.getState().activeNamespace === 'eip155' && store.getState().namespaces.eip155?.embeddedWalletInfo?.accountType === 'smartAccount',
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
    if (modal.store.getState().open) siteWidget.close()
    router.reset('Account')
  }

  /** Successful connection (SPEC §4): the deep link and the recent wallet are stored, CONNECT_SUCCESS is tracked. */
  const onWalletConnectApproved = async (approval: PairingApproval) => {
    // One approval may carry several families: each one it carries is connected through its side of the session.
    const approved = (Object.entries(approval) as [ChainNamespace, ApprovedNamespace][])
      .map(([ns, side]) => ({ ns, ...side }))
      .filter(({ ns }) => connection.getWalletConnect(ns) && store.getState().namespaces[ns]?.status !== 'connected')
    if (approved.length === 0) return
    const { wcWallet, wcLinking } = store.getState()
    const wallet = wcWallet ?? { id: WALLET_CONNECT_ID, name: 'WalletConnect' }
    connection.rememberWallet(wallet)
    if (wcLinking) storage.set('deepLinkChoice', wcLinking)
    // The family the visitor was on stays active when the wallet approved it.
    const active = approved.find(({ ns }) => ns === store.getState().activeNamespace) ?? approved[0]!
    for (const family of [...approved.filter((f) => f !== active), active]) connection.setConnected(connection.getWalletConnect(family.ns)!, family.accounts, family.caipNetworkId)
    if (store.getState().activeNamespace !== active.ns) connection.setActiveNamespace(active.ns)
    const loaded = await walletConnectLoader?.requested()
    void loaded?.connector
      .getPeerName()
      .then((name) => name && store.getState().namespaces.eip155?.connectorId === WALLET_CONNECT_ID && store.setState((s) => patchNamespace(s, 'eip155', { connectedWalletInfo: { name } })))
      .catch(() => {})
    void analytics.track('CONNECT_SUCCESS', { method: wcLinking ? 'mobile' : 'qrcode', name: wallet.name })
    loaded?.pairing.reset()
    await onConnectDone()
  }
  /** Closing the modal resets the pairing URI (SPEC §2). */
  const resetPairing = () => void walletConnectLoader?.requested()?.then((loaded) => loaded.onClose(), () => {})

  // The login steps' code loads with the first login action (or the Connect view's preload); its state is here at once.
  const authStore = createStore<AuthLoginState>()(() => initialAuthLoginState)
  const authLoginLoader = loadOnce(() =>
    authLoginCode().then(({ createAuthLogin }) =>
      createAuthLogin({
        store: authStore,
        load: () => authConnectorLoader!.load(),
        router,
        activeNetwork: () => connection.activeNetwork('eip155'),
        // One login connects the Solana account too when the site has Solana networks (SPEC §6).
        ...(networks.some((n) => n.chainNamespace === 'solana') && { solanaNetwork: () => connection.activeNetwork('solana') }),
        activate: () => connection.activate('eip155'),
        setConnected: connection.setConnected,
        onConnectSuccess: ({ method, name }) => void analytics.track('CONNECT_SUCCESS', { method, name }),
        onConnectDone: () => onConnectDone(),
        window: target,
      }),
    ),
  )
  const authLogin = authLoginLoader.load
  // The frame's screens follow the widget's theme.
  const stopThemeSync = store.subscribe(
    (s) => s.themeMode,
    () => void authConnectorLoader?.requested()?.then((auth) => auth.syncTheme()).catch(() => {}),
  )
  const widget = {
    /** The checked config, its defaults filled in (once started). */
    config,
    /** The worker core's client (once started; undefined where there is no Worker). */
    core,
    /** Sends the widget's events (MODAL_OPEN, CONNECT_SUCCESS, …) to the data service when the config turns analytics on (once started). */
    analytics,
    /** What the widget keeps in the browser: connections, the active network, recent wallets (once started). */
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
    /** The site's networks, as checked. */
    getNetworks: () => networks,
    /** The active family's network (once started): 'Unknown Network' when the wallet is on one the site did not ask for. */
    getActiveNetwork: () => connection.activeNetwork(),
    /** A configured family's adapter (wallets, balance, send, sign-in message), its code loaded on first call. */
    getAdapter: connection.adapter,
    /** The connected wallet of a family (the active one by default; once started); AUTH_CONNECTOR_NOT_FOUND without one. */
    getConnectedConnector: (namespace?: ChainNamespace, { review = true }: { review?: boolean } = {}) => {
      const connector = connection.connectedConnector(namespace)
      return review && config.review !== false ? reviewedConnector(connector) : connector
    },
    /**
     * An EIP-1193 request to the connected EVM wallet; AUTH_CONNECTOR_NOT_FOUND without one. A transaction, a
     * wallet_sendCalls batch or typed data is reviewed first (the visitor confirms, then the wallet asks; declining is
     * 4001), unless the site turned the review off or `review: false` says this request was reviewed already.
     */
    walletRequest: async (args: { method: string; params?: unknown }, { review = true }: { review?: boolean } = {}) => {
      const request = connection.connectedConnector('eip155').request
      if (!request) throw createWidgetError('AUTH_CONNECTOR_NOT_FOUND')
      return review ? reviewRequest(args, () => request(args)) : request(args)
    },
    /** Shows the visitor what `args` will do and runs `send` once they confirm (4001 when they decline); other methods, or with the review turned off, `send` at once. */
    reviewRequest,
    /** The request under review (issue #36), for the review view or a site's own; `decideReview` is the visitor's answer. */
    reviewStore: requestReview.store,
    decideReview: requestReview.decide,
    /** A name was registered for the EVM account: the account shows it (once started). */
    setProfileName: (profileName: string) => store.setState((s) => patchNamespace(s, 'eip155', { profileName })),
    /** Opens the modal: on `view` if given, else on Connect (disconnected) or Account (connected). */
    open({ view, data, namespace }: { view?: View; data?: RouteData; namespace?: ChainNamespace } = {}) {
      void connection.load().catch(() => {})
      if (namespace && store.getState().namespaces[namespace]) connection.setActiveNamespace(namespace)
      const state = store.getState()
      router.reset(resolveOpenView({ requestedView: view, isConnected: state.status === 'connected', isMobile, hasAdapters: true }), data)
      // With a family named, Connect lists only that family's wallets.
      void modal.open({ namespace })
      void analytics.track('MODAL_OPEN', { connected: state.status === 'connected' })
    },
    /** Closes the modal (embedded: back to its first view); closing the sign-in view declines it. */
    close() {
      // Closing the sign-in view (✕, Escape, the overlay) is declining it: a required sign-in then disconnects.
      if (signInLoad && router.store.getState().view === 'SIWXSignMessage') void signInLoad.then((signIn) => signIn.cancelSignIn()).catch(() => {})
      if (config.enableEmbedded) return router.reset(embeddedCloseView(store.getState().status === 'connected'))
      modal.close()
      resetPairing()
      void analytics.track('MODAL_CLOSE', { connected: store.getState().status === 'connected' })
    },
    /** E-mail and social login, when the config has `auth` (once started). */
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
          reset: () => void authLoginLoader.requested()?.then((login) => login.reset(), () => {}),
          connector: () => authConnectorLoader!.load(),
          /** The embedded wallet's EVM account: its smart account or its key's own (the session stays; SPEC §4). */
          async setPreferredAccountType(accountType: 'eoa' | 'smartAccount') {
            await (await authConnectorLoader!.load()).setPreferredAccountType(accountType)
            void analytics.track('SET_PREFERRED_ACCOUNT_TYPE', { accountType, network: store.getState().namespaces.eip155?.activeCaipNetworkId })
          },
        }
      : undefined,
    /** WalletConnect, when the config names a relay (once started). */
    walletConnect: walletConnectLoader
      ? {
          start: async (wallet?: { id: string; name: string }) => (await walletConnectLoader.load()).pairing.start(wallet),
          pause: () => void walletConnectLoader.requested()?.then((loaded) => loaded.pairing.pause(), () => {}),
          setLinking: (linking: PairingState['wcLinking']) => store.setState({ wcLinking: linking }),
        }
      : undefined,
    /** Connects the wallet behind `connectorId` (an EIP-6963 rdns, 'injected', a Wallet Standard wallet) on its family. */
    connect: async (connectorId: string, namespace?: ChainNamespace) => (await actions()).connect(connectorId, namespace),
    /** Disconnects the active family (or `namespace`, or 'all'). */
    disconnect: async (namespace?: ChainNamespace | 'all') => (await actions()).disconnect(namespace),
    /** Switches the active network; a network of another family makes that family active (SPEC §4). */
    switchNetwork: async (caipNetworkId: string) => (await actions()).switchNetwork(caipNetworkId),
    /** Makes another connected family the active one (once started). */
    setActiveNamespace: connection.setActiveNamespace,
    /** The registry's image of a wallet, or undefined without a wallet registry (once started). */
    walletImageUrl(imageId: string) {
      const base = config.services?.walletRegistry ?? config.services?.api
      if (!base) return undefined
      const url = new URL(`getWalletImage/${encodeURIComponent(imageId)}`, base.endsWith('/') ? base : `${base}/`)
      url.search = new URLSearchParams({ projectId: config.projectId, st: 'tessera', sv: sdkVersion }).toString()
      return url.toString()
    },
    /** Reconnects the stored connections (the widget does it once it has started and the page is idle). */
    reconnect: () => {
      restoreStoredState()
      return connection.reconnect()
    },
    /** Reads the active account's native balance again (into the core's mirrored store, where the UI reads it). */
    refreshBalance: connection.refreshBalance,
    /** Frees everything the widget started: its workers, timers and listeners. */
    destroy() {
      cancelReconnect()
      analytics.destroy()
      cancelReviewPrefetch()
      stopReviewPrefetch()
      void signInLoad?.then((signIn) => signIn.stop()).catch(() => {})
      void walletConnectLoader?.requested()?.then(
        (loaded) => {
          loaded.pairing.reset()
          loaded.connector.destroy()
        },
        () => {},
      )
      connection.destroy()
      core?.destroy()
      stopThemeSync()
      void authLoginLoader.requested()?.then((login) => login.reset(), () => {})
      void authConnectorLoader?.requested()?.then((auth) => auth.destroy(), () => {})
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
  // Once the page is idle: the stored state (a synchronous storage read) and the reconnect come after the page's first
  // render and its frame.
  const cancelReconnect = whenPageIdle(() => void widget.reconnect(), { timeoutMs: START_UP_IDLE_TIMEOUT_MS })
  // With an EVM account connected a review is likely: its engine loads in the worker once the page is idle, so the
  // first one shows as fast as the next.
  let cancelReviewPrefetch = () => {}
  const stopReviewPrefetch =
    config.review === false || !core
      ? () => {}
      : store.subscribe(
          (state) => state.namespaces.eip155?.status === 'connected',
          (isConnected) => {
            if (!isConnected) return
            stopReviewPrefetch()
            cancelReviewPrefetch = whenPageIdle(() => core.prefetchReview(), { timeoutMs: START_UP_IDLE_TIMEOUT_MS })
          },
        )
  return widget
}

export type StartedWidget = ReturnType<typeof startWidget>
