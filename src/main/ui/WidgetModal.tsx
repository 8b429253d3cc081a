import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react'
import { whenPageIdle } from '../core/whenPageIdle'
import { useStoreSelector, useWidget, useWidgetState } from '../react/WidgetProvider'
import type { NotificationState } from '../state/createNotifications'
import { widgetLocale, type WidgetLocale } from '../widget/locale'
import { isLocaleLoaded, loadLocale } from './i18n/loadLocale'
import { ShadowRoot } from './ShadowRoot'

/** The first click's code loads once the page is idle, at most this long after the modal mounts. */
const PREFETCH_IDLE_TIMEOUT_MS = 2_000

type ToastTextComponent = ComponentType<{ toast: Pick<NotificationState, 'message' | 'code' | 'params'> }>

// Once the modal's code is here it renders at once: going through Suspense again would wait for React's fallback
// throttle (about 300 ms) even for a module already loaded. The toast's words (in the widget's locale) come with it.
let LoadedModal: ComponentType | undefined
let LoadedToastText: ToastTextComponent | undefined
const loadModal = () =>
  import('./Modal/Modal').then((module) => {
    LoadedModal = module.default
    LoadedToastText = module.ToastText
    return module
  })
const LazyModal = lazy(loadModal)
const LazyToastText = lazy(() => loadModal().then((module) => ({ default: module.ToastText })))

type PrefetchingWidget = { prefetch: () => void; uiSettings: { locale?: string | undefined } }

/**
 * Starts loading what the first click needs before it comes (on hover, focus or idle): the modal, the words of the
 * widget's locale when it is not English, and the widget's connection actions.
 */
export function prefetchModal(widget: PrefetchingWidget) {
  void loadModal()
  void loadLocale(widgetLocale(widget.uiSettings.locale))
  widget.prefetch()
}

/** Whether `locale`'s words are here: the modal and its toasts show once they are, in one language. */
function useIsLocaleLoaded(locale: WidgetLocale, isNeeded: boolean) {
  const [isLoaded, setLoaded] = useState(() => isLocaleLoaded(locale))
  useEffect(() => {
    if (isLoaded || !isNeeded) return
    let isCurrent = true
    void loadLocale(locale).then(() => isCurrent && setLoaded(true))
    return () => {
      isCurrent = false
    }
  }, [locale, isLoaded, isNeeded])
  return isLoaded
}

/** Mounts the modal (loaded on demand) and the toast, each in the widget's shadow root. */
export function WidgetModal() {
  const widget = useWidget()
  const isOpen = useStoreSelector(widget.modal.store, (s) => s.open)
  const toast = useStoreSelector(widget.notifications.store, (s) => s)
  const themeMode = useWidgetState((s) => s.themeMode)
  // The views read the checked config: the modal shows once the widget has started (an open() asked for before waits).
  const isStarted = useWidgetState((s) => s.isStarted)
  // The modal's shadow root is made once the widget has started and the page is idle (or the modal is needed first):
  // the page's first frames have its button and nothing of ours it does not show.
  const [isIdle, setIdle] = useState(false)
  useEffect(() => {
    if (!isStarted) return
    // Two idle periods, the modal's code and then the connection's: each task stays short on a busy page.
    let cancel = whenPageIdle(
      () => {
        setIdle(true)
        void loadModal()
        void loadLocale(widgetLocale(widget.uiSettings.locale))
        cancel = whenPageIdle(() => widget.prefetch(), { timeoutMs: PREFETCH_IDLE_TIMEOUT_MS })
      },
      { timeoutMs: PREFETCH_IDLE_TIMEOUT_MS },
    )
    return () => cancel()
  }, [widget, isStarted])
  // An EVM account connected: a site's request will likely be reviewed, so its view loads once the page is idle.
  const isEvmConnected = useWidgetState((s) => s.namespaces.eip155?.status === 'connected')
  useEffect(() => {
    if (!isEvmConnected || widget.config.review === false) return
    return whenPageIdle(() => void loadModal().then((module) => module.prefetchReview()), { timeoutMs: PREFETCH_IDLE_TIMEOUT_MS })
  }, [widget, isEvmConnected])
  const isLocaleReady = useIsLocaleLoaded(widgetLocale(widget.uiSettings.locale), isIdle || isOpen || toast.open)
  if (!isIdle && !isOpen && !toast.open) return null
  return (
    <ShadowRoot themeMode={themeMode} themeVariables={widget.uiSettings.themeVariables} nonce={widget.uiSettings.cspNonce}>
      {isOpen && isStarted && isLocaleReady && LoadedModal ? <LoadedModal /> : null}
      {isOpen && isStarted && isLocaleReady && !LoadedModal ? (
        <Suspense fallback={null}>
          <LazyModal />
        </Suspense>
      ) : null}
      {toast.open ? (
        <div className="toast" role={toast.variant === 'error' ? 'alert' : 'status'} data-variant={toast.variant}>
          {!isLocaleReady ? (
            toast.message
          ) : LoadedToastText ? (
            <LoadedToastText toast={toast} />
          ) : (
            <Suspense fallback={toast.message}>
              <LazyToastText toast={toast} />
            </Suspense>
          )}
        </div>
      ) : null}
    </ShadowRoot>
  )
}
