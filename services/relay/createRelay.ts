import { createHash, randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { WebSocketServer, type WebSocket } from 'ws'
import { verifyClientJwt } from './verifyClientJwt'

export type RelayLimits = {
  maxSubscriptionsPerClient: number
  maxMessagesPerTopic: number
  maxMessageBytes: number
  maxTtlS: number
}

const defaultLimits: RelayLimits = { maxSubscriptionsPerClient: 1_000, maxMessagesPerTopic: 200, maxMessageBytes: 64 * 1024, maxTtlS: 30 * 24 * 3_600 }

type Stored = { id: string; topic: string; message: string; tag: number; publishedAt: number; expiresAt: number; from: Client }
type Client = { socket: WebSocket; subscriptions: Map<string, string>; publicKey: string }
type JsonRpcRequest = { id: number | string; jsonrpc: '2.0'; method: string; params?: Record<string, unknown> }

const RPC = { parse: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, limit: -32005, unauthorized: 3000 }

class RpcFailure extends Error {
  constructor(readonly code: number, message: string) {
    super(message)
  }
}

const subscriptionId = (topic: string, client: Client) => createHash('sha256').update(`${topic}:${client.publicKey}`).digest('hex')

/**
 * A WalletConnect relay for the local stack (the protocol of @walletconnect/core 2.x): irn_subscribe,
 * irn_batchSubscribe, irn_unsubscribe, irn_publish, irn_batchFetchMessages, the wc_proposeSession and wc_approveSession
 * publish methods with their implicit subscriptions, and irn_subscription pushes. Messages stay until their TTL; a
 * sender never gets its own messages back. Clients authenticate with their JWT; malformed frames get a JSON-RPC
 * error and never stop the relay; subscriptions, mailboxes and message sizes are bounded.
 * @example const relay = createRelay({ port: 8790 }); … await relay.close()
 */
export function createRelay({ host = '127.0.0.1', port, limits: limitOverrides = {}, now = Date.now }: { host?: string; port: number; limits?: Partial<RelayLimits>; now?: () => number }) {
  const limits = { ...defaultLimits, ...limitOverrides }
  const server = new WebSocketServer({ host, port, maxPayload: limits.maxMessageBytes * 2 })
  const mailboxes = new Map<string, Stored[]>()
  const clients = new Set<Client>()

  const live = (topic: string) => {
    const box = (mailboxes.get(topic) ?? []).filter((m) => m.expiresAt > now())
    if (box.length) mailboxes.set(topic, box)
    else mailboxes.delete(topic)
    return box
  }

  const push = (client: Client, stored: Stored) => {
    const id = client.subscriptions.get(stored.topic)
    if (!id || stored.from === client || client.socket.readyState !== client.socket.OPEN) return
    client.socket.send(
      JSON.stringify({ id: Number(`${Date.now()}${Math.floor(Math.random() * 1_000)}`), jsonrpc: '2.0', method: 'irn_subscription', params: { id, data: { topic: stored.topic, message: stored.message, publishedAt: stored.publishedAt, tag: stored.tag } } }),
    )
  }

  const subscribe = (client: Client, topic: unknown) => {
    if (typeof topic !== 'string' || !/^[0-9a-f]{64}$/.test(topic)) throw new RpcFailure(RPC.invalidParams, 'topic: expected 64 hex characters')
    if (!client.subscriptions.has(topic) && client.subscriptions.size >= limits.maxSubscriptionsPerClient) {
      throw new RpcFailure(RPC.limit, `at most ${limits.maxSubscriptionsPerClient} subscriptions per client`)
    }
    const id = subscriptionId(topic, client)
    client.subscriptions.set(topic, id)
    return id
  }

  const publish = (client: Client, { topic, message, ttl, tag }: { topic: unknown; message: unknown; ttl: unknown; tag: unknown }) => {
    if (typeof topic !== 'string' || !/^[0-9a-f]{64}$/.test(topic)) throw new RpcFailure(RPC.invalidParams, 'topic: expected 64 hex characters')
    if (typeof message !== 'string' || message.length === 0) throw new RpcFailure(RPC.invalidParams, 'message: expected a non-empty string')
    if (message.length > limits.maxMessageBytes) throw new RpcFailure(RPC.limit, `message: at most ${limits.maxMessageBytes} bytes`)
    const ttlS = typeof ttl === 'number' && ttl > 0 ? Math.min(ttl, limits.maxTtlS) : 300
    const stored: Stored = { id: randomUUID(), topic, message, tag: typeof tag === 'number' ? tag : 0, publishedAt: now(), expiresAt: now() + ttlS * 1_000, from: client }
    const box = live(topic)
    box.push(stored)
    mailboxes.set(topic, box.slice(-limits.maxMessagesPerTopic))
    for (const other of clients) push(other, stored)
    return true
  }

  const handle = (client: Client, request: JsonRpcRequest): unknown => {
    const params = (request.params ?? {}) as Record<string, unknown>
    switch (request.method) {
      case 'irn_subscribe': {
        const id = subscribe(client, params.topic)
        queueMicrotask(() => live(params.topic as string).forEach((m) => push(client, m)))
        return id
      }
      case 'irn_batchSubscribe': {
        if (!Array.isArray(params.topics)) throw new RpcFailure(RPC.invalidParams, 'topics: expected a list')
        return params.topics.map((topic) => subscribe(client, topic))
      }
      case 'irn_unsubscribe':
        if (typeof params.topic !== 'string') throw new RpcFailure(RPC.invalidParams, 'topic: expected a string')
        client.subscriptions.delete(params.topic)
        return true
      case 'irn_publish':
        return publish(client, { topic: params.topic, message: params.message, ttl: params.ttl, tag: params.tag })
      case 'irn_batchFetchMessages': {
        if (!Array.isArray(params.topics)) throw new RpcFailure(RPC.invalidParams, 'topics: expected a list')
        const messages = params.topics.flatMap((topic) =>
          typeof topic === 'string' ? live(topic).filter((m) => m.from !== client).map((m) => ({ topic: m.topic, message: m.message, publishedAt: m.publishedAt, tag: m.tag })) : [],
        )
        return { messages, hasMore: false }
      }
      case 'wc_proposeSession':
        // The dApp publishes its proposal on the pairing topic and listens there for the answer.
        subscribe(client, params.pairingTopic)
        return publish(client, { topic: params.pairingTopic, message: params.sessionProposal, ttl: params.ttl, tag: params.tag })
      case 'wc_approveSession':
        // The wallet answers on the pairing topic, settles on the session topic, and listens on the session topic.
        subscribe(client, params.sessionTopic)
        publish(client, { topic: params.pairingTopic, message: params.sessionProposalResponse, ttl: params.ttl, tag: 1101 })
        return publish(client, { topic: params.sessionTopic, message: params.sessionSettlementRequest, ttl: params.ttl, tag: 1102 })
      default:
        throw new RpcFailure(RPC.methodNotFound, `Method not found: ${request.method}`)
    }
  }

  server.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    const url = new URL(request.url ?? '/', `http://${host}`)
    let publicKey: string
    try {
      publicKey = verifyClientJwt(url.searchParams.get('auth') ?? '').iss
    } catch (error) {
      socket.close(4001, (error as Error).message.slice(0, 120))
      return
    }
    const client: Client = { socket, subscriptions: new Map(), publicKey }
    clients.add(client)
    socket.on('close', () => clients.delete(client))
    socket.on('error', () => clients.delete(client))
    socket.on('message', (data) => {
      let request: JsonRpcRequest
      try {
        request = JSON.parse(data.toString()) as JsonRpcRequest
      } catch {
        socket.send(JSON.stringify({ id: null, jsonrpc: '2.0', error: { code: RPC.parse, message: 'Parse error: the frame is not JSON' } }))
        return
      }
      if (typeof request !== 'object' || request === null || (typeof request.id !== 'number' && typeof request.id !== 'string')) {
        socket.send(JSON.stringify({ id: null, jsonrpc: '2.0', error: { code: RPC.invalidRequest, message: 'Invalid request: id and method are required' } }))
        return
      }
      if (typeof request.method !== 'string') {
        if ('result' in request || 'error' in request) return // an ack of one of our pushes
        socket.send(JSON.stringify({ id: request.id, jsonrpc: '2.0', error: { code: RPC.invalidRequest, message: 'Invalid request: method is required' } }))
        return
      }
      try {
        socket.send(JSON.stringify({ id: request.id, jsonrpc: '2.0', result: handle(client, request) }))
      } catch (error) {
        const code = error instanceof RpcFailure ? error.code : -32603
        socket.send(JSON.stringify({ id: request.id, jsonrpc: '2.0', error: { code, message: (error as Error).message } }))
      }
    })
  })

  const ready = new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve())
    server.once('error', reject)
  })
  return {
    url: `ws://${host}:${port}`,
    ready,
    clientCount: () => clients.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of clients) client.socket.terminate()
        server.close(() => resolve())
      }),
  }
}

export type Relay = ReturnType<typeof createRelay>
