import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import type { Socket } from 'node:net'
import { fileURLToPath } from 'node:url'
import { defaultRelayLimits, type RelayStats } from '../../../services/relay/createRelay'
import { connectRawClient, type RawClient, type RelayReply } from '../../../services/relay/testing/connectRawClient'
import { freePorts } from '../../../services/stack/ports'
import { stopProcess } from '../serviceProcess'

const MIB = 1_024 * 1_024
const ROOT = fileURLToPath(new URL('../../..', import.meta.url))

/** The flood: this many clients (fresh keys, so fresh quotas), each with at most IN_FLIGHT publishes unanswered. */
const FLOOD_CLIENTS = 24
const FLOOD_MS = 4_000
const FLOOD_MAX_PER_CLIENT = 4_000
const IN_FLIGHT = 16
/** The slow reader: publishers writing to the topic of one subscriber that stopped reading. */
const SLOW_READER_PUBLISHERS = 6
const SLOW_READER_MS = 5_000
const SLOW_READER_MAX_PER_PUBLISHER = 2_000

type ChildStats = RelayStats & { rssBytes: number; heapUsedBytes: number }

/**
 * What V8 holds beyond live objects: its young generation (Node 20: 3 × the 16 MiB semi-space) and old-space garbage
 * until the next full collection, taken as up to what the store holds live. Measured: ~50 MiB after the flood.
 */
const V8_HEADROOM_BYTES = 48 * MIB + defaultRelayLimits.maxStoredBytesTotal

export type BenchRelayResult = {
  floodClients: number
  floodMessagesSent: number
  floodMessagesStored: number
  /** Publishes the relay answered with a JSON-RPC error, by the limit the error names. */
  refusedWithError: number
  refusedByLimit: Record<string, number>
  /** Oldest messages dropped relay-wide to keep the totals (the flood's own, mostly). */
  evictedMessages: number
  relayBaseRssMb: number
  relayRssMbAfterSlowReader: number
  relayRssMbAfterFlood: number
  relayHeapUsedMbAfterFlood: number
  storedMbAfterFlood: number
  slowReaderDropped: boolean
  /** Publishes to the slow reader's topic the relay accepted before it noticed (each a 64 KiB push to the reader). */
  slowReaderPublishesAccepted: number
  /**
   * Base RSS + maxStoredBytesTotal + V8_HEADROOM_BYTES + per connection (maxBufferedBytesPerClient + maxFetchBytes +
   * maxFrameBytes) × the most connections open at once.
   */
  rssBoundMb: number
}

