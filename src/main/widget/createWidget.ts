import { createStore } from 'zustand/vanilla'
import { subscribeWithSelector } from 'zustand/middleware'
import type { CaipNetworkId, ChainNamespace } from '../../shared/protocol/caip'
import { formatSdkVersion } from '../../shared/protocol/sdkVersion'
import { START_UP_IDLE_TIMEOUT_MS, whenPageIdle, yieldToPage } from '../core/whenPageIdle'
import { retryingImport } from '../lazy/retryingImport'
import { createModal } from '../state/createModal'
import { createNotifications } from '../state/createNotifications'
import { createRouter } from '../state/createRouter'
import { storageKey } from '../storage/storageKey'
import type { WidgetNetwork } from './config'
import type { StartedWidget, StartWidgetParameters } from './startWidget'
import { initialNamespaces, topFields, type WidgetState } from './widgetState'

export type { ConnectionStatus, ConnectorSummary, NamespaceState, RecentWallet, WidgetState } from './widgetState'

/** This package's version, in the SDK version string (type-adapters-version, SPEC §1). */
export const SDK_VERSION = '0.2.0'

/**
 * A library adapter (`tessera/wagmi`, `tessera/ethers`, `tessera/ethers5`): named in the SDK version string, and
 * attached to the widget once it exists (a wagmi config's connector needs the widget, for instance).
 */
export type WidgetAdapter = { type: 'wagmi' | 'ethers' | 'ethers5'; attach?: (widget: Widget) => void }

/**
 * How long a page waits, after its first idle time, for the widget's start (its code, the config check, the core's
 * worker) when nothing needs it sooner: the page's first seconds are its own. A remembered connection, a hover or focus on the widget's button, a
 * component that shows the started widget (startSoon) or any call that needs it starts it before (issue 37).
 */
export const UNHURRIED_START_MS = 2_000

/**
 * Whether this browser remembers a connection the widget should restore at once (the account shows at load). A site's
 * own storage cannot be read without the widget's code: it is taken as remembering one.
 */
function remembersConnection(parameters: Pick<StartWidgetParameters, 'storage'>) {
  if (parameters.storage) return true
  try {
    return globalThis.localStorage?.getItem(storageKey('connectedNamespaces')) != null
  } catch {
    return false
  }
}

const familyNames: Record<ChainNamespace, string> = { eip155: 'eip155', solana: 'solana', bip122: 'bitcoin', polkadot: 'polkadot' }

/** The SDK version's adapters (SPEC §1): the library adapters, then the families other than EVM by their adapter type. */
const sdkAdapterNames = (adapters: readonly WidgetAdapter[], families: readonly ChainNamespace[]) => {
  const names = adapters.map((a) => a.type)
  return [...new Set([...names, ...families.filter((ns) => !(ns === 'eip155' && names.length > 0)).map((ns) => familyNames[ns])])]
}

/** The started widget's code, loaded past the first frame; a failed load is asked for anew by the next call. */
const startWidgetCode = retryingImport(() => import('./startWidget'), 'startWidget')

export type CreateWidgetParameters = StartWidgetParameters & {
  /** Library adapters: `wagmiAdapter` from 'tessera/wagmi', `ethersAdapter` from 'tessera/ethers', … */
  adapters?: readonly WidgetAdapter[]
  /** Whether the page runs on a phone or tablet (no QR code to scan there: wallets open by deep link). Guessed from the user agent by default. */
  isMobile?: boolean
}

/** The networks as the site gave them, until the widget has checked them: only arrays of objects are kept. */
const networksAsGiven = (networks: unknown): WidgetNetwork[] => (Array.isArray(networks) ? networks.filter((n): n is WidgetNetwork => typeof n === 'object' && n !== null) : [])

const stringOrUndefined = (value: unknown) => (typeof value === 'string' ? value : undefined)

/**
 * The locale, theme variables and CSP nonce the UI uses, read from the parameters as given (each only of the type it
 * must have), so that the buttons and a toast render before the widget has started and checked the config.
 */
