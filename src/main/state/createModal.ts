import { createStore } from 'zustand/vanilla'

export type ModalState = {
  open: boolean
  loading: boolean
  shake: boolean
  namespace: string | undefined
  loadingNamespaceMap: Record<string, boolean>
  /** Opens asked for that could not happen: the widget's code did not load (the UI says so). */
  failedOpens: number
}

export const SHAKE_DURATION_MS = 500
export const IMAGE_PRELOAD_WAIT_MS = 2_000

type Timers = { setTimeout: (run: () => void, ms: number) => unknown; clearTimeout: (timer: unknown) => void }
const realTimers: Timers = { setTimeout: (run, ms) => setTimeout(run, ms), clearTimeout: (t) => clearTimeout(t as ReturnType<typeof setTimeout>) }

/** Loads images, resolving when all settled or after `timeoutMs`, whichever comes first; never rejects. */
export function preloadImages(
  urls: readonly string[],
  { timeoutMs = IMAGE_PRELOAD_WAIT_MS, load, timers = realTimers }: { timeoutMs?: number; load: (url: string) => Promise<unknown>; timers?: Timers },
): Promise<void> {
  if (urls.length === 0) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = timers.setTimeout(resolve, timeoutMs)
    void Promise.allSettled(urls.map((url) => load(url))).then(() => {
      timers.clearTimeout(timer)
      resolve()
    })
  })
}

/**
 * The modal's open state (SPEC §4): opening sets loading while images are preloaded (up to 2,000 ms); shake is a
 * flag that resets after 500 ms.
 */
export function createModal({ timers = realTimers }: { timers?: Timers } = {}) {
  const store = createStore<ModalState>()(() => ({ open: false, loading: false, shake: false, namespace: undefined, loadingNamespaceMap: {}, failedOpens: 0 }))
  let shakeTimer: unknown
  let openSeq = 0
  return {
    store,
    async open({ namespace, preload }: { namespace?: string; preload?: () => Promise<void> } = {}) {
      const seq = ++openSeq
      store.setState({ open: true, loading: preload !== undefined, namespace })
      if (!preload) return
      await preload().catch(() => {})
      if (seq === openSeq) store.setState({ loading: false })
    },
    close() {
      openSeq++
      timers.clearTimeout(shakeTimer)
      store.setState({ open: false, loading: false, shake: false })
    },
    /** An open was asked for and cannot happen: the widget's code did not load. */
    openFailed() {
      store.setState((s) => ({ failedOpens: s.failedOpens + 1 }))
    },
    shake() {
      timers.clearTimeout(shakeTimer)
      store.setState({ shake: true })
      shakeTimer = timers.setTimeout(() => store.setState({ shake: false }), SHAKE_DURATION_MS)
    },
    setNamespaceLoading(namespace: string, isLoading: boolean) {
      store.setState((s) => ({ loadingNamespaceMap: { ...s.loadingNamespaceMap, [namespace]: isLoading } }))
    },
  }
}

export type Modal = ReturnType<typeof createModal>
