import { createInjectedWeb3Connector, type PolkadotConnector } from './createInjectedWeb3Connector'
import type { InjectedWindowProvider } from './injectedWeb3'

export type DiscoverPolkadotWalletsParameters = {
  /** The page whose `injectedWeb3` lists the extensions; none without a window. */
  target: Window | undefined
  /** The site's name the extensions show in their prompt. */
  appName: string
  /**
   * When to look again after start (ms): extensions inject before the page's scripts run, but a late one (or a page
   * that injects its own) is found by these looks and by the page's load event.
   */
  lookAgainAfterMs?: readonly number[]
  setTimer?: (run: () => void, ms: number) => unknown
  clearTimer?: (timer: unknown) => void
}

/** More extensions than this are not read. */
const MAX_EXTENSIONS = 20
/** A key is a short name ('polkadot-js', 'subwallet-js'). */
const validKey = /^[\w .-]{1,64}$/
const forbiddenKeys = new Set(['__proto__', 'prototype', 'constructor'])

/** The injectedWeb3 entries of `target` that have an enable(); never throws. */
function injectedProviders(target: Window | undefined): [string, InjectedWindowProvider][] {
  try {
    const injected = (target as { injectedWeb3?: unknown } | undefined)?.injectedWeb3
    if (typeof injected !== 'object' || injected === null) return []
    return Object.keys(injected)
      .slice(0, MAX_EXTENSIONS)
      .flatMap((key) => {
        if (!validKey.test(key) || forbiddenKeys.has(key)) return []
        const provider = (injected as Record<string, unknown>)[key] as InjectedWindowProvider | null
        return typeof provider === 'object' && provider !== null && typeof provider.enable === 'function' ? [[key, provider] as [string, InjectedWindowProvider]] : []
      })
  } catch {
    return []
  }
}

/**
 * Finds the Polkadot extensions of the page: every `window.injectedWeb3` entry with an `enable`, one connector each.
 * Extensions announce nothing, so the list is read at start, on the page's load event and at a few later times.
 * @example const discovery = discoverPolkadotWallets({ target: window, appName: 'My dApp' }); discovery.subscribe(render)
 */
export function discoverPolkadotWallets({
  target,
  appName,
  lookAgainAfterMs = [500, 2_000],
  setTimer = (run, ms) => setTimeout(run, ms),
  clearTimer = (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
}: DiscoverPolkadotWalletsParameters) {
  const connectors = new Map<string, { provider: InjectedWindowProvider; connector: PolkadotConnector }>()
  const listeners = new Set<(connectors: PolkadotConnector[]) => void>()
  let snapshot: PolkadotConnector[] = []
  let isStopped = false

  const compute = () =>
    injectedProviders(target).map(([key, provider]) => {
      const known = connectors.get(key)
      if (known?.provider === provider) return known.connector
      const connector = createInjectedWeb3Connector({ key, provider, appName })
      connectors.set(key, { provider, connector })
      return connector
    })

  function refresh() {
    if (isStopped) return
    const next = compute()
    if (next.length === snapshot.length && next.every((connector, i) => connector === snapshot[i])) return
    snapshot = next
    for (const listener of listeners) listener(snapshot)
  }

  const onLoad = () => refresh()
  target?.addEventListener?.('load', onLoad)
  const timers = lookAgainAfterMs.map((ms) => setTimer(refresh, ms))
  snapshot = compute()

  return {
    /** The connectors now; the same array until something changes. */
    getConnectors: () => snapshot,
    /** Looks at injectedWeb3 again. */
    refresh,
    subscribe(listener: (connectors: PolkadotConnector[]) => void) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    stop() {
      isStopped = true
      target?.removeEventListener?.('load', onLoad)
      for (const timer of timers) clearTimer(timer)
      listeners.clear()
    },
  }
}

export type PolkadotWalletDiscovery = ReturnType<typeof discoverPolkadotWallets>
