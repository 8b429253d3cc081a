import { createStore } from 'zustand/vanilla'
import { initialCoreState, type CoreState } from '../../shared/protocol/core/coreState'

/** The worker's own zustand store, in the shape of CoreState (src/shared/protocol/core/coreState.ts). */
export function createCoreStore() {
  return createStore<CoreState>()(() => initialCoreState())
}

export type CoreStore = ReturnType<typeof createCoreStore>
