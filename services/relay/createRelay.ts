import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import { verifyClientJwt } from './verifyClientJwt'

/**
 * How much the relay holds, as a whole and per client. A stored message is charged to the client that published it
 * (its did:key, so reconnecting does not reset the account) until it expires, even after that client disconnects: the
 * message is still for its peer. A publish that would pass a per-client limit is refused with a JSON-RPC error
 * (-32005) whose message starts with the limit's name, and nothing is stored. The totals instead make room: the oldest
 * messages relay-wide go first. Keys are free, so refusing at a full total would let a few fresh keys shut every honest
 * pair out for 30 days; dropping the oldest costs at most an offline peer a message it had not fetched (most are pushed
 * at once). A full topic likewise drops its oldest message (see maxMessagesPerTopic). Every byte figure is UTF-8 bytes,
 * never string length.
 */
export type RelayLimits = {
  /** Connections at once; the next one is closed with 1013 and a reason naming this limit. */
  maxClients: number
  maxSubscriptionsPerClient: number
  /**
   * Messages kept per topic. A full topic drops its oldest message for the new one: both peers write to a topic, its
   * oldest messages are the ones its readers most likely have, and a stale backlog must not block a live session.
   */
  maxMessagesPerTopic: number
  /** UTF-8 bytes of one message (`message`, `sessionProposal`, …). */
  maxMessageBytes: number
  /** Topics on which one client has messages stored. */
  maxStoredTopicsPerClient: number
  /** Topics with stored messages, all clients together; past it the oldest messages relay-wide make room. */
  maxStoredTopicsTotal: number
  /** Bytes one client has stored (each message: its UTF-8 bytes plus RECORD_BYTES). */
  maxStoredBytesPerClient: number
  /** Bytes stored, all clients together: what bounds the store's memory; past it the oldest messages make room. */
  maxStoredBytesTotal: number
  minTtlS: number
  maxTtlS: number
  /** Tags are the protocol's u32. */
  maxTag: number
  /** Topics in one irn_batchSubscribe or irn_batchFetchMessages. */
  maxBatchTopics: number
  /** Bytes of messages in one irn_batchFetchMessages answer; the rest comes with the next call (`hasMore: true`). */
  maxFetchBytes: number
  /** A larger request frame is answered with a JSON-RPC error and not parsed; the socket stays open. */
  maxRequestBytes: number
  /** The hard cap (ws `maxPayload`): a larger frame closes the socket with 1009, since ws must not buffer it. */
  maxFrameBytes: number
  /** Bytes waiting in a client's send buffer: past this, the client is not reading and is dropped. */
  maxBufferedBytesPerClient: number
}

const KIB = 1_024
const MIB = 1_024 * KIB

/**
 * Defaults, chosen from what @walletconnect/core 2.25 sends: ttls from THIRTY_SECONDS (wc_pairingPing) to THIRTY_DAYS,
 * at most 500 topics per batch (its batchSubscribeTopicsLimit), messages of a few KiB. An honest dApp or wallet stays
 * far below each; a hostile one can hold at most 4 MiB and 100 topics, and all of them together 64 MiB.
 */
export const defaultRelayLimits: RelayLimits = {
  maxClients: 500,
  maxSubscriptionsPerClient: 1_000,
  maxMessagesPerTopic: 200,
  maxMessageBytes: 64 * KIB,
  maxStoredTopicsPerClient: 100,
  maxStoredTopicsTotal: 10_000,
  maxStoredBytesPerClient: 4 * MIB,
  maxStoredBytesTotal: 64 * MIB,
  minTtlS: 10,
  maxTtlS: 30 * 24 * 3_600,
  maxTag: 0xffff_ffff,
  maxBatchTopics: 500,
  maxFetchBytes: 1 * MIB,
  maxRequestBytes: 256 * KIB,
  maxFrameBytes: 1 * MIB,
  maxBufferedBytesPerClient: 4 * MIB,
}

/**
 * What a stored message costs beyond its own bytes: its record, its topic string and the bookkeeping of its publisher,
 * so a flood of tiny messages (or of fresh client keys) is bounded by the same byte limits.
 */
export const RECORD_BYTES = 512

type Stored = { topic: string; message: string; tag: number; publishedAt: number; expiresAt: number; publisher: string; bytes: number }
type Client = { socket: WebSocket; publicKey: string; subscriptions: Map<string, string>; delivered: WeakSet<Stored> }
type Account = { bytes: number; topics: Map<string, number> }
type JsonRpcRequest = { id: number | string; jsonrpc: '2.0'; method: string; params?: Record<string, unknown> }
type PublishInput = { topic: unknown; message: unknown; ttl: unknown; tag: unknown }

