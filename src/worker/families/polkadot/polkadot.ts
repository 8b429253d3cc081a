import { WebSocket } from '@polkadot/x-ws'
import { ExtraSignedExtension, LegacyClient, type ConnectionStatus, type JsonRpcProvider, type JsonRpcSubscription, type JsonRpcSubscriptionCallback, type JsonRpcSubscriptionInput, type ProviderEvent, type SubstrateRuntimeVersion } from 'dedot'
import { $Header, Extrinsic, type BlockHash, type PortableRegistry } from 'dedot/codecs'
import { concatU8a, EventEmitter, hexToU8a, stringCamelCase, u8aToHex } from 'dedot/utils'
import * as z from 'zod/mini'
import { decodeSs58, describeSs58Prefix, encodeSs58, GENERIC_SS58_PREFIX, getPolkadotNetwork } from '../../../shared/families/polkadot/address'
import { parseCaipNetworkId } from '../../../shared/protocol/caip'
import type { PolkadotBalance, PolkadotChainInfo, PolkadotInclusion, PolkadotSignerPayload, PolkadotSubmission, PolkadotTransfer, PolkadotTransferParameters } from '../../../shared/families/polkadot/coreApi'
import { formatUnits } from '../../../shared/protocol/display'
import type { ErrorCode } from '../../../shared/protocol/errorTable'
import { createWidgetError, isWidgetError } from '../../../shared/protocol/errors'
import { safeParse } from '../../../shared/protocol/schemas/parse'
import { defaultSleep } from '../../rpc-transport/retryRead'

export type { PolkadotBalance, PolkadotChainInfo, PolkadotInclusion, PolkadotSignerPayload, PolkadotSubmission, PolkadotTransfer, PolkadotTransferParameters } from '../../../shared/families/polkadot/coreApi'

export type CreatePolkadotClientParameters = {
  /** `polkadot:` + the first 32 hex characters of the genesis hash; the node's genesis must match it. */
  caipNetworkId: string
  /** JSON-RPC over WebSocket: `wss://rpc.polkadot.io`, the local stack's `ws://127.0.0.1:9944`. */
  rpcUrl?: string
  /** Several nodes of the network: the last one that served first, the next one also tried when it is slow to connect. */
  rpcUrls?: readonly string[]
  /** How long a connection attempt may go without opening before the next node is tried beside it. */
  hedgeDelayMs?: number
  /** How long one connection attempt (socket open and runtime metadata loaded) may take. */
  connectTimeoutMs?: number
  /** How long one request waits for its answer. */
  requestTimeoutMs?: number
  /** Connection attempts after the first that fails, per call, before POLKADOT_NODE_UNREACHABLE. */
  reconnectCount?: number
  /** The wait before the first reconnection, doubled for each next one. */
  reconnectDelayMs?: number
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

export type PolkadotWaitForTransactionParameters = {
  submission: PolkadotSubmission
  /** 'inBlock' resolves once a block of the best chain holds it; 'finalized' once that block is final. */
  until?: 'inBlock' | 'finalized'
  pollIntervalMs?: number
  /** After this the outcome is unknown (TRANSACTION_UNCONFIRMED). */
  maxWaitMs?: number
  signal?: AbortSignal
}

type Hex = `0x${string}`
type Account = { address: string; publicKey: Uint8Array }
/** A header as dedot decodes chain_getHeader's answer. */
type Header = { parentHash: Hex; number: number }
/** The block a payload is made at. */
type Checkpoint = { hash: Hex; number: number }
/** What the node answers in system_properties (a list for a chain of several tokens). */
type ChainProperties = { ss58Format?: number; tokenDecimals?: number | number[]; tokenSymbol?: string | string[] }

/** A u128 balance at most. */
const MAX_BALANCE = 2n ** 128n - 1n
/** How far back waitForTransaction follows a fork (blocks it remembers). */
const MAX_FORK_DEPTH = 256
/** How many polls in a row may fail (node down, timeout) before waitForTransaction gives up. */
const MAX_FAILED_POLLS_IN_A_ROW = 3
/** @polkadot/api's mortality rules (api-derive tx/signingInfo), kept so payloads are what polkadot.js apps make. */
const MAX_FINALITY_LAG = 5
const FALLBACK_MAX_HASH_COUNT = 250
const FALLBACK_PERIOD_MS = 6_000n
const MORTAL_PERIOD_MS = 5n * 60n * 1_000n
/** The signature a fee estimate is made with (as polkadot.js's signFake): an sr25519 MultiSignature of 64 bytes of 1. */
const FAKE_SIGNATURE = `0x01${'01'.repeat(64)}` as const

const hexSchema = (maxBytes: number) => z.string().check(z.regex(/^0x(?:[0-9a-fA-F]{2})*$/), z.maxLength(2 + maxBytes * 2))
const hash32Schema = z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/))
const payloadSchema = z.object({
  address: z.string().check(z.maxLength(64)),
  assetId: z.optional(z.nullable(z.union([hexSchema(64), z.int()]))),
  blockHash: hash32Schema,
  blockNumber: hexSchema(8),
  era: hexSchema(2),
  genesisHash: hash32Schema,
  metadataHash: z.optional(z.nullable(hash32Schema)),
  method: hexSchema(65_536),
  mode: z.optional(z.int()),
  nonce: hexSchema(8),
  specVersion: hexSchema(4),
  tip: hexSchema(16),
  transactionVersion: hexSchema(4),
  signedExtensions: z.array(z.string().check(z.maxLength(64))).check(z.maxLength(32)),
  version: z.int(),
  withSignedTransaction: z.optional(z.boolean()),
})
const submissionSchema = z
  .object({ hash: hash32Schema, fromBlock: z.int().check(z.minimum(0)), validUntilBlock: z.int().check(z.minimum(0)) })
  .check(z.refine(({ fromBlock, validUntilBlock }) => fromBlock <= validUntilBlock + 1))
// A MultiSignature: its kind's byte (0 ed25519, 1 sr25519, 2 ecdsa) and 64 bytes, or 65 for ecdsa.
const signatureSchema = z.string().check(z.regex(/^0x(?:[0-9a-fA-F]{130}|[0-9a-fA-F]{132})$/))