const mb = (bytes: number) => Math.round((bytes / MIB) * 10) / 10
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Starts the relay alone in a child process (so its RSS is its own) and waits for its line. */
async function startRelayProcess(port: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/relay/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  let output = ''
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bench: the relay did not start in 20 s\n${output}`)), 20_000)
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('WalletConnect relay on')) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`bench: the relay exited (${code})\n${output}`))
    })
  }).catch((error: unknown) => {
    child.kill('SIGKILL')
    throw error
  })
  const stats = () =>
    new Promise<ChildStats>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('bench: the relay did not answer for 5 s')), 5_000)
      child.once('message', (message) => {
        clearTimeout(timer)
        resolve(message as ChildStats)
      })
      child.send('stats')
    })
  return { child, stats }
}


/** Publishes from one client until `shouldStop`, the deadline or `maxCount`, with at most IN_FLIGHT unanswered. */
async function publishLoop(client: RawClient, { topic, deadline, maxCount, shouldStop = () => false, onReply }: { topic: () => string; deadline: number; maxCount: number; shouldStop?: () => boolean; onReply: (reply: RelayReply) => void }) {
  const message = 'x'.repeat(defaultRelayLimits.maxMessageBytes)
  const inFlight = new Set<Promise<void>>()
  let sent = 0
  while (sent < maxCount && Date.now() < deadline && !shouldStop() && client.socket.readyState === client.socket.OPEN) {
    const reply: Promise<void> = client.request('irn_publish', { topic: topic(), message, ttl: defaultRelayLimits.maxTtlS, tag: 0 }).then((answer) => {
      inFlight.delete(reply)
      onReply(answer)
    })
    inFlight.add(reply)
    sent += 1
    if (inFlight.size >= IN_FLIGHT) await Promise.race([...inFlight, sleep(Math.max(0, deadline - Date.now()))])
  }
  await Promise.race([Promise.all(inFlight), sleep(2_000)])
  return sent
}

/**
 * Two attacks on one relay process with its default limits, loopback only, each bounded in time and count: a
 * subscriber that stops reading while others publish to its topic, then a flood of max-size messages with the longest
 * ttl on fresh topics from many clients. (The slow reader goes first, on a relay with nothing stored yet.) Reports the relay's RSS after each against the bound its limits promise.
 * @example const { relayRssMbAfterFlood, rssBoundMb } = await benchRelay()
 */
export async function benchRelay(): Promise<BenchRelayResult> {
  const port = (await freePorts()).relay
  const url = `ws://127.0.0.1:${port}`
  const { child, stats } = await startRelayProcess(port)
  const clients: RawClient[] = []
  const connect = async () => {
    const client = await connectRawClient(url)
    clients.push(client)
    return client
  }
  try {
    await sleep(300)
    const base = await stats()

    // 1. The slow reader.
    const reader = await connect()
    const topic = randomBytes(32).toString('hex')
    await reader.request('irn_subscribe', { topic })
    ;(reader.socket as unknown as { _socket: Socket })._socket.pause()
    const publishers = await Promise.all(Array.from({ length: SLOW_READER_PUBLISHERS }, connect))
    let slowReaderDropped = false
    let accepted = 0
    const deadline = Date.now() + SLOW_READER_MS
    const watching = (async () => {
      while (!slowReaderDropped && Date.now() < deadline) {
        slowReaderDropped = (await stats()).droppedClients > 0
        await sleep(50)
      }
    })()
    await Promise.all(
      publishers.map((publisher) =>
        publishLoop(publisher, { topic: () => topic, deadline, maxCount: SLOW_READER_MAX_PER_PUBLISHER, shouldStop: () => slowReaderDropped, onReply: (reply) => void (reply.result === true && (accepted += 1)) }),
      ),
    )
    await watching
    slowReaderDropped = (await stats()).droppedClients > 0
    for (const client of [reader, ...publishers]) client.close()
    await sleep(300)
    const afterSlowReader = await stats()

    // 2. The flood.
    const floodClients = await Promise.all(Array.from({ length: FLOOD_CLIENTS }, connect))
    const refusedByLimit: Record<string, number> = {}
    let refusedWithError = 0
    const floodDeadline = Date.now() + FLOOD_MS
    const sent = await Promise.all(
      floodClients.map((client) =>
        publishLoop(client, {
          topic: () => randomBytes(32).toString('hex'),
          deadline: floodDeadline,
          maxCount: FLOOD_MAX_PER_CLIENT,
          onReply: (reply) => {
            if (!reply.error || reply.error.code === 0) return // 0: our own "closed", not the relay's answer
            refusedWithError += 1
            const limit = reply.error.message.split(':')[0]!
            refusedByLimit[limit] = (refusedByLimit[limit] ?? 0) + 1
          },
        }),
      ),
    )
    await sleep(500)
    const afterFlood = await stats()

    const limits = defaultRelayLimits
    const perConnectionBytes = limits.maxBufferedBytesPerClient + limits.maxFetchBytes + limits.maxFrameBytes
    const mostConnections = Math.max(FLOOD_CLIENTS, SLOW_READER_PUBLISHERS + 1)
    return {
      floodClients: FLOOD_CLIENTS,
      floodMessagesSent: sent.reduce((sum, n) => sum + n, 0),
      floodMessagesStored: afterFlood.storedMessages - afterSlowReader.storedMessages,
      refusedWithError,
      refusedByLimit,
      evictedMessages: afterFlood.evictedMessages,
      relayBaseRssMb: mb(base.rssBytes),
      relayRssMbAfterSlowReader: mb(afterSlowReader.rssBytes),
      relayRssMbAfterFlood: mb(afterFlood.rssBytes),
      relayHeapUsedMbAfterFlood: mb(afterFlood.heapUsedBytes),
      storedMbAfterFlood: mb(afterFlood.storedBytes),
      slowReaderDropped,
      slowReaderPublishesAccepted: accepted,
      rssBoundMb: Math.round(mb(base.rssBytes) + mb(limits.maxStoredBytesTotal) + mb(V8_HEADROOM_BYTES) + mb(perConnectionBytes * mostConnections)),
    }
  } finally {
    for (const client of clients) client.close()
    await stopProcess(child)
  }
}
