import type { EIP1193Provider } from 'viem'

/** EIP-6963 provider info. */
export type InjectedProviderInfo = { uuid: string; name: string; icon: string; rdns: string }

export type InjectedProviderDetail = { info: InjectedProviderInfo; provider: EIP1193Provider; isAnnounced: boolean }

type WindowLike = Pick<Window, 'addEventListener' | 'removeEventListener' | 'dispatchEvent'> & { ethereum?: unknown }

const isProvider = (value: unknown): value is EIP1193Provider =>
  typeof value === 'object' && value !== null && typeof (value as { request?: unknown }).request === 'function'

const isInfo = (value: unknown): value is InjectedProviderInfo => {
  const info = value as Partial<InjectedProviderInfo> | null
  return (
    typeof info === 'object' && info !== null &&
    typeof info.uuid === 'string' && info.uuid.length > 0 &&
    typeof info.name === 'string' && info.name.length > 0 &&
    typeof info.rdns === 'string' && info.rdns.length > 0 &&
    typeof info.icon === 'string' && /^data:image\//.test(info.icon)
  )
}

/** The legacy window.ethereum, listed only when no wallet announced itself. */
export const legacyInjectedInfo: InjectedProviderInfo = { uuid: 'injected', name: 'Browser Wallet', icon: '', rdns: 'injected' }

/**
 * Finds injected wallets: EIP-6963 announcements (late ones included, one entry per rdns) and, when none
 * announced itself, the legacy `window.ethereum`. Announcements with a malformed info or provider are ignored.
 * @example const discovery = discoverInjected(window); discovery.subscribe((wallets) => render(wallets))
 */
export function discoverInjected(target: WindowLike) {
  const announced = new Map<string, InjectedProviderDetail>()
  const listeners = new Set<(providers: InjectedProviderDetail[]) => void>()
  let snapshot: InjectedProviderDetail[] = []

  const compute = (): InjectedProviderDetail[] => {
    if (announced.size > 0) return [...announced.values()]
    return isProvider(target.ethereum) ? [{ info: legacyInjectedInfo, provider: target.ethereum, isAnnounced: false }] : []
  }
  const refresh = () => {
    snapshot = compute()
    for (const listener of listeners) listener(snapshot)
  }
  const onAnnounce = (event: Event) => {
    const detail = (event as CustomEvent<unknown>).detail as { info?: unknown; provider?: unknown } | null
    if (!detail || !isInfo(detail.info) || !isProvider(detail.provider)) return
    const existing = announced.get(detail.info.rdns)
    if (existing?.provider === detail.provider && existing.info.uuid === detail.info.uuid) return
    announced.set(detail.info.rdns, { info: { ...detail.info }, provider: detail.provider, isAnnounced: true })
    refresh()
  }

  target.addEventListener('eip6963:announceProvider', onAnnounce)
  target.dispatchEvent(new Event('eip6963:requestProvider'))
  snapshot = compute()

  return {
    getProviders: () => snapshot,
    subscribe(listener: (providers: InjectedProviderDetail[]) => void) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    stop() {
      target.removeEventListener('eip6963:announceProvider', onAnnounce)
      listeners.clear()
    },
  }
}

export type InjectedDiscovery = ReturnType<typeof discoverInjected>
