import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import { isDelivered, markDelivered, newDeliveryCursor, startPushesAfter, type DeliveryCursor } from './deliveryCursor'
import { memoryStore } from './memoryStore'
import { RelayStoreUnavailableError, type FetchResult, type FetchTopic, type NewMessage, type RelayStoreFactory, type StoredMessage, type StoreQuotaLimit } from './relayStore'
import { defaultRelayLimits, RECORD_BYTES, type RelayLimits } from './relayLimits'
import { verifyClientJwt } from './verifyClientJwt'

export { defaultRelayLimits, RECORD_BYTES, type RelayLimits } from './relayLimits'

/** How a connection catches up on a topic before its pushes flow: see `sync`. */
type SyncMode = 'backlog' | 'live' | 'fromNow'
type PendingSync = { mode: SyncMode; hasMissed: boolean; isWatched: boolean }
type Client = {
  socket: WebSocket
  publicKey: string
  /** Topic → subscription id. */
  subscriptions: Map<string, string>
  /** Topics the store watches for this connection (each one is unwatched once). */
  watched: Set<string>
  cursors: Map<string, DeliveryCursor>
  /** Topics whose pushes are held back until a fetch brings the connection up to date. */
  syncs: Map<string, PendingSync>
  isSyncing: boolean
  syncRetry?: NodeJS.Timeout
  pendingRequests: number
}
type JsonRpcRequest = { id: number | string; jsonrpc: '2.0'; method: string; params?: Record<string, unknown> }
type PublishInput = { topic: unknown; message: unknown; ttl: unknown; tag: unknown }

const RPC = { parse: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internal: -32603, unavailable: -32002, limit: -32005 }
/** A client's connection is closed with this when the relay shuts down or restarts. */
const SERVICE_RESTART = 1012
const SYNC_RETRY_MS = 1_000

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

/** What a client sees of a stored message, pushed or fetched. */
const dataOf = ({ topic, message, publishedAt, tag }: StoredMessage) => ({ topic, message, publishedAt, tag })

export type CreateRelayParameters = {
  host?: string
  port: number
  /** The URLs clients are given for this relay: their JWT's `aud` must be one of them. By default `ws://host:port`. */
  publicUrls?: string[]
  limits?: Partial<RelayLimits>
  /**
   * Where messages are stored and how they reach other instances: memoryStore() (the default: one instance) or
   * redisStore({ url }) (any number of instances on one Redis).
   */
  store?: RelayStoreFactory
  now?: () => number
  /** How often expired messages are swept from every topic, read or not. */
  sweepIntervalMs?: number
  /** How long close() waits for clients to answer the 1012 close before it cuts them off. */
  drainTimeoutMs?: number
  /** Told when the relay drops a client that stopped reading, with why (the client itself sees 1006: see `send`). */
  onClientDropped?: (event: { publicKey: string; reason: string }) => void
}

/**
 * A WalletConnect relay for the local stack (the protocol of @walletconnect/core 2.x): irn_subscribe,
 * irn_batchSubscribe, irn_unsubscribe, irn_publish, irn_batchFetchMessages, the wc_proposeSession and wc_approveSession
 * publish methods with their implicit subscriptions, and irn_subscription pushes. Messages stay until their TTL and
 * reach each connection at most once; a sender never gets its own messages back. Clients authenticate with their JWT;
 * malformed or oversized frames get a JSON-RPC error and never stop the relay. Its memory is bounded as a whole: see
 * RelayLimits (about 64 MiB of messages in the memory store, none with Redis, plus per connection at most ~4 MiB unsent,
 * one 1 MiB answer, one 1 MiB frame and 16 requests in flight). With a shared store, several instances serve one set of clients: a message
 * published on one is pushed to subscribers on all; a request the store cannot serve gets a JSON-RPC error (-32002).
 * @example const relay = createRelay({ port: 8790, store: redisStore({ url: 'redis://127.0.0.1:6379' }) }); … await relay.close()
 */