function uiSettingsOf({ locale, themeVariables, cspNonce }: CreateWidgetParameters) {
  return {
    locale: stringOrUndefined(locale),
    themeVariables: typeof themeVariables === 'object' && themeVariables !== null ? (themeVariables as Record<string, string | number>) : undefined,
    cspNonce: stringOrUndefined(cspNonce),
  }
}

/**
 * The UI `mount()` renders, loaded on its first call: given by the package's `createWidget` (src/main/createWidget.ts),
 * so the widget's code never imports the UI's.
 */
export type WidgetUi = { loadUi?: () => Promise<(widget: Widget, element: Element) => () => void> }

/** Thrown by what needs the started widget when it is used before (see `whenStarted`). */
const notStarted = (member: string) =>
  new Error(`Tessera is still starting: widget.${member} is there once \`await widget.whenStarted()\` resolves (the widget's code loads after the page's first frame).`)

// The started widget's members that the shell only forwards (each one is documented once, in startWidget.ts).
/** Methods that wait for the start: `widget.connect(…)` first loads and starts the widget's code if it has to. */
const waitingForStart = ['ready', 'signIn', 'cancelSignIn', 'getAdapter', 'walletRequest', 'connect', 'disconnect', 'switchNetwork', 'reconnect', 'refreshBalance'] as const satisfies readonly (keyof StartedWidget)[]
// Read from the started widget, these throw `notStarted` before it: values when read, methods when called.
const startedValues = ['config', 'core', 'analytics', 'storage', 'auth', 'walletConnect', 'reviewStore'] as const satisfies readonly (keyof StartedWidget)[]
const startedMethods = ['getActiveNetwork', 'getConnectedConnector', 'setProfileName', 'setActiveNamespace', 'walletImageUrl', 'decideReview', 'reviewRequest'] as const satisfies readonly (keyof StartedWidget)[]

/** Each method as it waits for the start: it returns a promise of what the started widget's method gives. */
type WaitsForStart<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never }
type AnyMethod = (...args: unknown[]) => unknown

/** The forwarders of the members above, over `start()` and `started()` (the started widget, or `notStarted`). */
function forwardedMembers(start: () => Promise<StartedWidget>, started: (member: string) => StartedWidget) {
  const members: Record<string, unknown> = {}
  for (const name of waitingForStart) members[name] = (...args: unknown[]) => start().then((s) => (s[name] as AnyMethod)(...args))
  for (const name of startedMethods) members[name] = (...args: unknown[]) => (started(`${name}()`)[name] as AnyMethod)(...args)
  // Getters, configurable as an object literal's are: tests replace one with vi.spyOn(widget, 'core', 'get').
  for (const name of startedValues) Object.defineProperty(members, name, { get: () => started(name)[name], enumerable: true, configurable: true })
  return members as WaitsForStart<Pick<StartedWidget, (typeof waitingForStart)[number]>> &
    Pick<StartedWidget, (typeof startedMethods)[number]> &
    Readonly<Pick<StartedWidget, (typeof startedValues)[number]>>
}

/**
 * Creates a widget: its state, at once, then its code past the first frame, loaded in the background: the config
 * checked, the core worker, storage and connectors, one connection state per configured chain family. Until it has
 * started the buttons show "Connect Wallet", and what needs it waits for it (`connect`, `open`, …) or says so (`core`,
 * `config`, …). A config that is not valid rejects `whenStarted()` and `ready()` with INVALID_CONFIG (or
 * SIWX_CONFIG_CONFLICT), is logged, and sets `error`. Two widgets on one page share nothing.
 * @example
 * const widget = createWidget({ projectId: 'demo', networks: [tesseraLocal] })
 * widget.open()
 */
