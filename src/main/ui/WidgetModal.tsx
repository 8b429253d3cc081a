import { useEffect, useState } from 'react'
import { whenPageIdle } from '../core/whenPageIdle'
import { useStoreSelector, useWidget, useWidgetState } from '../react/WidgetProvider'
import { widgetLocale, type WidgetLocale } from '../widget/locale'
import { buttonCatalogues } from './i18n/buttons'
import { isLocaleLoaded, loadLocale } from './i18n/loadLocale'
import { loadOnce } from '../lazy/loadOnce'
import { retryingImport } from '../lazy/retryingImport'
import { ShadowRoot } from './ShadowRoot'

/** The first click's code loads once the page is idle, at most this long after the modal mounts. */
const PREFETCH_IDLE_TIMEOUT_MS = 2_000

// Once the modal's code is here it renders at once, in the click that opens it (not through Suspense, whose fallback
// throttle holds a view back about 300 ms even once its chunk is here). The toast's words come with it.
const modalCode = loadOnce(retryingImport(() => import('./Modal/Modal'), 'default'))
const loadModal = modalCode.load

type PrefetchingWidget = { prefetch: () => void; uiSettings: { locale?: string | undefined } }

/**
 * Starts loading what the first click needs before it comes (on hover, focus or idle): the modal, the words of the
 * widget's locale when it is not English, and the widget's connection actions.
 */
export function prefetchModal(widget: PrefetchingWidget) {
  prefetchModalCode(widgetLocale(widget.uiSettings.locale))
  widget.prefetch()
}

/**
 * The modal's code, its CSS parsed and its first view's fonts looked up, and `locale`'s words, ahead of an open; a
 * failure waits for the open, which tries again and says so.
 */
function prefetchModalCode(locale: WidgetLocale) {
  void loadModal().then(
    (modal) => {
      if (typeof document === 'undefined') return
      modal.parseModalCss(document)
      modal.warmModalFonts(document)
    },
    () => {},
  )
  void loadLocale(locale)
}

/**
 * The modal's code and `locale`'s words once both are here (the modal and its toasts show in one language; in English
 * when the locale's words could not load), loaded while `isNeeded` and again at each open; `failures` counts the loads
 * of the code that failed.
 */
function useModalCode(locale: WidgetLocale, isNeeded: boolean, isOpen: boolean) {
  const [isLocaleMissing, setLocaleMissing] = useState(false)
  const loaded = modalCode.loaded()
  const isReady = loaded !== undefined && (isLocaleLoaded(locale) || isLocaleMissing)
  const [, setLoaded] = useState(0)
  const [failures, setFailures] = useState(0)
  useEffect(() => {
    if (isReady || !isNeeded) return
    let isCurrent = true
    Promise.all([loadModal(), loadLocale(locale)]).then(
      () => {
        if (!isCurrent) return
        setLocaleMissing(!isLocaleLoaded(locale))
        setLoaded((n) => n + 1)
      },
      () => isCurrent && setFailures((n) => n + 1),
    )
    return () => {
      isCurrent = false
    }
  }, [locale, isReady, isNeeded, isOpen])
  return { code: isReady ? loaded : undefined, failures }
}

/** Mounts the modal (loaded on demand) and the toast, each in the widget's shadow root. */
export function WidgetModal() {
  const widget = useWidget()
  const isOpen = useStoreSelector(widget.modal.store, (s) => s.open)
  const toast = useStoreSelector(widget.notifications.store, (s) => s)
  const themeMode = useWidgetState((s) => s.themeMode)
  // The views read the checked config: an open modal shows once the widget has started (an open() asked for before
  // waits). A closed one does not render again when the widget starts.
  const canShow = useWidgetState((s) => !isOpen || s.isStarted)
  const locale = widgetLocale(widget.uiSettings.locale)
  // The modal's shadow root is made with its first open or toast; its code loads once the widget has started and the
  // page is idle (two idle periods, the modal's code and then the connection's: each task stays short on a busy page).
  useEffect(() => {
    let cancel = () => {}
    const prefetchWhenIdle = () => {
      cancel = whenPageIdle(
        () => {
          prefetchModalCode(locale)
          cancel = whenPageIdle(() => widget.prefetch(), { timeoutMs: PREFETCH_IDLE_TIMEOUT_MS })
        },
        { timeoutMs: PREFETCH_IDLE_TIMEOUT_MS },
      )
    }
    // Watched outside React: a closed modal does not render for the start.
    if (widget.getState().isStarted) prefetchWhenIdle()
    else {
      const unsubscribe = widget.subscribe(
        (s) => s.isStarted,
        (isStarted) => {
          if (!isStarted) return
          unsubscribe()
          prefetchWhenIdle()
        },
      )
      cancel = unsubscribe
    }
    return () => cancel()
  }, [widget, locale])
  // An EVM account connected: a site's request will likely be reviewed, so its view loads once the page is idle.
  const isEvmConnected = useWidgetState((s) => s.namespaces.eip155?.status === 'connected')
  useEffect(() => {
    if (!isEvmConnected || widget.config.review === false) return
    return whenPageIdle(() => void loadModal().then((code) => code.prefetchReview(), () => {}), { timeoutMs: PREFETCH_IDLE_TIMEOUT_MS })
  }, [widget, isEvmConnected])
  const { code, failures } = useModalCode(locale, isOpen || toast.open, isOpen)
  // The modal's code could not load for an open (offline, or the site deployed anew without the old chunks): the open
  // is answered as a close is (a request waiting on the modal is declined), and the visitor is told, in their language.
  useEffect(() => {
    if (failures === 0 || !widget.modal.store.getState().open) return
    widget.close()
    widget.notifications.show(buttonCatalogues[locale].modalUnavailable, { variant: 'error' })
  }, [widget, failures, locale])
  // The widget's own code could not load for an open: no modal to close, the visitor is told the same.
  const failedOpens = useStoreSelector(widget.modal.store, (s) => s.failedOpens)
  useEffect(() => {
    if (failedOpens > 0) widget.notifications.show(buttonCatalogues[locale].modalUnavailable, { variant: 'error' })
  }, [widget, failedOpens, locale])
  if (!isOpen && !toast.open) return null
  return (
    <ShadowRoot themeMode={themeMode} themeVariables={widget.uiSettings.themeVariables} nonce={widget.uiSettings.cspNonce}>
      {isOpen && canShow && code ? <code.default /> : null}
      {toast.open ? (
        <div className="toast" role={toast.variant === 'error' ? 'alert' : 'status'} data-variant={toast.variant}>
          {code ? <code.ToastText toast={toast} /> : toast.message}
        </div>
      ) : null}
    </ShadowRoot>
  )
}