const toBigInt = (value: unknown) => (value === undefined || value === null ? 0n : BigInt(value as bigint | number | string))
const max = (a: bigint, b: bigint) => (a > b ? a : b)
/** `value` as big-endian hex of `bytes` bytes: how polkadot.js writes a payload's numbers (u32 nonce, u128 tip). */
const toFixedHex = (value: bigint | number, bytes: number) => `0x${value.toString(16).padStart(bytes * 2, '0')}` as Hex
const first = <T>(value: T | T[] | undefined): T | undefined => (Array.isArray(value) ? value[0] : value)

/** The node's reasons for refusing a transaction (a real node's JSON-RPC `data`, chopsticks' TransactionValidityError JSON). */
const refusalReasons: [RegExp, ErrorCode][] = [
  [/bad ?signature|badProof/i, 'WALLET_BAD_RESPONSE'],
  [/outdated|\bstale\b|ancient ?birth|valid in the future|\bfuture\b/i, 'POLKADOT_TRANSACTION_STALE'],
  [/inability to pay|\bpayment\b/i, 'POLKADOT_CANNOT_PAY_FEE'],
]
/** Substrate's author_submitExtrinsic error codes (sc_rpc_api::author::error). */
const ALREADY_IMPORTED = 1013

/** Notifications kept per subscription (and subscriptions kept) while its id is on its way: a node cannot grow them. */
const MAX_EARLY_NOTIFICATIONS = 16

/** An error the node answered (JSON-RPC `error`), or the socket's end: its message as polkadot.js words it. */
type RpcError = Error & { code?: number; data?: unknown }
const rpcError = ({ code, message, data }: { code?: number; message?: string; data?: unknown }): RpcError => Object.assign(new Error(`${code}: ${message}`), { code, data })

type PendingRequest = { method: string; resolve: (result: unknown) => void; reject: (error: Error) => void; timer?: ReturnType<typeof setTimeout>; isSubscription: boolean }

/**
 * dedot's JSON-RPC provider over one WebSocket, without the reconnection of dedot's WsProvider (which retries on its own
 * and holds the requests of a closed socket until it is back): here a closed socket fails the requests waiting on it at
 * once and says 'disconnected', and the client opens another connection on its next call, its attempts counted.
 * A subscription request the socket closed under is dropped unanswered (dedot's block subscription does not catch).
 */
class SocketProvider extends EventEmitter<ProviderEvent> implements JsonRpcProvider {
  status: ConnectionStatus = 'disconnected'
  #socket: WebSocket | undefined
  #nextId = 0
  readonly #pending = new Map<number, PendingRequest>()
  readonly #subscriptions = new Map<string, { callback: JsonRpcSubscriptionCallback; subscription: JsonRpcSubscription }>()
  /** Notifications that came before their subscription's id did, kept while a subscription request is out. */
  readonly #early = new Map<string, unknown[]>()
  #subscribing = 0

  constructor(
    readonly url: string,
    readonly requestTimeoutMs: number,
  ) {
    super()
  }

  connect(): Promise<this> {
    return new Promise<this>((resolve, reject) => {
      const socket = new WebSocket(this.url)
      this.#socket = socket
      socket.onopen = () => {
        this.status = 'connected'
        this.emit('connected')
        resolve(this)
      }
      socket.onerror = () => reject(new Error('the WebSocket failed'))
      socket.onclose = (event) => {
        reject(new Error(`the WebSocket closed (${event.code})`))
        this.#close(`the WebSocket closed (${event.code})`)
      }
      socket.onmessage = (event) => this.#receive(event.data)
    })
  }

  async disconnect(): Promise<void> {
    const socket = this.#socket
    this.#close('the connection was closed')
    if (socket && socket.readyState !== WebSocket.CLOSING && socket.readyState !== WebSocket.CLOSED) socket.close(1000)
  }

  send<T = unknown>(method: string, params: unknown[]): Promise<T> {
    return this.#request(method, params, false) as Promise<T>
  }

  async subscribe<T = unknown>(input: JsonRpcSubscriptionInput, callback: JsonRpcSubscriptionCallback<T>): Promise<JsonRpcSubscription> {
    this.#subscribing++
    try {
      const subscriptionId = String(await this.#request(input.subscribe, input.params, true))
      const key = `${input.subname}::${subscriptionId}`
      const subscription: JsonRpcSubscription = {
        subscriptionId,
        unsubscribe: async () => {
          this.#subscriptions.delete(key)
          if (this.status === 'connected') await this.send(input.unsubscribe, [subscriptionId]).catch(() => {})
        },
      }
      this.#subscriptions.set(key, { callback: callback as JsonRpcSubscriptionCallback, subscription })
      for (const result of this.#early.get(key) ?? []) callback(null, result as T, subscription)
      this.#early.delete(key)
      return subscription
    } finally {
      if (--this.#subscribing === 0) this.#early.clear()
    }
  }

  #request(method: string, params: unknown[], isSubscription: boolean): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const socket = this.#socket
      if (this.status !== 'connected' || !socket) return reject(new Error(`${method}: the WebSocket is not open`))
      const id = ++this.#nextId
      // A subscription waits as long as the socket lives: nobody catches its failure.
      const timer = isSubscription
        ? undefined
        : setTimeout(() => {
            this.#pending.delete(id)
            reject(new Error(`${method} got no answer within ${this.requestTimeoutMs} ms`))
          }, this.requestTimeoutMs)
      this.#pending.set(id, { method, resolve, reject, timer, isSubscription })
      try {
        socket.send(JSON.stringify({ id, jsonrpc: '2.0', method, params }))
      } catch (error) {
        clearTimeout(timer)
        this.#pending.delete(id)
        reject(error as Error)
      }
    })
  }

  #receive(data: unknown) {
    type Message = {
      id?: number | null
      result?: unknown
      error?: { code?: number; message?: string; data?: unknown }
      method?: string
      params?: { subscription?: string | number; result?: unknown; error?: { code?: number; message?: string; data?: unknown } }
    }
    let message: Message
    try {
      message = JSON.parse(String(data)) as Message
    } catch {
      return
    }
    if (message.id === undefined || message.id === null) {
      const { method, params } = message
      if (method === undefined || params?.subscription === undefined) return
      const key = `${method}::${String(params.subscription)}`
      const target = this.#subscriptions.get(key)
      if (target) target.callback(params.error ? rpcError(params.error) : null, params.result ?? null, target.subscription)
      else if (this.#subscribing > 0) this.#keepEarly(key, params.result)
      return
    }
    const pending = this.#pending.get(message.id)
    if (!pending) return
    this.#pending.delete(message.id)
    clearTimeout(pending.timer)
    if (message.error) pending.reject(rpcError(message.error))
    else pending.resolve(message.result ?? null)
  }

