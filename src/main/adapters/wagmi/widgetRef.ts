import type { Widget } from '../../widget/createWidget'

/**
 * A widget that may not exist yet. A wagmi config is made before `createWidget` runs (the widget takes the adapter),
 * so its connector and transports hold this and meet the widget when the adapter is attached. A later widget (a
 * remount that made a new one) replaces the earlier.
 */
export type WidgetRef = {
  /** The attached widget; undefined until `createWidget` attaches the adapter. */
  readonly current: Widget | undefined
  /** Resolves with the first attached widget. */
  readonly attached: Promise<Widget>
  set(widget: Widget): void
  /** Calls listener when another widget is attached; returns unsubscribe. */
  subscribe(listener: (widget: Widget) => void): () => void
}

/**
 * Creates a reference to a widget, empty or holding one.
 * @example const widgetRef = createWidgetRef(); const config = createConfig({ connectors: [tessera(widgetRef)], … }); widgetRef.set(createWidget({ … }))
 */
export function createWidgetRef(initial?: Widget): WidgetRef {
  let current = initial
  let resolveAttached: (widget: Widget) => void = () => {}
  const attached = initial ? Promise.resolve(initial) : new Promise<Widget>((resolve) => (resolveAttached = resolve))
  const listeners = new Set<(widget: Widget) => void>()
  return {
    get current() {
      return current
    },
    attached,
    set(widget) {
      if (widget === current) return
      current = widget
      resolveAttached(widget)
      for (const listener of [...listeners]) listener(widget)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}

/** The reference behind a widget or a reference (a widget has `getState`, a reference does not). */
export const toWidgetRef = (source: Widget | WidgetRef): WidgetRef => ('getState' in source ? createWidgetRef(source) : source)