export function createRelay({
  host = '127.0.0.1',
  port,
  publicUrls,
  limits: limitOverrides = {},
  store: createStore = memoryStore(),
  now = Date.now,
  sweepIntervalMs = 5_000,
  drainTimeoutMs = 5_000,
  onClientDropped,
}: CreateRelayParameters) {
  const limits = { ...defaultRelayLimits, ...limitOverrides }
  const url = `ws://${host}:${port}`
  const audiences = publicUrls ?? [url]
  const clients = new Set<Client>()
  /** Topic → the connections subscribed to it here. */
  const subscribers = new Map<string, Set<Client>>()
  const totals = { droppedClients: 0 }
  let isClosing = false
  /** The store may have missed messages: every subscription's pushes are held until it says they flow again. */
  let isInterrupted = false

  const store = createStore({
    limits,
    now,
    onMessage: (message) => {
      for (const client of subscribers.get(message.topic) ?? []) push(client, message)
    },
    // Every subscription's pushes are held until it is fetched up to date. A new PendingSync also voids what a sync
    // in flight would conclude from a fetch made before the store missed anything.
    onMessagesInterrupted: () => {
      isInterrupted = true
      for (const client of clients) {
        for (const topic of client.subscriptions.keys()) {
          const mode = client.syncs.get(topic)?.mode ?? 'live'
          client.syncs.set(topic, { mode, hasMissed: true, isWatched: client.watched.has(topic) })
        }
      }
    },
    onMessagesResumed: ({ isDataLost }) => {
      isInterrupted = false
      for (const client of clients) {
        if (isDataLost) client.cursors.clear()
        for (const topic of client.watched) needSync(client, topic, 'live', true)
        void sync(client)
      }
    },
  })

  // Plain HTTP answers the health check (for a load balancer or an orchestrator; /ready is the same) and nothing else.
  // 503 while the store does not answer or the relay drains: the instance should get no new clients.
  const http = createServer((request, response) => {
    if (request.method === 'GET' && (request.url === '/health' || request.url === '/ready')) {
      void store.isAvailable().then((isAvailable) => {
        const status = isClosing ? 'closing' : isAvailable ? 'ok' : 'store unavailable'
        response.writeHead(status === 'ok' ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ status, service: 'tessera-relay', clients: clients.size }))
      })
      return
    }
    response.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket' }).end('This is a WalletConnect relay: connect with a WebSocket.')
  })
  const server = new WebSocketServer({ server: http, maxPayload: limits.maxFrameBytes })

  // Expiry must not wait for a reader: a topic nobody reads again would keep its messages (and its quota) forever.
  const sweeper = setInterval(() => void store.sweep().catch(() => {}), sweepIntervalMs)
  sweeper.unref()

  const drop = (client: Client, reason: string) => {
    forget(client)
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

  const pushFrame = (client: Client, message: StoredMessage) =>
    send(client, {
      id: Number(`${Date.now()}${Math.floor(Math.random() * 1_000)}`),
      jsonrpc: '2.0',
      method: 'irn_subscription',
      params: { id: client.subscriptions.get(message.topic), data: dataOf(message) },
    })

  /** A connection's cursor on a topic; the oldest cursors of topics it no longer subscribes to make room (see markDelivered). */
  const cursorOf = (client: Client, topic: string) => {
    let cursor = client.cursors.get(topic)
    if (cursor) return cursor
    cursor = newDeliveryCursor()
    client.cursors.set(topic, cursor)
    if (client.cursors.size > limits.maxSubscriptionsPerClient + limits.maxBatchTopics) {
      for (const old of client.cursors.keys()) {
        if (client.subscriptions.has(old)) continue
        client.cursors.delete(old)
        break
      }
    }
    return cursor
  }

  /** A new message for a subscriber here. Messages arrive in id order, so the cursor only moves up. */
  const push = (client: Client, message: StoredMessage) => {
    if (!client.subscriptions.has(message.topic)) return
    const cursor = cursorOf(client, message.topic)
    if (message.id <= cursor.pushedUpTo) return // given already, or stored before a batch subscription
    const pending = client.syncs.get(message.topic)
    if (pending) {
      pending.hasMissed = true
      return
    }
    markDelivered(cursor, cursor.pushedUpTo, message.id)
    if (message.publisher !== client.publicKey) pushFrame(client, message)
  }

  /**
   * Hands the messages of a fetched page to `give`, skipping what the connection had, and records what it has now;
   * topics that are no longer `isWanted` are left alone.
   */
  const take = (client: Client, requests: FetchTopic[], page: FetchResult, give: (message: StoredMessage) => void, isWanted = (_topic: string) => true) => {
    for (const message of page.messages) {
      if (isWanted(message.topic) && !isDelivered(client.cursors.get(message.topic) ?? newDeliveryCursor(), message.id)) give(message)
    }
    requests.forEach(({ topic, afterId }, index) => {
      const { examinedUpTo, isComplete } = page.topics[index]!
      const upTo = isComplete ? page.lastId : examinedUpTo
      // Nothing to remember of a topic that had nothing for this connection.
      if (isWanted(topic) && upTo > afterId && (client.cursors.has(topic) || examinedUpTo > afterId)) markDelivered(cursorOf(client, topic), afterId, upTo)
    })
  }

  /**
   * Marks a subscribed topic to be brought up to date. The stronger mode wins: `backlog`, then `fromNow` (which fetches
   * what it missed itself), then `live`.
   */
  const needSync = (client: Client, topic: string, mode: SyncMode, isWatched: boolean) => {
    const pending = client.syncs.get(topic)
    if (!pending) return void client.syncs.set(topic, { mode, hasMissed: false, isWatched })
    const order: SyncMode[] = ['live', 'fromNow', 'backlog']
    if (order.indexOf(mode) > order.indexOf(pending.mode)) pending.mode = mode
    pending.isWatched ||= isWatched
  }

  /**
   * Brings a connection's pending subscriptions up to date, then lets their pushes flow: pushes that arrive meanwhile are
   * held back and fetched again, so none is lost or given twice across instances. Modes:
   * 1. `fromNow` (irn_batchSubscribe and the wc_ publish methods): pushes start after the newest id; older messages are
   *    left for irn_batchFetchMessages, as a WalletConnect client asks for them;
   * 2. `backlog` (irn_subscribe): everything stored that the connection was not given is pushed;
   * 3. `live` (after the store missed messages): what was published since the last push is pushed.
   * A store that fails is tried again a second later; pushes stay held until then.
   */
  const sync = async (client: Client): Promise<void> => {
    if (client.isSyncing) return
    client.isSyncing = true
    clearTimeout(client.syncRetry)
    try {
      for (;;) {
        const ready = [...client.syncs].filter(([, pending]) => pending.isWatched)
        if (!ready.length || !clients.has(client) || isInterrupted) return
        const fromNow = ready.filter(([, pending]) => pending.mode === 'fromNow')
        if (fromNow.length) {
          for (const [, pending] of fromNow) pending.hasMissed = false
          const lastId = await store.lastId()
          for (const [topic, pending] of fromNow) {
            if (client.syncs.get(topic) !== pending || pending.mode !== 'fromNow') continue
            startPushesAfter(cursorOf(client, topic), lastId)
            if (pending.hasMissed) Object.assign(pending, { mode: 'live', hasMissed: false })
            else client.syncs.delete(topic)
          }
          continue
        }
        const batch = ready.slice(0, limits.maxBatchTopics)
        const requests = batch.map(([topic, pending]): FetchTopic => {
          pending.hasMissed = false
          const cursor = cursorOf(client, topic)
          if (pending.mode === 'live') return { topic, afterId: cursor.pushedUpTo }
          return { topic, afterId: cursor.fetchedUpTo, skip: { fromId: cursor.liveFrom, toId: cursor.pushedUpTo } }
        })
        const page = await store.fetch({ topics: requests, reader: client.publicKey, maxBytes: limits.maxFetchBytes })
        const asked = new Map(batch)
        take(client, requests, page, (message) => pushFrame(client, message), (topic) => client.syncs.get(topic) === asked.get(topic))
        batch.forEach(([topic, pending], index) => {
          if (client.syncs.get(topic) === pending && page.topics[index]!.isComplete && !pending.hasMissed) client.syncs.delete(topic)
        })
      }
    } catch {
      if (clients.has(client)) {
        client.syncRetry = setTimeout(() => void sync(client), SYNC_RETRY_MS)
        client.syncRetry.unref()
      }
    } finally {
      client.isSyncing = false
    }
  }

  const batchTopics = (topics: unknown): string[] => {
    if (!Array.isArray(topics)) throw new RpcFailure(RPC.invalidParams, 'topics: expected a list')
    if (topics.length > limits.maxBatchTopics) throw new RpcFailure(RPC.limit, `maxBatchTopics: at most ${limits.maxBatchTopics} topics per call`)
    if (!topics.every(isTopic)) throw new RpcFailure(RPC.invalidParams, 'topics: expected topics of 64 hex characters')
    return topics
  }

  const unsubscribe = (client: Client, topic: string) => {
    client.subscriptions.delete(topic)
    client.syncs.delete(topic)
    const here = subscribers.get(topic)
    here?.delete(client)
    if (here && !here.size) subscribers.delete(topic)
    if (client.watched.delete(topic)) store.unwatch(topic)
  }

  /**
   * Subscribes to all the topics or, if one is invalid, they pass the limit or the store cannot watch them, to none.
   * The new subscriptions' pushes are held until `sync` (after the reply) brings them up to date in `mode`.
   */
  const subscribe = async (client: Client, topics: unknown[], mode: 'backlog' | 'fromNow') => {
    if (!topics.every(isTopic)) throw new RpcFailure(RPC.invalidParams, 'topic: expected 64 hex characters')
    const added = [...new Set(topics.filter((topic) => !client.subscriptions.has(topic)))]
    if (client.subscriptions.size + added.length > limits.maxSubscriptionsPerClient) {
      throw new RpcFailure(RPC.limit, `maxSubscriptionsPerClient: at most ${limits.maxSubscriptionsPerClient} subscriptions per client`)
    }
    for (const topic of added) {
      client.subscriptions.set(topic, subscriptionId(topic, client))
      needSync(client, topic, mode, false)
      subscribers.set(topic, (subscribers.get(topic) ?? new Set()).add(client))
    }
    const watching = await Promise.allSettled(added.map((topic) => store.watch(topic)))
    added.forEach((topic, index) => {
      if (watching[index]!.status !== 'fulfilled') return
      // Unsubscribed (or gone) meanwhile, or watched twice by two calls: the store counts every watch.
      if (!clients.has(client) || !client.subscriptions.has(topic) || client.watched.has(topic)) store.unwatch(topic)
      else client.watched.add(topic)
    })
    const failure = watching.find((result) => result.status === 'rejected')
    if (failure) {
      for (const topic of added) unsubscribe(client, topic)
      throw failure.reason
    }
    for (const topic of topics) {
      const pending = client.syncs.get(topic)
      if (added.includes(topic) && pending) pending.isWatched = true
      else if (mode === 'backlog' && client.subscriptions.has(topic)) needSync(client, topic, mode, client.watched.has(topic))
    }
    return topics.map((topic) => subscriptionId(topic, client))
  }

  /** Validates a publish and makes the message to store, charged to its publisher. Throws on an invalid one. */
  const newMessage = (client: Client, { topic, message, ttl, tag }: PublishInput, defaultTag: number): NewMessage => {
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
    const publishedAt = now()
    return { topic, message, tag: checkedTag, publishedAt, expiresAt: publishedAt + ttl * 1_000, publisher: client.publicKey, bytes: messageBytes + RECORD_BYTES }
  }

  const quotaMessages: Record<StoreQuotaLimit, string> = {
    maxStoredTopicsPerClient: `maxStoredTopicsPerClient: messages stored on at most ${limits.maxStoredTopicsPerClient} topics per client until they expire`,
    maxStoredBytesPerClient: `maxStoredBytesPerClient: at most ${limits.maxStoredBytesPerClient} bytes stored per client until its messages expire`,
  }

  /** Stores the messages (all or none) and so pushes them to their subscribers on every instance. */
  const publish = async (...messages: NewMessage[]) => {
    const result = await store.publish(messages)
    if (!result.isStored) throw new RpcFailure(RPC.limit, quotaMessages[result.refusedBy])
    return true
  }

  const handle = async (client: Client, request: JsonRpcRequest): Promise<unknown> => {
    const params = (request.params ?? {}) as Record<string, unknown>
    switch (request.method) {
      case 'irn_subscribe':
        return (await subscribe(client, [params.topic], 'backlog'))[0]
      case 'irn_batchSubscribe':
        return subscribe(client, batchTopics(params.topics), 'fromNow')
      case 'irn_unsubscribe':
        if (typeof params.topic !== 'string') throw new RpcFailure(RPC.invalidParams, 'topic: expected a string')
        unsubscribe(client, params.topic)
        return true
      case 'irn_publish':
        return publish(newMessage(client, { topic: params.topic, message: params.message, ttl: params.ttl, tag: params.tag }, 0))
      case 'irn_batchFetchMessages': {
        // Pages: what this connection was given (pushed or fetched) is not given again, so the next call continues.
        const requests = [...new Set(batchTopics(params.topics))].map((topic): FetchTopic => {
          const cursor = client.cursors.get(topic) ?? newDeliveryCursor()
          return { topic, afterId: cursor.fetchedUpTo, skip: { fromId: cursor.liveFrom, toId: cursor.pushedUpTo } }
        })
        const page = await store.fetch({ topics: requests, reader: client.publicKey, maxBytes: limits.maxFetchBytes })
        const messages: ReturnType<typeof dataOf>[] = []
        take(client, requests, page, (message) => messages.push(dataOf(message)))
        return { messages, hasMore: page.topics.some((topic) => !topic.isComplete) }
      }
      case 'wc_proposeSession': {
        // The dApp publishes its proposal on the pairing topic and listens there for the answer. Core leaves out the
        // tag here; 1100 is sign-client's own for wc_sessionPropose.
        const proposal = newMessage(client, { topic: params.pairingTopic, message: params.sessionProposal, ttl: params.ttl, tag: params.tag }, 1100)
        await subscribe(client, [params.pairingTopic], 'fromNow')
        return publish(proposal)
      }
      case 'wc_approveSession': {
        // The wallet answers on the pairing topic, settles on the session topic, and listens on the session topic.
        // Both messages are stored or neither.
        const answer = newMessage(client, { topic: params.pairingTopic, message: params.sessionProposalResponse, ttl: params.ttl, tag: 1101 }, 1101)
        const settlement = newMessage(client, { topic: params.sessionTopic, message: params.sessionSettlementRequest, ttl: params.ttl, tag: 1102 }, 1102)
        await subscribe(client, [params.sessionTopic], 'fromNow')
        return publish(answer, settlement)
      }
      default:
        throw new RpcFailure(RPC.methodNotFound, `Method not found: ${String(request.method).slice(0, 64)}`)
    }
  }

  const errorOf = (error: unknown) => {
    if (error instanceof RpcFailure) return { code: error.code, message: error.message }
    if (error instanceof RelayStoreUnavailableError) return { code: RPC.unavailable, message: error.message }
    return { code: RPC.internal, message: 'Internal error: the relay could not handle this request.' }
  }

  /** Answers one request; a client with too many unanswered is not read until one ends (bounded memory per client). */
  const answer = async (client: Client, request: JsonRpcRequest) => {
    if (++client.pendingRequests === limits.maxPendingRequestsPerClient) client.socket.pause()
    let reply: unknown
    try {
      reply = { id: request.id, jsonrpc: '2.0', result: await handle(client, request) }
    } catch (error) {
      reply = { id: request.id, jsonrpc: '2.0', error: errorOf(error) }
    }
    if (client.pendingRequests-- === limits.maxPendingRequestsPerClient) client.socket.resume()
    send(client, reply)
    // New subscriptions are brought up to date after their reply, as a client expects.
    void sync(client)
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
    void answer(client, request)
  }

  /** Lets go of a connection's subscriptions (its watches on the store) when it closes. */
  const forget = (client: Client) => {
    if (!clients.delete(client)) return
    clearTimeout(client.syncRetry)
    for (const topic of [...client.subscriptions.keys()]) unsubscribe(client, topic)
  }

  server.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    if (isClosing) {
      socket.close(SERVICE_RESTART, 'service restart')
      return
    }
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
    const client: Client = { socket, publicKey, subscriptions: new Map(), watched: new Set(), cursors: new Map(), syncs: new Map(), isSyncing: false, pendingRequests: 0 }
    clients.add(client)
    socket.on('close', () => forget(client))
    socket.on('error', () => forget(client))
    socket.on('message', (data) => onFrame(client, frameOf(data)))
  })

  http.listen(port, host)
  const listening = new Promise<void>((resolve, reject) => {
    http.once('listening', () => resolve())
    http.once('error', (error) => {
      clearInterval(sweeper)
      void store.close()
      reject(error)
    })
  })
  return {
    url,
    /** Resolves once the relay listens and its store answers. */
    ready: Promise.all([listening, store.ready]).then(() => {}),
    clientCount: () => clients.size,
    /** What the relay holds now: `storedBytes` is what the byte limits count (UTF-8 bytes plus RECORD_BYTES each). */
    relayStats: async (): Promise<RelayStats> => {
      const stored = await store.stats()
      let bufferedBytes = 0
      for (const client of clients) bufferedBytes += client.socket.bufferedAmount
      return { clients: clients.size, ...stored, bufferedBytes, droppedClients: totals.droppedClients }
    },
    /**
     * Drains and stops: stops accepting connections, closes every client's with 1012 (service restart) so it reconnects
     * elsewhere, cuts off those that do not answer within drainTimeoutMs, and closes the store.
     */
    close: async () => {
      isClosing = true
      clearInterval(sweeper)
      const httpClosed = new Promise<void>((resolve) => http.close(() => resolve()))
      const sockets = [...clients].map((client) => client.socket)
      for (const client of clients) clearTimeout(client.syncRetry)
      const closed = Promise.all(sockets.map((socket) => (socket.readyState === socket.CLOSED ? undefined : new Promise((resolve) => socket.once('close', resolve)))))
      for (const socket of sockets) socket.close(SERVICE_RESTART, 'service restart')
      const cutOff = setTimeout(() => sockets.forEach((socket) => socket.terminate()), drainTimeoutMs)
      await closed
      clearTimeout(cutOff)
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await httpClosed
      await store.close()
    },
  }
}

export type RelayStats = {
  clients: number
  topics: number
  storedMessages: number
  storedBytes: number
  bufferedBytes: number
  droppedClients: number
  evictedMessages: number
}
export type Relay = ReturnType<typeof createRelay>