  /** Keeps a notification that came before its subscription's id, a few per subscription and a few subscriptions at most. */
  #keepEarly(key: string, result: unknown) {
    const kept = this.#early.get(key)
    if (kept) {
      if (kept.length < MAX_EARLY_NOTIFICATIONS) kept.push(result)
    } else if (this.#early.size < MAX_EARLY_NOTIFICATIONS) this.#early.set(key, [result])
  }

  /** The socket is gone: every request waiting on it fails, and the client hears 'disconnected' (once). */
  #close(reason: string) {
    const socket = this.#socket
    if (!socket) return
    this.#socket = undefined
    socket.onopen = null
    socket.onmessage = null
    socket.onclose = null
    // Kept: Node's `ws` throws an 'error' nobody listens to (a socket closed while it connects).
    socket.onerror = () => {}
    const wasConnected = this.status === 'connected'
    this.status = 'disconnected'
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer)
      if (!pending.isSubscription) pending.reject(new Error(`${pending.method}: ${reason}`))
    }
    this.#pending.clear()
    this.#subscriptions.clear()
    this.#early.clear()
    if (wasConnected) this.emit('disconnected')
  }
}

/**
 * dedot's client of the legacy JSON-RPC (what every node and chopsticks answer). dedot 1.3 asks a runtime for its
 * metadata versions (MetadataApi v2) on connecting without looking whether it has that API, which fails on runtimes
 * older than mid-2023: given the runtime's version, it asks such a runtime for its only metadata instead.
 */
class SubstrateClient extends LegacyClient {
  protected override async fetchMetadata(hash?: BlockHash, runtime?: SubstrateRuntimeVersion) {
    return super.fetchMetadata(hash, runtime ?? this._runtimeVersion ?? this.toSubstrateRuntimeVersion(await this.rpc.state_getRuntimeVersion(hash)))
  }
}

/** The SCALE bytes of a mortal era of `period` blocks (a power of two, 4 to 65536) from block `current` (sp_runtime::generic::Era). */
function encodeMortalEra(current: number, period: number): Hex {
  const adjusted = Math.min(Math.max(2 ** Math.ceil(Math.log2(Math.max(period, 1))), 4), 65_536)
  const quantizeFactor = Math.max(adjusted >> 12, 1)
  const quantizedPhase = Math.floor((current % adjusted) / quantizeFactor) * quantizeFactor
  const encoded = Math.min(Math.max(Math.log2(adjusted) - 1, 1), 15) + ((quantizedPhase / quantizeFactor) << 4)
  return u8aToHex(new Uint8Array([encoded & 0xff, encoded >> 8])) as Hex
}

/** The first block a transaction of `era` (its SCALE bytes), made at block `current`, can no longer be in; Infinity when immortal. */
function eraDeath(era: Hex, current: number): number {
  const bytes = hexToU8a(era)
  if (bytes[0] === 0 && bytes.length === 1) return Number.POSITIVE_INFINITY
  const encoded = bytes[0]! + (bytes[1]! << 8)
  const period = 2 << encoded % 16
  const quantizeFactor = Math.max(period >> 12, 1)
  const phase = (encoded >> 4) * quantizeFactor
  const birth = Math.floor((Math.max(current, phase) - phase) / period) * period + phase
  return birth + period
}

/**
 * The worker's client for one Polkadot-SDK network over dedot (its LegacyClient on the legacy JSON-RPC): chain info,
 * balances, the fee and the signing payload of a `balances.transferKeepAlive` (signed by the page's extension, never
 * here), its submission, and its inclusion and finality read from the chain's blocks. Amounts are bigint planck; every
 * error is a WidgetError. Payloads are polkadot.js's SignerPayloadJSON, every number in the width polkadot.js writes it.
 * It connects on first use; a dropped connection is opened again on the next call, at most `reconnectCount` more times.
 * @example const dot = createPolkadotClient({ caipNetworkId: 'polkadot:91b171bb158e2d3848fa23a9f1c25182', rpcUrl: 'wss://rpc.polkadot.io' })
 */
