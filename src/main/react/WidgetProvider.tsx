import { createContext, useContext, useEffect, useSyncExternalStore, type ReactNode } from 'react'
import type { Widget, WidgetState } from '../widget/createWidget'

const WidgetContext = createContext<Widget | null>(null)

/** Makes a widget available to the hooks and components below it. */
export function WidgetProvider({ widget, children }: { widget: Widget; children: ReactNode }) {
  return <WidgetContext.Provider value={widget}>{children}</WidgetContext.Provider>
}

/** The widget of the nearest WidgetProvider. */
export function useWidget(): Widget {
  const widget = useContext(WidgetContext)
  if (!widget) throw new Error('useWidget must be used inside <WidgetProvider>')
  return widget
}

/** A part of a zustand-like store, re-rendering only when it changes. */
export function useStoreSelector<S, T>(store: { getState: () => S; subscribe: (listener: () => void) => () => void }, selector: (state: S) => T): T {
  return useSyncExternalStore(store.subscribe, () => selector(store.getState()), () => selector(store.getState()))
}

/** A part of the widget's state. */
export function useWidgetState<T>(selector: (state: WidgetState) => T): T {
  return useStoreSelector(useWidget().store, selector)
}

/**
 * Whether the widget has started (its config checked, its controllers made). Asks for the start once the page is idle:
 * for UI that shows what only the started widget knows (the network button, a wallet list), which a page with the
 * connect button alone does not need in its first seconds.
 */
export function useIsStarted(): boolean {
  const widget = useWidget()
  useEffect(() => widget.startSoon(), [widget])
  return useWidgetState((s) => s.isStarted)
}