const RPC = { parse: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, limit: -32005 }

class RpcFailure extends Error {
  constructor(readonly code: number, message: string) {
    super(message)
  }
}

const isTopic = (topic: unknown): topic is string => typeof topic === 'string' && /^[0-9a-f]{64}$/.test(topic)
const subscriptionId = (topic: string, client: Client) => createHash('sha256').update(`${topic}:${client.publicKey}`).digest('hex')
const frameOf = (data: RawData) => (Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data))

/** A close reason may hold 123 bytes. */
const closeReason = (text: string) => {
  let reason = text
  while (Buffer.byteLength(reason) > 123) reason = reason.slice(0, -1)
  return reason
}

/** The id of a request we will not parse, read from its first bytes so the client's call fails instead of timing out. */
const requestIdInHead = (frame: Buffer): number | string | null => {
  const match = /^\s*\{[^{[]*?"id"\s*:\s*(\d{1,20}|"[^"\\]{0,128}")/.exec(frame.subarray(0, 512).toString())
  return match ? (JSON.parse(match[1]!) as number | string) : null
}

export type CreateRelayParameters = {
  host?: string
  port: number
  /** The URLs clients are given for this relay: their JWT's `aud` must be one of them. By default `ws://host:port`. */
  publicUrls?: string[]
  limits?: Partial<RelayLimits>
  now?: () => number
  /** How often expired messages are swept from every topic, read or not. */
  sweepIntervalMs?: number
  /** Told when the relay drops a client that stopped reading, with why (the client itself sees 1006: see `send`). */
  onClientDropped?: (event: { publicKey: string; reason: string }) => void
}

/**
 * A WalletConnect relay for the local stack (the protocol of @walletconnect/core 2.x): irn_subscribe,
 * irn_batchSubscribe, irn_unsubscribe, irn_publish, irn_batchFetchMessages, the wc_proposeSession and wc_approveSession
 * publish methods with their implicit subscriptions, and irn_subscription pushes. Messages stay until their TTL and
 * reach each connection at most once; a sender never gets its own messages back. Clients authenticate with their JWT;
 * malformed or oversized frames get a JSON-RPC error and never stop the relay. Its memory is bounded as a whole: see
 * RelayLimits (about 64 MiB of messages, plus per connection at most ~4 MiB unsent, one 1 MiB answer and one 1 MiB frame).
 * @example const relay = createRelay({ port: 8790 }); … relay.relayStats(); await relay.close()
 */
export function createRelay({ host = '127.0.0.1', port, publicUrls, limits: limitOverrides = {}, now = Date.now, sweepIntervalMs = 5_000, onClientDropped }: CreateRelayParameters) {
  const limits = { ...defaultRelayLimits, ...limitOverrides }
  const url = `ws://${host}:${port}`
  const audiences = publicUrls ?? [url]
  // Plain HTTP answers the health check (for a load balancer or an orchestrator) and nothing else.
  const http = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/health') {
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok', service: 'tessera-relay', clients: clients.size }))
    }
    response.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket' }).end('This is a WalletConnect relay: connect with a WebSocket.')
  })
  const server = new WebSocketServer({ server: http, maxPayload: limits.maxFrameBytes })
  const mailboxes = new Map<string, Stored[]>()
  const accounts = new Map<string, Account>()
  const clients = new Set<Client>()
  const totals = { messages: 0, bytes: 0, droppedClients: 0, evictedMessages: 0 }
  /** Every stored message, oldest first (a Set keeps insertion order): what the totals evict from. */
  const byAge = new Set<Stored>()

  const charge = (stored: Stored) => {
    const account = accounts.get(stored.publisher) ?? { bytes: 0, topics: new Map<string, number>() }
    account.bytes += stored.bytes
    account.topics.set(stored.topic, (account.topics.get(stored.topic) ?? 0) + 1)
    accounts.set(stored.publisher, account)
    totals.messages += 1
    totals.bytes += stored.bytes
    byAge.add(stored)
  }

  const release = (stored: Stored) => {
    const account = accounts.get(stored.publisher)!
    account.bytes -= stored.bytes
    const left = account.topics.get(stored.topic)! - 1
    if (left) account.topics.set(stored.topic, left)
    else account.topics.delete(stored.topic)
    if (!account.topics.size) accounts.delete(stored.publisher)
    totals.messages -= 1
    totals.bytes -= stored.bytes
    byAge.delete(stored)
  }

  /** Removes the oldest message relay-wide to make room under the totals. */
  const evictOldest = () => {
    const oldest = byAge.values().next().value
    if (!oldest) return false
    const box = mailboxes.get(oldest.topic)!
    box.splice(box.indexOf(oldest), 1)
    if (!box.length) mailboxes.delete(oldest.topic)
    release(oldest)
    totals.evictedMessages += 1
    return true
  }

  /** A topic's unexpired messages; the expired ones leave the store (and their publisher's account). */
  const live = (topic: string): Stored[] => {
    const box = mailboxes.get(topic)
    if (!box) return []
    const nowMs = now()
    const kept: Stored[] = []
    for (const stored of box) {
      if (stored.expiresAt > nowMs) kept.push(stored)
      else release(stored)
    }
    if (kept.length === box.length) return box
    if (kept.length) mailboxes.set(topic, kept)
    else mailboxes.delete(topic)
    return kept
  }

  const sweep = () => {
    for (const topic of mailboxes.keys()) live(topic)
  }
  // Expiry must not wait for a reader: a topic nobody reads again would keep its messages (and its quota) forever.
  const sweeper = setInterval(sweep, sweepIntervalMs)
  sweeper.unref()

  const drop = (client: Client, reason: string) => {
    clients.delete(client)
    totals.droppedClients += 1
    client.socket.terminate()
    onClientDropped?.({ publicKey: client.publicKey, reason })
  }

  /**
   * Every frame to a client goes through here. A client whose send buffer passes maxBufferedBytesPerClient is not
   * reading: it is terminated at once, which frees what it had buffered. It sees 1006, not a close frame with a reason:
   * that frame would queue behind the very bytes it is not reading. The reason goes to onClientDropped.
   */
  const send = (client: Client, payload: unknown) => {
    if (!clients.has(client) || client.socket.readyState !== client.socket.OPEN) return
    client.socket.send(JSON.stringify(payload))
    const buffered = client.socket.bufferedAmount
    if (buffered > limits.maxBufferedBytesPerClient) {
      drop(client, `maxBufferedBytesPerClient: ${buffered} bytes unread, at most ${limits.maxBufferedBytesPerClient}`)
    }
  }

  const push = (client: Client, stored: Stored) => {
    const id = client.subscriptions.get(stored.topic)
    if (!id || stored.publisher === client.publicKey || client.delivered.has(stored)) return
    client.delivered.add(stored)
    send(client, {
      id: Number(`${Date.now()}${Math.floor(Math.random() * 1_000)}`),
      jsonrpc: '2.0',
      method: 'irn_subscription',
      params: { id, data: { topic: stored.topic, message: stored.message, publishedAt: stored.publishedAt, tag: stored.tag } },
    })
  }

  const batchTopics = (topics: unknown): string[] => {
    if (!Array.isArray(topics)) throw new RpcFailure(RPC.invalidParams, 'topics: expected a list')
    if (topics.length > limits.maxBatchTopics) throw new RpcFailure(RPC.limit, `maxBatchTopics: at most ${limits.maxBatchTopics} topics per call`)
    if (!topics.every(isTopic)) throw new RpcFailure(RPC.invalidParams, 'topics: expected topics of 64 hex characters')
    return topics
  }

  /** Subscribes to all the topics or, if one is invalid or they pass the limit, to none. */
  const subscribe = (client: Client, topics: unknown[]) => {
    if (!topics.every(isTopic)) throw new RpcFailure(RPC.invalidParams, 'topic: expected 64 hex characters')
    const added = new Set(topics.filter((topic) => !client.subscriptions.has(topic)))
    if (client.subscriptions.size + added.size > limits.maxSubscriptionsPerClient) {
      throw new RpcFailure(RPC.limit, `maxSubscriptionsPerClient: at most ${limits.maxSubscriptionsPerClient} subscriptions per client`)
    }
    return topics.map((topic) => {
      const id = subscriptionId(topic, client)
      client.subscriptions.set(topic, id)
      return id
    })
  }

  /**
   * Checks a publish against every limit and stores it, charged to its publisher, making room under the totals;
   * pushing is the caller's. Throws, storing nothing, when the message is invalid or a per-client limit would be passed.
   */
  const store = (client: Client, { topic, message, ttl, tag }: PublishInput, defaultTag: number): Stored => {
    // 1. The request itself.
    if (!isTopic(topic)) throw new RpcFailure(RPC.invalidParams, 'topic: expected 64 hex characters')
    if (typeof message !== 'string' || message.length === 0) throw new RpcFailure(RPC.invalidParams, 'message: expected a non-empty string')
    if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < limits.minTtlS || ttl > limits.maxTtlS) {
      throw new RpcFailure(RPC.invalidParams, `ttl: expected an integer number of seconds from ${limits.minTtlS} to ${limits.maxTtlS}`)
    }
    const checkedTag = tag === undefined ? defaultTag : tag
    if (typeof checkedTag !== 'number' || !Number.isInteger(checkedTag) || checkedTag < 0 || checkedTag > limits.maxTag) {
      throw new RpcFailure(RPC.invalidParams, `tag: expected an integer from 0 to ${limits.maxTag}`)
    }
    const messageBytes = Buffer.byteLength(message, 'utf8')
    if (messageBytes > limits.maxMessageBytes) {
      throw new RpcFailure(RPC.limit, `maxMessageBytes: the message is ${messageBytes} bytes, at most ${limits.maxMessageBytes}`)
    }
    // 2. Room for it: a full topic gives up its oldest message, which frees that message's publisher.
    const box = live(topic)
    const evicted = box.length >= limits.maxMessagesPerTopic ? box[0] : undefined
    const bytes = messageBytes + RECORD_BYTES
    const account = accounts.get(client.publicKey)
    const ownFreed = evicted?.publisher === client.publicKey ? evicted.bytes : 0
    if (!account?.topics.has(topic) && (account?.topics.size ?? 0) >= limits.maxStoredTopicsPerClient) {
      throw new RpcFailure(RPC.limit, `maxStoredTopicsPerClient: messages stored on at most ${limits.maxStoredTopicsPerClient} topics per client until they expire`)
    }
    if ((account?.bytes ?? 0) - ownFreed + bytes > limits.maxStoredBytesPerClient) {
      throw new RpcFailure(RPC.limit, `maxStoredBytesPerClient: at most ${limits.maxStoredBytesPerClient} bytes stored per client until its messages expire`)
    }
    // 3. Room under the totals: the oldest messages relay-wide go (a client's own quota is far below the totals).
    if (evicted) release(box.shift()!)
    const makeRoom = (isFull: () => boolean) => {
      while (isFull()) if (!evictOldest()) return
    }
    makeRoom(() => !box.length && mailboxes.size >= limits.maxStoredTopicsTotal)
    makeRoom(() => totals.bytes + bytes > limits.maxStoredBytesTotal)
    // 4. Store.
    const publishedAt = now()
    const stored: Stored = { topic, message, tag: checkedTag, publishedAt, expiresAt: publishedAt + ttl * 1_000, publisher: client.publicKey, bytes }
    box.push(stored)
    mailboxes.set(topic, box)
    charge(stored)
    return stored
  }

  /** Takes back the message just stored (the second publish of a pair failed). */
  const unstore = (stored: Stored) => {
    const box = mailboxes.get(stored.topic) ?? []
    const index = box.lastIndexOf(stored)
    if (index < 0) return
    box.splice(index, 1)
    release(stored)
    if (!box.length) mailboxes.delete(stored.topic)
  }

  const deliver = (...messages: Stored[]) => {
    for (const stored of messages) for (const other of clients) push(other, stored)
  }

  const handle = (client: Client, request: JsonRpcRequest): unknown => {
    const params = (request.params ?? {}) as Record<string, unknown>
    switch (request.method) {
      case 'irn_subscribe': {
        const [id] = subscribe(client, [params.topic])
        queueMicrotask(() => live(params.topic as string).forEach((stored) => push(client, stored)))
        return id
      }
      case 'irn_batchSubscribe':
        return subscribe(client, batchTopics(params.topics))
      case 'irn_unsubscribe':
        if (typeof params.topic !== 'string') throw new RpcFailure(RPC.invalidParams, 'topic: expected a string')
        client.subscriptions.delete(params.topic)
        return true
      case 'irn_publish':
        deliver(store(client, { topic: params.topic, message: params.message, ttl: params.ttl, tag: params.tag }, 0))
        return true
      case 'irn_batchFetchMessages': {
        // Pages: what this connection was given (pushed or fetched) is not given again, so the next call continues.
        const messages: { topic: string; message: string; publishedAt: number; tag: number }[] = []
        let bytes = 0
        for (const topic of batchTopics(params.topics)) {
          for (const stored of live(topic)) {
            if (stored.publisher === client.publicKey || client.delivered.has(stored)) continue
            if (messages.length && bytes + stored.bytes > limits.maxFetchBytes) return { messages, hasMore: true }
            bytes += stored.bytes
            client.delivered.add(stored)
            messages.push({ topic: stored.topic, message: stored.message, publishedAt: stored.publishedAt, tag: stored.tag })
          }
        }
        return { messages, hasMore: false }
      }
      case 'wc_proposeSession': {
        // The dApp publishes its proposal on the pairing topic and listens there for the answer. Core leaves out the
        // tag here; 1100 is sign-client's own for wc_sessionPropose.
        subscribe(client, [params.pairingTopic])
        deliver(store(client, { topic: params.pairingTopic, message: params.sessionProposal, ttl: params.ttl, tag: params.tag }, 1100))
        return true
      }
      case 'wc_approveSession': {
        // The wallet answers on the pairing topic, settles on the session topic, and listens on the session topic.
        // Both messages are stored or neither.
        subscribe(client, [params.sessionTopic])
        const answer = store(client, { topic: params.pairingTopic, message: params.sessionProposalResponse, ttl: params.ttl, tag: 1101 }, 1101)
        let settlement: Stored
        try {
          settlement = store(client, { topic: params.sessionTopic, message: params.sessionSettlementRequest, ttl: params.ttl, tag: 1102 }, 1102)
        } catch (error) {
          unstore(answer)
          throw error
        }
        deliver(answer, settlement)
        return true
      }
      default:
        throw new RpcFailure(RPC.methodNotFound, `Method not found: ${String(request.method).slice(0, 64)}`)
    }
  }

  const onFrame = (client: Client, frame: Buffer) => {
    if (frame.length > limits.maxRequestBytes) {
      send(client, { id: requestIdInHead(frame), jsonrpc: '2.0', error: { code: RPC.limit, message: `maxRequestBytes: the frame is ${frame.length} bytes, at most ${limits.maxRequestBytes}` } })
      return
    }
    let request: JsonRpcRequest
    try {
      request = JSON.parse(frame.toString()) as JsonRpcRequest
    } catch {
      send(client, { id: null, jsonrpc: '2.0', error: { code: RPC.parse, message: 'Parse error: the frame is not JSON' } })
      return
    }
    if (typeof request !== 'object' || request === null || (typeof request.id !== 'number' && typeof request.id !== 'string')) {
      send(client, { id: null, jsonrpc: '2.0', error: { code: RPC.invalidRequest, message: 'Invalid request: id and method are required' } })
      return
    }
    if (typeof request.method !== 'string') {
      if ('result' in request || 'error' in request) return // an ack of one of our pushes
      send(client, { id: request.id, jsonrpc: '2.0', error: { code: RPC.invalidRequest, message: 'Invalid request: method is required' } })
      return
    }
    let reply: unknown
    try {
      reply = { id: request.id, jsonrpc: '2.0', result: handle(client, request) }
    } catch (error) {
      const code = error instanceof RpcFailure ? error.code : -32603
      reply = { id: request.id, jsonrpc: '2.0', error: { code, message: (error as Error).message } }
    }
    send(client, reply)
  }

  server.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    if (clients.size >= limits.maxClients) {
      socket.close(1013, closeReason(`maxClients: the relay serves at most ${limits.maxClients} clients`))
      return
    }
    const query = new URL(request.url ?? '/', `http://${host}`)
    let publicKey: string
    try {
      publicKey = verifyClientJwt(query.searchParams.get('auth') ?? '', { audiences, nowS: Math.floor(now() / 1_000) }).iss
    } catch (error) {
      socket.close(4001, closeReason((error as Error).message))
      return
    }
    const client: Client = { socket, publicKey, subscriptions: new Map(), delivered: new WeakSet() }
    clients.add(client)
    socket.on('close', () => clients.delete(client))
    socket.on('error', () => clients.delete(client))
    socket.on('message', (data) => onFrame(client, frameOf(data)))
  })

  http.listen(port, host)
  const ready = new Promise<void>((resolve, reject) => {
    http.once('listening', () => resolve())
    http.once('error', (error) => {
      clearInterval(sweeper)
      reject(error)
    })
  })
  return {
    url,
    ready,
    clientCount: () => clients.size,
    /** What the relay holds now: `storedBytes` is what the byte limits count (UTF-8 bytes plus RECORD_BYTES each). */
    relayStats: () => {
      let bufferedBytes = 0
      for (const client of clients) bufferedBytes += client.socket.bufferedAmount
      return {
        clients: clients.size,
        topics: mailboxes.size,
        storedMessages: totals.messages,
        storedBytes: totals.bytes,
        bufferedBytes,
        droppedClients: totals.droppedClients,
        evictedMessages: totals.evictedMessages,
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(sweeper)
        for (const client of clients) client.socket.terminate()
        server.close(() => http.close(() => resolve()))
      }),
  }
}

export type Relay = ReturnType<typeof createRelay>
export type RelayStats = ReturnType<Relay['relayStats']>
