import type { CoreState, CoreStateSlice, MessageTarget, SlicePatch } from '../../shared/protocol/core/coreState'
import type { CoreStore } from './coreStore'

function diffSlices(prev: CoreState, next: CoreState): SlicePatch[] {
  const patches: SlicePatch[] = []
  for (const slice of Object.keys(next) as CoreStateSlice[]) {
    const before = prev[slice] as Record<string, unknown>
    const after = next[slice] as Record<string, unknown>
    if (before === after) continue
    const set: Record<string, unknown> = {}
    for (const key of Object.keys(after)) if (after[key] !== before[key]) set[key] = after[key]
    const remove = Object.keys(before).filter((key) => !(key in after))
    if (Object.keys(set).length > 0 || remove.length > 0) patches.push({ slice, set, remove })
  }
  return patches
}

/**
 * Sends the store to the main thread: a snapshot first, then every change as per-entry patches, all the changes
 * of one tick in one message. Returns the function that stops publishing.
 */
export function publishStore(store: CoreStore, target: MessageTarget, { schedule = queueMicrotask } = {}) {
  let version = 0
  let sent = store.getState()
  let isScheduled = false
  target.postMessage({ kind: 'snapshot', version, state: sent })

  const flush = () => {
    isScheduled = false
    const next = store.getState()
    const patches = diffSlices(sent, next)
    sent = next
    if (patches.length > 0) target.postMessage({ kind: 'patch', version: ++version, patches })
  }
  return store.subscribe(() => {
    if (isScheduled) return
    isScheduled = true
    schedule(flush)
  })
}
