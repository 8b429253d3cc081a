import { lazy, Suspense } from 'react'
import { useStoreSelector, useWidget, useWidgetState } from '../react/WidgetProvider'
import { ShadowRoot } from './ShadowRoot'

const loadModal = () => import('./Modal/Modal')
const Modal = lazy(loadModal)

/** Starts loading the modal's code before the first click (on hover, focus or idle). */
export function prefetchModal() {
  void loadModal()
}

/** Mounts the modal (loaded on demand) and the toast, each in the widget's shadow root. */
export function WidgetModal() {
  const widget = useWidget()
  const isOpen = useStoreSelector(widget.modal.store, (s) => s.open)
  const toast = useStoreSelector(widget.notifications.store, (s) => s)
  const themeMode = useWidgetState((s) => s.themeMode)
  return (
    <ShadowRoot themeMode={themeMode} themeVariables={widget.config.themeVariables}>
      {isOpen ? (
        <Suspense fallback={null}>
          <Modal />
        </Suspense>
      ) : null}
      {toast.open ? (
        <div className="toast" role={toast.variant === 'error' ? 'alert' : 'status'} data-variant={toast.variant}>
          {toast.message}
        </div>
      ) : null}
    </ShadowRoot>
  )
}