export function createWidget(parameters: CreateWidgetParameters, { loadUi }: WidgetUi = {}) {
  const { adapters = [], isMobile = typeof navigator !== 'undefined' && /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent), ...startParameters } = parameters
  const configuredNetworks = networksAsGiven(parameters.networks)

  // The families' starting state, from the networks as given (the config check follows; storage is read once the
  // widget has started and the page is idle).
  const networksOfAFamily = configuredNetworks.filter((n) => typeof n.chainNamespace === 'string' && Object.hasOwn(familyNames, n.chainNamespace) && typeof n.caipNetworkId === 'string')
  const { namespaces, activeNamespace } =
    networksOfAFamily.length > 0 ? initialNamespaces({ networks: networksOfAFamily, defaultNetwork: stringOrUndefined(parameters.defaultNetwork) }) : { namespaces: {}, activeNamespace: 'eip155' as const }
  const activeFamily = namespaces[activeNamespace]
  const sdkVersion = formatSdkVersion({ type: 'react', adapters: sdkAdapterNames(adapters, [...new Set(networksOfAFamily.map((n) => n.chainNamespace))]), version: SDK_VERSION })
  const store = createStore<WidgetState>()(
    subscribeWithSelector(
      (): WidgetState => ({
        isStarted: false,
        status: 'disconnected',
        connectorId: undefined,
        address: undefined,
        caipAddress: undefined,
        allAccounts: [],
        activeCaipNetworkId: '' as CaipNetworkId,
        connectedWalletInfo: undefined,
        profileName: undefined,
        profileImage: undefined,
        ...(activeFamily && (topFields(activeFamily) as Partial<WidgetState>)),
        activeNamespace,
        namespaces,
        isSwitchingNamespace: false,
        requestedCaipNetworkIds: networksOfAFamily.map((n) => n.caipNetworkId as CaipNetworkId),
        connectors: [],
        recentWallets: [],
        themeMode: parameters.themeMode === 'light' ? 'light' : 'dark',
        siwxError: undefined,
        error: undefined,
        wcUri: undefined,
        wcPairingExpiry: undefined,
        wcLinking: undefined,
        wcWallet: undefined,
        wcError: undefined,
      }),
    ),
  )
  const initialState = store.getState()
  const router = createRouter()
  const modal = createModal()
  const notifications = createNotifications()

  let started: StartedWidget | undefined
  let isDestroyed = false
  /** An open() asked for before the widget started, done once it has (unless closed meanwhile). */
  let pendingOpen: Parameters<StartedWidget['open']>[0] | undefined
  const startedOrThrow = (member: string) => {
    if (!started) throw notStarted(member)
    return started
  }
  let starting: Promise<StartedWidget> | undefined
  /** Loads and starts the widget's code: once the page is idle after its first frame, or when something needs it first. */
  const start = () => {
    if (starting) return starting
    cancelScheduledStart()
    const code = startWidgetCode().catch((cause: unknown) => {
      // A failed download (offline, a deploy that replaced the files) is tried again by the next call that needs it. The
      // error table's WIDGET_CODE_NOT_LOADED, written out: the table would weigh on the page's first script.
      starting = undefined
      throw Object.assign(new Error("Tessera's code could not be loaded: check the connection, then try again or reload the page."), { code: 'WIDGET_CODE_NOT_LOADED', cause })
    })
    starting = code.then(async ({ startWidget }) => {
      // The code's evaluation (zod, the schemas) and the start (the config check, the controllers) are two tasks.
      await yieldToPage()
      const widgetStarted = startWidget(startParameters, { store, initialState, router, modal, notifications, isMobile, sdkVersion, widget })
      if (isDestroyed) {
        widgetStarted.destroy()
        return widgetStarted
      }
      started = widgetStarted
      // A failed download before this one is no longer what is wrong.
      if (store.getState().error?.code === 'WIDGET_CODE_NOT_LOADED') store.setState({ error: undefined })
      if (pendingOpen) started.open(pendingOpen)
      pendingOpen = undefined
      return widgetStarted
    })
    starting.catch((error: unknown) => {
      const { code = 'SOMETHING_WENT_WRONG', message = String(error) } = error as { code?: string; message?: string }
      store.setState({ error: { code, message } })
      console.error(error)
      // The visitor asked for the modal and the code did not come: the UI tells them (the next open tries again).
      if (pendingOpen && code === 'WIDGET_CODE_NOT_LOADED') modal.openFailed()
      pendingOpen = undefined
    })
    return starting
  }
  let cancelScheduledStart = () => {}
  /** Starts the widget once the page is idle (after the work and the frame it has queued), unless it has started. */
  const startSoon = () => {
    if (starting) return
    cancelScheduledStart()
    cancelScheduledStart = whenPageIdle(() => void start(), { timeoutMs: START_UP_IDLE_TIMEOUT_MS })
  }
  // On a server (server rendering: no window) nothing starts by itself; a call that needs the started widget starts it.
  // Storage is looked at once the page is idle: a first localStorage access can wait 30–60 ms on the browser process.
  if ((parameters.window ?? globalThis.window) !== undefined) {
    cancelScheduledStart = whenPageIdle(
      () => {
        if (remembersConnection(startParameters)) return void start()
        const timer = setTimeout(startSoon, UNHURRIED_START_MS)
        cancelScheduledStart = () => clearTimeout(timer)
      },
      { timeoutMs: START_UP_IDLE_TIMEOUT_MS },
    )
  }

  /** What `mount()` rendered, unmounted by destroy(). */
  const mounted = new Set<() => void>()
  // The members the shell only forwards, then those it has itself.
  const widget = Object.assign(forwardedMembers(start, startedOrThrow), {
    /** The SDK version string sent to our services (SPEC §1, §7), e.g. `react-wagmi,solana-0.2.0`. */
    sdkVersion,
    /** Whether the page runs on a phone or tablet: wallets open by deep link there, not by QR code. */
    isMobile,
    /** The modal's view and its history. */
    router,
    /** The modal's state: open, loading, the family it lists. */
    modal,
    /** The widget's toast. */
    notifications,
    /** The locale, theme variables and CSP nonce of the UI (see uiSettingsOf). */
    uiSettings: uiSettingsOf(parameters),
    /** Resolves once the widget has started: its code loaded, the config checked. */
    whenStarted: async () => void (await start()),
    /** Starts the widget once the page is idle: for UI that shows the started widget (the network button, a wallet list). */
    startSoon,
    /** Loads what the first click will need (the connection actions); the UI calls it on idle, hover and focus. */
    prefetch: () => void start().then((s) => s.prefetch(), () => {}),
    /** The current state: the active family's account and network at the top, every family's under `namespaces`. */
    getState: store.getState,
    /** Calls listener when the selected part of the state changes. */
    subscribe: <T>(selector: (state: WidgetState) => T, listener: (selected: T, previous: T) => void) => store.subscribe(selector, listener),
    /** The state's zustand store (what `getState` and `subscribe` read). */
    store,
    /** The site's networks: as checked once started, as given before. */
    getNetworks: (): WidgetNetwork[] => started?.getNetworks() ?? configuredNetworks,
    /** Opens the modal (once started: asked for before, it opens then). */
    open(options: Parameters<StartedWidget['open']>[0] = {}) {
      if (started) return started.open(options)
      pendingOpen = options
      void start().catch(() => {})
    },
    /** Closes the modal; an open() asked for before the start is dropped. */
    close() {
      pendingOpen = undefined
      if (started) return started.close()
      modal.close()
    },
    /**
     * For pages without React: renders the connect button and the modal into `element` (the UI loads on demand).
     * @example const unmount = await widget.mount(document.getElementById('wallet')!)
     */
    async mount(element: Element) {
      if (!loadUi) throw new Error('This widget was made without its UI: create it with `createWidget` from the package (`tessera`) to mount it.')
      const mountWidget = await loadUi()
      const unmount = mountWidget(widget, element)
      mounted.add(unmount)
      return () => {
        mounted.delete(unmount)
        unmount()
      }
    },
    /** Sets the light or dark theme of the UI. */
    setThemeMode(mode: 'light' | 'dark') {
      store.setState({ themeMode: mode })
    },
    /** Frees everything the widget started: its workers, timers and listeners. */
    destroy() {
      isDestroyed = true
      cancelScheduledStart()
      pendingOpen = undefined
      for (const unmount of mounted) unmount()
      mounted.clear()
      notifications.close()
      modal.close()
      started?.destroy()
    },
  })
  for (const adapter of adapters) adapter.attach?.(widget)
  return widget
}

export type Widget = ReturnType<typeof createWidget>
