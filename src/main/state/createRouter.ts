import { createStore } from 'zustand/vanilla'
import type { View } from './views'

export type RouteData = Record<string, unknown> | undefined
export type Route = { view: View; data: RouteData }
export type RouterState = Route & { history: Route[] }

/**
 * The modal's router over named views: push, replace, goBack and reset, with a history for the back button.
 * @example const router = createRouter(); router.push('ConnectingExternal', { connectorId })
 */
export function createRouter(initial: View = 'Connect') {
  const store = createStore<RouterState>()(() => ({ view: initial, data: undefined, history: [{ view: initial, data: undefined }] }))
  const go = (history: Route[]) => {
    const top = history[history.length - 1]!
    store.setState({ view: top.view, data: top.data, history })
  }
  return {
    store,
    push: (view: View, data?: RouteData) => go([...store.getState().history, { view, data }]),
    replace: (view: View, data?: RouteData) => go([...store.getState().history.slice(0, -1), { view, data }]),
    /** Back one view; at the first view, stays. */
    goBack: () => {
      const { history } = store.getState()
      if (history.length > 1) go(history.slice(0, -1))
    },
    /** One view and no way back (after a send starts, for instance). */
    reset: (view: View, data?: RouteData) => go([{ view, data }]),
    canGoBack: () => store.getState().history.length > 1,
  }
}

export type Router = ReturnType<typeof createRouter>