export function createPolkadotClient({
  caipNetworkId,
  rpcUrl,
  rpcUrls = rpcUrl === undefined ? [] : [rpcUrl],
  hedgeDelayMs = 1_000,
  connectTimeoutMs = 15_000,
  requestTimeoutMs = 30_000,
  reconnectCount = 2,
  reconnectDelayMs = 500,
  now = Date.now,
  sleep = defaultSleep,
}: CreatePolkadotClientParameters) {
  const parsed = typeof caipNetworkId === 'string' ? parseCaipNetworkId(caipNetworkId) : undefined
  if (parsed?.namespace !== 'polkadot' || !/^[0-9a-f]{32}$/.test(parsed.reference)) {
    throw createWidgetError('INVALID_CONFIG', { field: 'caipNetworkId', details: `"${String(caipNetworkId)}" is not polkadot: and 32 lower-case hex characters of a genesis hash` })
  }
  if (rpcUrls.length === 0) throw createWidgetError('NO_RPC_URL', { field: 'rpcUrls', details: `${caipNetworkId} needs at least one ws:// or wss:// URL` })
  // Errors name the host only: a URL may carry an API key.
  const nodes = rpcUrls.map((url, index) => {
    try {
      const parsedUrl = new URL(url)
      if (parsedUrl.protocol !== 'ws:' && parsedUrl.protocol !== 'wss:') throw new Error('not a WebSocket URL')
      return { url, host: parsedUrl.host }
    } catch {
      throw createWidgetError('NO_RPC_URL', { field: `rpcUrls.${index}`, details: `The ${caipNetworkId} URL is not a ws:// or wss:// URL` })
    }
  })
  /** The node asked first: the last one that connected. */
  let preferred = 0
  /** The node of the connection in use (the preferred one before any). */
  let host = nodes[0]!.host
  const networkName = getPolkadotNetwork(caipNetworkId)?.name ?? 'Polkadot'

  type Connection = { api: SubstrateClient; provider: SocketProvider; host: string; info: PolkadotChainInfo }

  /** A constant of the runtime as dedot decodes it, undefined when its pallet or name is not there. */
  const constant = (api: SubstrateClient, pallet: string, name: string): unknown => {
    try {
      return (api.consts as unknown as Record<string, Record<string, unknown>>)[pallet]![name]
    } catch {
      return undefined
    }
  }

  /**
   * What the node said, read from the client each time: a runtime upgrade changes the version (and may change constants).
   * As @polkadot/api reads them: the runtime's System.SS58Prefix before the node's ss58Format, the node's first token.
   */
  const chainInfo = (api: SubstrateClient, genesisHash: Hex, chainName: string, properties: ChainProperties): PolkadotChainInfo => ({
    caipNetworkId,
    genesisHash,
    chainName,
    ss58Prefix: Number(constant(api, 'system', 'ss58Prefix') ?? 0) || (properties.ss58Format ?? GENERIC_SS58_PREFIX),
    token: { symbol: first(properties.tokenSymbol) ?? 'Unit', decimals: first(properties.tokenDecimals) ?? 12 },
    existentialDeposit: toBigInt(constant(api, 'balances', 'existentialDeposit')),
    specVersion: api.runtimeVersion.specVersion,
  })
  let connection: Promise<Connection> | undefined
  /** The connection `connection` resolved to, so a dropped one only clears itself. */
  let current: Connection | undefined
  let isDestroyed = false
  const live = new Set<Connection>()

  const unreachable = (details: string, cause?: unknown) => createWidgetError('POLKADOT_NODE_UNREACHABLE', { params: { network: networkName }, details, cause })
  const isConnected = (opened: Connection) => opened.provider.status === 'connected'
  const close = (api: SubstrateClient) => api.disconnect().catch(() => {})

  /** `promise`, or RPC_TIMEOUT once `ms` passed. */
  function timed<T>(what: string, promise: Promise<T>, ms = requestTimeoutMs): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(createWidgetError('RPC_TIMEOUT', { details: `${what} on ${host} got no answer within ${ms} ms` })), ms)
    })
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
  }

  /** One attempt on one node: the socket opens, the runtime's metadata loads, the genesis is the configured network's. */
  async function connectOnce({ url, host }: { url: string; host: string }): Promise<Connection> {
    // The provider's own request timeout only frees what a silent node leaves waiting; each call has its own (timed).
    const provider = new SocketProvider(url, requestTimeoutMs + 5_000)
    const api = new SubstrateClient(provider)
    try {
      await timed(`Connecting to ${host}`, provider.connect(), connectTimeoutMs)
      const ready = api.connect()
      // Given up on (too slow): closed once it settles, so it keeps no timer going.
      await timed(`Loading the runtime of ${host}`, ready, connectTimeoutMs).catch((error: unknown) => {
        void ready.then(() => close(api), () => close(api))
        throw error
      })
      const genesisHash = api.genesisHash as Hex
      if (genesisHash.slice(2, 34) !== parsed!.reference) {
        throw createWidgetError('INVALID_CONFIG', { field: 'rpcUrl', details: `The node at ${host} serves the chain of genesis ${genesisHash}, not ${caipNetworkId}` })
      }
      const [chainName, properties] = await timed(`system_chain on ${host}`, Promise.all([api.rpc.system_chain(), api.rpc.system_properties()]))
      return {
        api,
        provider,
        host,
        // Read when asked: every call sees the runtime as it is now.
        get info() {
          return chainInfo(api, genesisHash, String(chainName), (properties ?? {}) as ChainProperties)
        },
      }
    } catch (error) {
      await close(api)
      await provider.disconnect()
      throw error
    }
  }

  /**
   * One round over the nodes, the preferred first: the next is tried beside it when it fails or has not connected within
   * `hedgeDelayMs`; the first connection made wins and the others are closed. Fails with the last error when none
   * connects (a node serving another chain's INVALID_CONFIG before any other).
   */
  function connectAny(): Promise<Connection> {
    const order = nodes.map((_, index) => (preferred + index) % nodes.length)
    return new Promise<Connection>((resolve, reject) => {
      let started = 0
      let failures = 0
      let isSettled = false
      let lastError: unknown
      let hedge: ReturnType<typeof setTimeout> | undefined
      const startNext = () => {
        clearTimeout(hedge)
        if (started >= order.length) return
        const index = order[started++]!
        connectOnce(nodes[index]!).then(
          (opened) => {
            if (isSettled) return void close(opened.api)
            isSettled = true
            clearTimeout(hedge)
            preferred = index
            host = opened.host
            resolve(opened)
          },
          (error: unknown) => {
            if (!(isWidgetError(lastError) && lastError.code === 'INVALID_CONFIG')) lastError = error
            if (isSettled) return
            if (++failures < order.length) return startNext()
            isSettled = true
            reject(lastError)
          },
        )
        if (started < order.length) hedge = setTimeout(startNext, hedgeDelayMs)
      }
      startNext()
    })
  }

  /** Tries `1 + reconnectCount` rounds over the nodes, waiting longer each time; POLKADOT_NODE_UNREACHABLE after the last. */
  async function connect(): Promise<Connection> {
    let lastError: unknown
    for (let attempt = 0; attempt <= reconnectCount; attempt++) {
      if (attempt > 0) await sleep(reconnectDelayMs * 2 ** (attempt - 1))
      if (isDestroyed) throw createWidgetError('REQUEST_ABORTED', { details: `the ${caipNetworkId} client was closed` })
      try {
        const opened = await connectAny()
        if (isDestroyed) {
          await close(opened.api)
          throw createWidgetError('REQUEST_ABORTED', { details: `the ${caipNetworkId} client was closed` })
        }
        live.add(opened)
        // A dropped socket: this connection is done; the next call opens another.
        opened.provider.on('disconnected', () => {
          forget(opened)
          void close(opened.api)
        })
        current = opened
        return opened
      } catch (error) {
        if (isWidgetError(error) && (error.code === 'INVALID_CONFIG' || error.code === 'REQUEST_ABORTED')) throw error
        lastError = error
      }
    }
    const reason = isWidgetError(lastError) ? (lastError.details ?? lastError.shortMessage) : ((lastError as Error)?.message ?? String(lastError))
    throw unreachable(`${nodes.map((node) => node.host).join(', ')} after ${reconnectCount + 1} attempts: ${reason}`, lastError)
  }

  /** Lets go of a connection whose socket closed (its 'disconnected' event may have come before anyone listened). */
  const forget = (opened: Connection) => {
    live.delete(opened)
    if (current === opened) {
      current = undefined
      connection = undefined
    }
  }

  const open = (): Promise<Connection> => {
    if (current && !isConnected(current)) forget(current)
    connection ??= connect().catch((error: unknown) => {
      connection = undefined
      throw error
    })
    return connection
  }

  /**
   * Runs `body` on a live connection. A failure that came from the connection dropping is tried once more on a new
   * one when `isRead` (a read changes nothing); anything else thrown that is not a WidgetError becomes UNKNOWN.
   */
  async function run<T>(what: string, body: (connection: Connection) => Promise<T>, { isRead = true } = {}): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const opened = await open()
      try {
        return await body(opened)
      } catch (error) {
        const hasDropped = !isConnected(opened)
        if (hasDropped) forget(opened)
        if (hasDropped && isRead && attempt === 0) continue
        if (isWidgetError(error)) throw error
        if (hasDropped) throw unreachable(`${host} closed the connection during ${what}`, error)
        throw createWidgetError('UNKNOWN', { details: `${what}: ${(error as Error)?.message ?? String(error)}`, cause: error })
      }
    }
  }

  /** An SS58 address of this network (or generic Substrate, prefix 42), answered in this network's format. */
  function parseAccount(value: unknown, field: string, info: PolkadotChainInfo): Account {
    const decoded = typeof value === 'string' ? decodeSs58(value) : undefined
    if (!decoded) throw createWidgetError('INVALID_ADDRESS', { field, details: `"${String(value).slice(0, 100)}" is not an SS58 account address` })
    if (decoded.prefix !== info.ss58Prefix && decoded.prefix !== GENERIC_SS58_PREFIX) {
      throw createWidgetError('POLKADOT_ADDRESS_WRONG_NETWORK', {
        field,
        params: { addressNetwork: describeSs58Prefix(decoded.prefix), network: getPolkadotNetwork(caipNetworkId)?.name ?? info.chainName },
        details: `${String(value)} has SS58 prefix ${decoded.prefix}; ${caipNetworkId} uses ${info.ss58Prefix}`,
      })
    }
    return { address: encodeSs58(decoded.publicKey, info.ss58Prefix), publicKey: decoded.publicKey }
  }

  /**
   * System.Account: its nonce, and its balance: free, reserved, frozen (the old layout's misc and fee frozen: the
   * larger) and what a keep-alive transfer can move.
   */
  async function readAccount({ api, info }: Connection, address: string): Promise<{ balance: PolkadotBalance; nonce: number }> {
    const account = (await timed('System.Account', api.query.system.account(address))) as unknown as { nonce?: number; data: Record<string, unknown> }
    const { data } = account
    const free = toBigInt(data.free)
    const reserved = toBigInt(data.reserved)
    const hasNewLayout = data.frozen !== undefined
    const frozen = hasNewLayout ? toBigInt(data.frozen) : max(toBigInt(data.miscFrozen), toBigInt(data.feeFrozen))
    // pallet-balances' reducible balance, keeping the account alive: what stays is the lock beyond what is held, and at least the deposit.
    const locked = hasNewLayout ? max(frozen - reserved, 0n) : frozen
    const transferable = max(free - max(locked, info.existentialDeposit), 0n)
    return { balance: { free, reserved, frozen, transferable }, nonce: Number(account.nonce ?? 0) }
  }

  /**
   * The block a payload is made at, as @polkadot/api's signingInfo picks it: the best block's parent (the best block
   * itself at genesis), or the finalized block when that one is at most MAX_FINALITY_LAG blocks behind.
   */
  async function signingCheckpoint({ api }: Connection): Promise<Checkpoint> {
    const [best, finalizedHash] = await Promise.all([timed('chain_getHeader', api.rpc.chain_getHeader()), timed('chain_getFinalizedHead', api.rpc.chain_getFinalizedHead())])
    if (!best) throw createWidgetError('UNKNOWN', { details: 'The node gave no block header to make the transaction mortal' })
    const bestBlock = (): Checkpoint => ({ hash: api.registry.hashAsHex($Header.tryEncode(best)) as Hex, number: best.number })
    const readHeader = (hash: Hex) => timed('chain_getHeader', api.rpc.chain_getHeader(hash)) as Promise<Header | undefined>
    const [recent, finalized] = await Promise.all([
      /^0x0*$/.test(best.parentHash) ? bestBlock() : readHeader(best.parentHash as Hex).then((parent) => (parent ? { hash: best.parentHash as Hex, number: parent.number } : bestBlock()), bestBlock),
      readHeader(finalizedHash as Hex).then((header) => (header ? { hash: finalizedHash as Hex, number: header.number } : undefined), () => undefined),
    ])
    return !finalized || recent.number - finalized.number > MAX_FINALITY_LAG ? recent : finalized
  }

  /** How many blocks a transaction stays valid, as @polkadot/api's signingInfo reckons it: about 5 minutes of blocks. */
  function mortalLength(api: SubstrateClient): number {
    const minimumPeriod = constant(api, 'timestamp', 'minimumPeriod')
    const blockTime = toBigInt(constant(api, 'babe', 'expectedBlockTime') ?? constant(api, 'aura', 'slotDuration') ?? (minimumPeriod === undefined ? undefined : toBigInt(minimumPeriod) * 2n))
    const blocks = Number(MORTAL_PERIOD_MS / (blockTime === 0n ? FALLBACK_PERIOD_MS : blockTime)) + MAX_FINALITY_LAG
    return Math.min(Number(constant(api, 'system', 'blockHashCount') ?? 0) || FALLBACK_MAX_HASH_COUNT, blocks)
  }

  /** The SignerPayloadJSON of `method` from `address` at `checkpoint`, every field as polkadot.js's SignerPayload.toPayload writes it. */
  function signerPayload(api: SubstrateClient, { address, method, nonce, tip, checkpoint }: { address: string; method: Hex; nonce: number; tip: bigint; checkpoint: Checkpoint }): PolkadotSignerPayload {
    const { specVersion, transactionVersion } = api.runtimeVersion
    return {
      specVersion: toFixedHex(specVersion, 4),
      transactionVersion: toFixedHex(transactionVersion, 4),
      address,
      assetId: null,
      blockHash: checkpoint.hash,
      blockNumber: toFixedHex(checkpoint.number, 4),
      era: encodeMortalEra(checkpoint.number, mortalLength(api)),
      genesisHash: api.genesisHash as Hex,
      metadataHash: null,
      method,
      mode: 0,
      nonce: toFixedHex(nonce, 4),
      signedExtensions: api.registry.metadata.extrinsic.signedExtensions.map(({ ident }) => ident),
      tip: toFixedHex(tip, 16),
      version: 4,
      withSignedTransaction: false,
    }
  }

  /** The runtime's signed extensions (era, nonce, tip, genesis, runtime versions) filled in from a payload. */
  async function extensionsOf(api: SubstrateClient, payload: PolkadotSignerPayload): Promise<ExtraSignedExtension> {
    const extra = new ExtraSignedExtension(api, { signerAddress: payload.address })
    await extra.fromPayload(payload as Parameters<ExtraSignedExtension['fromPayload']>[0])
    return extra
  }

  /** The signed transaction of `payload` and `signature` (a MultiSignature's bytes). */
  function signedTransaction(api: SubstrateClient, payload: PolkadotSignerPayload, extra: ExtraSignedExtension, signature: Hex): Extrinsic {
    const { registry } = api
    const { callTypeId, signatureTypeId } = registry.metadata.extrinsic
    const extrinsic = new Extrinsic(registry, registry.findCodec(callTypeId).tryDecode(payload.method))
    extrinsic.attachSignature({ address: payload.address, signature: registry.findCodec(signatureTypeId).tryDecode(signature), extra: extra.data })
    return extrinsic
  }

  /**
   * The node's fee estimate for `payload` (TransactionPaymentApi_query_info of it signed with a fake signature, as
   * polkadot.js's paymentInfo asks it). RuntimeDispatchInfo ends with the fee, a u128, whatever its weight's layout.
   */
  async function feeOf({ api }: Connection, payload: PolkadotSignerPayload): Promise<bigint> {
    const bytes = signedTransaction(api, payload, await extensionsOf(api, payload), FAKE_SIGNATURE).toU8a()
    const length = new Uint8Array(4)
    new DataView(length.buffer).setUint32(0, bytes.length, true)
    const answer = hexToU8a(await timed('TransactionPaymentApi_query_info', api.rpc.state_call('TransactionPaymentApi_query_info', u8aToHex(concatU8a(bytes, length)))))
    if (answer.length < 17) throw new Error(`TransactionPaymentApi_query_info answered ${answer.length} bytes`)
    return answer.subarray(-16).reduceRight((fee, byte) => (fee << 8n) | BigInt(byte), 0n)
  }

  /** The call of `balances.transferKeepAlive(to, amount)`, SCALE-encoded. */
  const transferMethod = (api: SubstrateClient, to: string, amount: bigint) => api.tx.balances.transferKeepAlive(to, amount).callHex as Hex

  const formatAmount = (value: bigint, { token }: PolkadotChainInfo) => `${formatUnits(value, token.decimals)} ${token.symbol}`

  function checkAmount(amount: unknown, field: string, { allowZero = false } = {}): bigint {
    if (typeof amount !== 'bigint' || amount < 0n || (!allowZero && amount === 0n) || amount > MAX_BALANCE) {
      throw createWidgetError('INVALID_PARAMS', { field, details: `The ${field} must be a bigint of planck, ${allowZero ? 'at least' : 'more than'} 0 and at most 2^128 - 1` })
    }
    return amount
  }

  /** What the chain's events say of the extrinsic at `index` of `blockHash`. */
  async function readOutcome({ api }: Connection, blockHash: Hex, index: number): Promise<{ isSuccess: boolean; failure?: string }> {
    const at = await timed('api.at', api.at(blockHash))
    type PalletEvent = string | { name: string; data?: unknown }
    type EventRecord = { phase: { type: string; value?: unknown }; event: { pallet: string; palletEvent: PalletEvent } }
    const records = (await timed('System.Events', at.query.system.events())) as unknown as EventRecord[]
    for (const { phase, event } of records) {
      if (phase.type !== 'ApplyExtrinsic' || phase.value !== index || stringCamelCase(event.pallet) !== 'system') continue
      const { palletEvent } = event
      const name = typeof palletEvent === 'string' ? palletEvent : palletEvent.name
      if (name === 'ExtrinsicSuccess') return { isSuccess: true }
      if (name === 'ExtrinsicFailed' && typeof palletEvent !== 'string') {
        const data = palletEvent.data as { dispatchError?: unknown } | unknown[] | undefined
        return { isSuccess: false, failure: describeDispatchError(at.registry as unknown as PortableRegistry, Array.isArray(data) ? data[0] : data?.dispatchError) }
      }
    }
    return { isSuccess: false, failure: 'unknown (no ExtrinsicSuccess or ExtrinsicFailed event)' }
  }

  return {
    /** What the node says about its chain: genesis, SS58 prefix, token, existential deposit, runtime version. */
    getChainInfo: (): Promise<PolkadotChainInfo> => run('getChainInfo', async ({ info }) => info),

    /** Planck: free, reserved, frozen, transferable. INVALID_ADDRESS, POLKADOT_ADDRESS_WRONG_NETWORK for a bad address. */
    getBalance: (address: string): Promise<PolkadotBalance> =>
      run('getBalance', async (opened) => (await readAccount(opened, parseAccount(address, 'address', opened.info).address)).balance),

    /** The node's fee estimate (paymentInfo) in planck for `balances.transferKeepAlive(to, amount)` paid by `from`. */
    estimateTransferFee: ({ from, to, amount }: PolkadotTransferParameters): Promise<bigint> =>
      run('estimateTransferFee', async (opened) => {
        const { api, info } = opened
        const sender = parseAccount(from, 'from', info)
        const recipient = parseAccount(to, 'to', info)
        checkAmount(amount, 'amount')
        const method = transferMethod(api, recipient.address, amount)
        const [{ nonce }, checkpoint] = await Promise.all([readAccount(opened, sender.address), signingCheckpoint(opened)])
        return feeOf(opened, signerPayload(api, { address: sender.address, method, nonce, tip: 0n, checkpoint }))
      }),

    /**
     * The signing payload of `balances.transferKeepAlive(to, amount)` from `from` (mortal, next nonce, the tip), its
     * fee, and its raw bytes for signRaw. Refused before anything is signed: a bad or foreign address, an amount the
     * recipient's account could not keep (POLKADOT_BELOW_EXISTENTIAL_DEPOSIT), more than `from` can send and keep its
     * existential deposit (POLKADOT_INSUFFICIENT_FUNDS).
     */
    buildTransfer: ({ from, to, amount, tip = 0n }: PolkadotTransferParameters): Promise<PolkadotTransfer> =>
      run('buildTransfer', async (opened) => {
        const { api, info } = opened
        const sender = parseAccount(from, 'from', info)
        const recipient = parseAccount(to, 'to', info)
        checkAmount(amount, 'amount')
        checkAmount(tip, 'tip', { allowZero: true })
        const method = transferMethod(api, recipient.address, amount)
        const [senderAccount, recipientAccount, checkpoint] = await Promise.all([readAccount(opened, sender.address), readAccount(opened, recipient.address), signingCheckpoint(opened)])
        const payload = signerPayload(api, { address: sender.address, method, nonce: senderAccount.nonce, tip, checkpoint })
        // The fee as paymentInfo estimates it: the same transfer without a tip.
        const [extra, fee] = await Promise.all([extensionsOf(api, payload), feeOf(opened, { ...payload, tip: toFixedHex(0n, 16) })])
        const senderBalance = senderAccount.balance
        const recipientBalance = recipientAccount.balance
        const ed = info.existentialDeposit
        if (recipient.address !== sender.address && recipientBalance.free + recipientBalance.reserved + amount < ed) {
          throw createWidgetError('POLKADOT_BELOW_EXISTENTIAL_DEPOSIT', {
            field: 'amount',
            params: { existentialDeposit: formatAmount(ed, info), minimum: formatAmount(ed - recipientBalance.free - recipientBalance.reserved, info) },
            details: `${recipient.address} holds ${recipientBalance.free + recipientBalance.reserved} planck; ${amount} more leaves it under ${ed}`,
          })
        }
        if (amount + fee + tip > senderBalance.transferable) {
          throw createWidgetError('POLKADOT_INSUFFICIENT_FUNDS', {
            field: 'amount',
            params: { fee: formatAmount(fee + tip, info), available: formatAmount(senderBalance.transferable, info), existentialDeposit: formatAmount(ed, info) },
            details: `${amount} planck, a fee of ${fee} and a tip of ${tip}; ${senderBalance.transferable} can leave ${sender.address}`,
          })
        }
        // The bytes an extension's signPayload signs (ExtrinsicPayload: call, extensions' data, what they add to what is signed).
        const raw = extra.toRawPayload(method)
        return {
          payload,
          raw: { address: raw.address, data: raw.data as Hex, type: 'payload' },
          fee,
          existentialDeposit: ed,
          to: recipient.address,
          validUntilBlock: eraDeath(payload.era, checkpoint.number) - 1,
        }
      }),

    /**
     * Adds the wallet's signature to the transfer `payload` (as buildTransfer answered it) and submits it; answers what
     * waitForTransaction tracks it by. Refused: a payload of another network or an older runtime (POLKADOT_TRANSACTION_STALE),
     * a signature that does not match (WALLET_BAD_RESPONSE), fees the account cannot pay (POLKADOT_CANNOT_PAY_FEE), any
     * other refusal of the node (POLKADOT_TRANSACTION_REFUSED). Submitting the same signed transaction again is harmless.
     */
    submitTransfer: ({ payload, signature }: { payload: PolkadotSignerPayload; signature: string }): Promise<PolkadotSubmission> =>
      run(
        'submitTransfer',
        async (opened) => {
          const { api, provider, info } = opened
          const checked = safeParse(payloadSchema, payload)
          if (!checked.success) {
            const issue = checked.error.issues[0]
            throw createWidgetError('INVALID_PARAMS', { field: ['payload', ...(issue?.path ?? []).map(String)].join('.'), details: `Not a signing payload: ${issue?.message ?? ''}` })
          }
          if (!safeParse(signatureSchema, signature).success) {
            throw createWidgetError('WALLET_BAD_RESPONSE', { field: 'signature', details: 'The signature must be a hex MultiSignature (65 or 66 bytes)' })
          }
          const signed = checked.data as PolkadotSignerPayload
          const signer = parseAccount(signed.address, 'payload.address', info)
          if (signed.genesisHash !== info.genesisHash) {
            throw createWidgetError('INVALID_PARAMS', { field: 'payload.genesisHash', details: `The payload is for the chain of genesis ${signed.genesisHash}, not ${caipNetworkId}` })
          }
          if (Number(signed.specVersion) !== api.runtimeVersion.specVersion) {
            throw createWidgetError('POLKADOT_TRANSACTION_STALE', { details: `The payload is for runtime ${Number(signed.specVersion)}; the chain runs ${api.runtimeVersion.specVersion}` })
          }
          let transaction: Hex
          try {
            const withSigner = { ...signed, address: signer.address }
            transaction = signedTransaction(api, withSigner, await extensionsOf(api, withSigner), signature as Hex).toHex() as Hex
          } catch (error) {
            throw createWidgetError('INVALID_PARAMS', { field: 'payload.method', details: `The payload's call cannot be decoded: ${(error as Error).message}`, cause: error })
          }
          const hash = api.registry.hashAsHex(transaction) as Hex
          try {
            await timed('author_submitExtrinsic', provider.send('author_submitExtrinsic', [transaction]))
          } catch (error) {
            if (isWidgetError(error) || !isConnected(opened)) throw error
            const { code, data, message } = error as RpcError
            if (code !== ALREADY_IMPORTED) {
              const reason = `${String(message)} ${typeof data === 'string' ? data : JSON.stringify(data ?? '')}`.slice(0, 500)
              const refusal = refusalReasons.find(([pattern]) => pattern.test(reason))?.[1] ?? 'POLKADOT_TRANSACTION_REFUSED'
              throw createWidgetError(refusal, { ...(refusal === 'WALLET_BAD_RESPONSE' ? { field: 'signature' } : {}), details: `${host}: ${reason}`, cause: error })
            }
          }
          const checkpoint = Number(signed.blockNumber)
          const death = eraDeath(signed.era as Hex, checkpoint)
          return { hash, fromBlock: checkpoint + 1, validUntilBlock: Number.isFinite(death) ? death - 1 : Number.MAX_SAFE_INTEGER }
        },
        { isRead: false },
      ),

    /**
     * Follows the chain's blocks from the submission's first possible one until a block holds the transaction (a block
     * of the best chain for 'inBlock', a final one for 'finalized'), and reads its outcome from the block's events.
     * A chain that moved to another fork is followed. The era over and the transaction in none of its blocks:
     * POLKADOT_TRANSACTION_NOT_INCLUDED (nothing was sent). `maxWaitMs` over: TRANSACTION_UNCONFIRMED.
     */
    async waitForTransaction({ submission, until = 'finalized', pollIntervalMs = 2_000, maxWaitMs = 600_000, signal }: PolkadotWaitForTransactionParameters): Promise<PolkadotInclusion> {
      const checked = safeParse(submissionSchema, submission)
      if (!checked.success) throw createWidgetError('INVALID_PARAMS', { field: 'submission', details: 'A submission is { hash, fromBlock, validUntilBlock } as submitTransfer answered it' })
      if (until !== 'inBlock' && until !== 'finalized') throw createWidgetError('INVALID_PARAMS', { field: 'until', details: "until is 'inBlock' or 'finalized'" })
      const { fromBlock, validUntilBlock } = checked.data
      const hash = checked.data.hash.toLowerCase() as Hex
      const deadline = now() + maxWaitMs
      // The hash of each block read, by number, to see the chain switch forks under us (at most the era's length).
      const seen = new Map<number, Hex>()
      let next = fromBlock
      let found: { blockNumber: number; blockHash: Hex; index: number } | undefined
      let failedPollsInARow = 0
      let lastError: unknown

      const poll = () =>
        run('waitForTransaction', async (opened) => {
          const { api } = opened
          const headerOf = async (blockHash?: Hex): Promise<Header> => {
            const header = await timed('chain_getHeader', api.rpc.chain_getHeader(blockHash))
            if (!header) throw new Error(`the node has no header for ${blockHash ?? 'its best block'}`)
            return header as Header
          }
          const hashOf = async (blockNumber: number): Promise<Hex> => {
            const blockHash = await timed('chain_getBlockHash', api.rpc.chain_getBlockHash(blockNumber))
            if (!blockHash) throw new Error(`the node has no block ${blockNumber}`)
            return blockHash as Hex
          }
          const best = (await headerOf()).number
          // 1. Read each new block of the best chain; a block whose parent is not the one read before means a fork: step back.
          while (!found && next <= Math.min(best, validUntilBlock)) {
            const blockHash = await hashOf(next)
            const signedBlock = await timed('chain_getBlock', api.rpc.chain_getBlock(blockHash))
            if (!signedBlock) throw new Error(`the node has no block ${blockHash}`)
            const { block } = signedBlock
            const parent = seen.get(next - 1)
            if (parent !== undefined && block.header.parentHash !== parent) {
              seen.delete(next - 1)
              next = Math.max(fromBlock, next - 1)
              continue
            }
            seen.set(next, blockHash)
            seen.delete(next - MAX_FORK_DEPTH)
            const index = block.extrinsics.findIndex((extrinsic) => api.registry.hashAsHex(extrinsic as Hex) === hash)
            if (index >= 0) found = { blockNumber: next, blockHash, index }
            next++
          }
          const finalizedHash = await timed('chain_getFinalizedHead', api.rpc.chain_getFinalizedHead())
          const finalized = (await headerOf(finalizedHash as Hex)).number
          // 2. Found: still on the best chain? Final once the finalized head reached it.
          if (found) {
            const canonical = await hashOf(found.blockNumber)
            if (canonical !== found.blockHash) {
              next = found.blockNumber
              seen.delete(found.blockNumber)
              found = undefined
              return undefined
            }
            const isFinalized = finalized >= found.blockNumber
            if (until === 'inBlock' || isFinalized) return { hash, ...found, isFinalized, ...(await readOutcome(opened, found.blockHash, found.index)) } satisfies PolkadotInclusion
            return undefined
          }
          // 3. Not found in any block up to the era's last, and that block is final (so no fork can bring another): void.
          if (next > validUntilBlock && finalized >= validUntilBlock) {
            const canonical = await hashOf(validUntilBlock)
            if (canonical === seen.get(validUntilBlock)) {
              throw createWidgetError('POLKADOT_TRANSACTION_NOT_INCLUDED', { details: `${hash} is in none of blocks ${fromBlock} to ${validUntilBlock}, where its era ended` })
            }
            seen.delete(validUntilBlock)
            next = validUntilBlock
          }
          return undefined
        })

      for (let attempt = 0; ; attempt++) {
        if (attempt > 0) {
          if (now() + pollIntervalMs > deadline) {
            throw createWidgetError('TRANSACTION_UNCONFIRMED', { details: `${hash} was not ${until === 'inBlock' ? 'in a block' : 'final'} within ${maxWaitMs} ms`, cause: lastError })
          }
          await sleep(pollIntervalMs)
        }
        if (signal?.aborted) throw createWidgetError('REQUEST_ABORTED', { details: 'waitForTransaction', cause: signal.reason })
        try {
          const inclusion = await poll()
          failedPollsInARow = 0
          if (inclusion) return inclusion
        } catch (error) {
          const isTransient = isWidgetError(error) && (error.code === 'POLKADOT_NODE_UNREACHABLE' || error.code === 'RPC_TIMEOUT')
          if (!isTransient || ++failedPollsInARow > MAX_FAILED_POLLS_IN_A_ROW) throw error
          lastError = error
        }
      }
    },

    /** Closes the connection; calls after this fail with REQUEST_ABORTED. */
    async destroy() {
      isDestroyed = true
      connection = undefined
      await Promise.all([...live].map((opened) => close(opened.api)))
      live.clear()
    },
  }
}

/** `pallet.Error` of a module error (`balances.InsufficientBalance`), else the dispatch error's kind (`Token.FundsUnavailable`). */
function describeDispatchError(registry: PortableRegistry, error: unknown): string {
  const dispatchError = error as { type?: string; value?: unknown } | undefined
  if (dispatchError?.type === 'Module') {
    try {
      const { index, error: code } = dispatchError.value as { index: number; error: Hex | number }
      // An old runtime's module error is one byte, a newer one's four.
      const meta = registry.findErrorMeta({ index, error: typeof code === 'number' ? toFixedHex(code, 1) : code })
      if (meta) return `${stringCamelCase(meta.pallet)}.${meta.name}`
    } catch {
      // The runtime does not know the error: its kind only.
    }
    return 'Module'
  }
  const kind = dispatchError?.type ?? 'unknown'
  const value = dispatchError?.value as string | { type?: string } | undefined
  const inner = typeof value === 'string' ? value : value?.type
  return inner ? `${kind}.${inner}` : kind
}

export type PolkadotClient = ReturnType<typeof createPolkadotClient>
