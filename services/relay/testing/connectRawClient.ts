import WebSocket from 'ws'
import { createClientJwt } from './createClientJwt'

export type RelayReply = { id: number | string | null; result?: unknown; error?: { code: number; message: string } }
export type RelayPush = { topic: string; message: string; publishedAt: number; tag: number }

/**
 * A bare relay client speaking the JSON-RPC of @walletconnect/core by hand, for tests and benchmarks that need what a
 * sign client hides: raw frames, exact errors, a socket that stops reading. The relay refuses a client after the
 * WebSocket opens: `closed` then says the code and reason.
 * @example const client = await connectRawClient(relay.url); await client.request('irn_subscribe', { topic })
 */
export async function connectRawClient(relayUrl: string, { jwt = createClientJwt({ aud: relayUrl }) }: { jwt?: string } = {}) {
  const socket = new WebSocket(`${relayUrl}/?auth=${jwt}`)
  const pending = new Map<number | string, (reply: RelayReply) => void>()
  const pushes: RelayPush[] = []
  /** The subscription id each push came with, in the order of `pushes`. */
  const pushSubscriptionIds: string[] = []
  /** Replies no request of ours was waiting for (errors with id null). */
  const unmatched: RelayReply[] = []
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })))
  void closed.then(() => {
    for (const resolve of pending.values()) resolve({ id: null, error: { code: 0, message: 'closed' } })
    pending.clear()
  })
  socket.on('error', () => {}) // the close event says what happened
  socket.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as RelayReply & { method?: string; params?: { id: string; data: RelayPush } }
    if (frame.method === 'irn_subscription') {
      pushes.push(frame.params!.data)
      pushSubscriptionIds.push(frame.params!.id)
    } else if (frame.id !== null && pending.has(frame.id)) {
      pending.get(frame.id)!(frame)
      pending.delete(frame.id)
    } else unmatched.push(frame)
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    void closed.then(({ code, reason }) => reject(Object.assign(new Error(`closed ${code}: ${reason}`), { code, reason })))
  })
  let nextId = 1
  const request = (method: string, params: Record<string, unknown>) =>
    new Promise<RelayReply>((resolve) => {
      if (socket.readyState !== socket.OPEN) return resolve({ id: null, error: { code: 0, message: 'closed' } })
      const id = nextId++
      pending.set(id, resolve)
      socket.send(JSON.stringify({ id, jsonrpc: '2.0', method, params }))
    })
  return { socket, request, pushes, pushSubscriptionIds, unmatched, closed, close: () => socket.terminate() }
}

export type RawClient = Awaited<ReturnType<typeof connectRawClient>>
