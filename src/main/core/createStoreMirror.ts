import { createStore } from 'zustand/vanilla'
import { replaceEqualDeep } from '../../shared/replaceEqualDeep'
import { initialCoreState, type CoreState, type StoreMessage } from '../../shared/protocol/core/coreState'

/** A read-only zustand store: what React's useStore and useSyncExternalStore need, and no setState. */
export type ReadonlyStore<T> = {
  getState: () => T
  getInitialState: () => T
  subscribe: (listener: (state: T, previous: T) => void) => () => void
}

/**
 * The main thread's mirror of the worker's store. Patches are applied with structural sharing, so an entry the
 * worker re-sent unchanged keeps its identity and selectors over it do not re-render.
 */
export function createStoreMirror() {
  const store = createStore<CoreState>()(() => initialCoreState())
  let version = -1

  const apply = (message: StoreMessage) => {
    if (message.kind === 'snapshot') {
      version = message.version
      store.setState(replaceEqualDeep(store.getState(), message.state), true)
      return
    }
    if (message.version !== version + 1) return
    version = message.version
    const state = store.getState()
    const next = { ...state }
    for (const { slice, set, remove } of message.patches) {
      const current = state[slice] as Record<string, unknown>
      const updated: Record<string, unknown> = { ...current }
      for (const [key, value] of Object.entries(set)) updated[key] = replaceEqualDeep(current[key], value)
      for (const key of remove) delete updated[key]
      ;(next as Record<string, unknown>)[slice] = replaceEqualDeep(current, updated)
    }
    store.setState(replaceEqualDeep(state, next), true)
  }

  const readonly: ReadonlyStore<CoreState> = {
    getState: store.getState,
    getInitialState: store.getInitialState,
    subscribe: store.subscribe,
  }
  return { store: readonly, apply }
}
