import { describe, expect, it } from 'vitest'
import { createCoreStore } from '../../worker/state/coreStore'
import type { StoreMessage } from '../../shared/protocol/core/coreState'
import { publishStore } from '../../worker/state/publishStore'
import { createStoreMirror } from './createStoreMirror'

function connect() {
  const worker = createCoreStore()
  const mirror = createStoreMirror()
  const messages: StoreMessage[] = []
  const stop = publishStore(worker, {
    postMessage: (message) => {
      const copy = structuredClone(message)
      messages.push(copy)
      mirror.apply(copy)
    },
  })
  return { worker, mirror, messages, stop, tick: () => new Promise<void>((resolve) => queueMicrotask(resolve)) }
}

describe('worker store → main mirror', () => {
  it('starts from a snapshot and follows patches', async () => {
    const { worker, mirror, tick } = connect()
    worker.setState((s) => ({ blockNumbers: { ...s.blockNumbers, '31337': 5n } }))
    await tick()
    expect(mirror.store.getState().blockNumbers).toEqual({ '31337': 5n })
  })

  it('sends all the changes of one tick in one message, with only the changed entries', async () => {
    const { worker, messages, tick } = connect()
    worker.setState({ blockNumbers: { '1': 1n, '2': 7n } })
    worker.setState((s) => ({ blockNumbers: { ...s.blockNumbers, '1': 2n } }))
    await tick()
    worker.setState((s) => ({ blockNumbers: { ...s.blockNumbers, '1': 3n } }))
    await tick()
    expect(messages.map((m) => m.kind)).toEqual(['snapshot', 'patch', 'patch'])
    expect(messages[2]).toEqual({ kind: 'patch', version: 2, patches: [{ slice: 'blockNumbers', set: { '1': 3n }, remove: [] }] })
  })

  it('keeps the identity of unchanged data, even when the worker re-sends an equal value', async () => {
    const { worker, mirror, tick } = connect()
    const balance = { caipNetworkId: 'eip155:1', owner: '0xa', token: null, value: 10n, updatedAt: 1 }
    worker.setState({ balances: { a: balance, b: { ...balance, owner: '0xb' } } })
    await tick()
    const before = mirror.store.getState()
    worker.setState({ balances: { a: { ...balance }, b: { ...balance, owner: '0xb', value: 11n } } })
    await tick()
    const after = mirror.store.getState()
    expect(after.balances.a).toBe(before.balances.a)
    expect(after.balances.b).not.toBe(before.balances.b)
    expect(after.blockNumbers).toBe(before.blockNumbers)

    let notified = 0
    mirror.store.subscribe(() => notified++)
    worker.setState({ balances: { a: { ...balance }, b: { ...balance, owner: '0xb', value: 11n } } })
    await tick()
    expect(mirror.store.getState()).toBe(after)
    expect(notified).toBe(0)
  })

  it('removes entries the worker removed', async () => {
    const { worker, mirror, tick } = connect()
    worker.setState({ blockNumbers: { '1': 1n, '2': 2n } })
    await tick()
    worker.setState({ blockNumbers: { '2': 2n } })
    await tick()
    expect(mirror.store.getState().blockNumbers).toEqual({ '2': 2n })
  })

  it('stops publishing', async () => {
    const { worker, messages, stop, tick } = connect()
    stop()
    worker.setState({ blockNumbers: { '1': 1n } })
    await tick()
    expect(messages).toHaveLength(1)
  })

  it('offers no way to write from the main thread', () => {
    const { mirror } = connect()
    expect(Object.keys(mirror.store).sort()).toEqual(['getInitialState', 'getState', 'subscribe'])
  })
})
