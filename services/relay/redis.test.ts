import { spawn } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterEach, describe, expect, it } from 'vitest'
import { freePorts } from '../stack/ports'
import { createRelay, RECORD_BYTES, type Relay, type RelayLimits } from './createRelay'
import { redisStore } from './redisStore'
import { connectRawClient, type RawClient } from './testing/connectRawClient'
import { createClientJwt } from './testing/createClientJwt'
import { useRedisServer, type RedisServer } from './testing/startRedis'

const relays: Relay[] = []
const clients: RawClient[] = []
afterEach(async () => {
  for (const client of clients.splice(0)) client.close()
  await Promise.all(relays.splice(0).map((relay) => relay.close()))
})

/** The one URL clients are given for every instance, as behind a load balancer: their JWT's aud. */
const PUBLIC_URL = 'wss://relay.tessera.test'

/** Two relay instances on one Redis (keys of their own there). */
async function startInstances(redis: RedisServer, limits: Partial<RelayLimits> = {}) {
  const keyPrefix = `test:${randomUUID()}:`
  const start = async () => {
    const store = redisStore({ url: redis.url, keyPrefix, commandTimeoutMs: 1_000 })
    const relay = createRelay({ port: (await freePorts()).relay, publicUrls: [PUBLIC_URL], limits, store })
    relays.push(relay)
    await relay.ready
    return relay
  }
  return Promise.all([start(), start()])
}
/** A client on one instance; the same `jwt` on another is the same client (its did:key) on another connection. */
async function connect(relay: Relay, jwt = createClientJwt({ aud: PUBLIC_URL })) {
  const client = await connectRawClient(relay.url, { jwt })
  clients.push(client)
  return client
}
const freshTopic = () => randomBytes(32).toString('hex')
const publish = (client: RawClient, topic: string, message: string, tag = 1108) => client.request('irn_publish', { topic, message, ttl: 300, tag })
const healthOf = async (relay: Relay) => (await fetch(`${relay.url.replace('ws:', 'http:')}/health`)).status
const messagesOf = (reply: { result?: unknown }) => (reply.result as { messages: { message: string }[] }).messages.map((m) => m.message)

describe('relay instances sharing one Redis', () => {
  const redis = useRedisServer()

  it('pushes a message published through A to a subscriber on B, with its subscription id and tag, and not back to its sender', async () => {
    const [a, b] = await startInstances(redis())
    const [sender, subscriber] = await Promise.all([connect(a), connect(b)])
    const topic = freshTopic()
    const { result: subscriptionId } = await subscriber.request('irn_subscribe', { topic })
    await sender.request('irn_subscribe', { topic })
    expect(await publish(sender, topic, 'from A')).toMatchObject({ result: true })
    await expect.poll(() => subscriber.pushes).toEqual([{ topic, message: 'from A', publishedAt: expect.any(Number), tag: 1108 }])
    expect(subscriber.pushSubscriptionIds).toEqual([subscriptionId])
    // The answer goes back from B to A, and nobody gets a message twice.
    expect(await publish(subscriber, topic, 'from B', 1109)).toMatchObject({ result: true })
    await expect.poll(() => sender.pushes.map((push) => [push.message, push.tag])).toEqual([['from B', 1109]])
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect([sender.pushes.length, subscriber.pushes.length]).toEqual([1, 1])
  })

  it('gives a client that left A what was stored for it, when it comes back on B (fetched, or pushed on subscribe)', async () => {
    const [a, b] = await startInstances(redis())
    const walletJwt = createClientJwt({ aud: PUBLIC_URL })
    const [wallet, dapp] = await Promise.all([connect(a, walletJwt), connect(a)])
    const topic = freshTopic()
    await wallet.request('irn_subscribe', { topic })
    expect(await publish(wallet, topic, 'wallet was here')).toMatchObject({ result: true })
    wallet.close()
    await expect.poll(() => a.clientCount()).toBe(1)
    expect(await publish(dapp, topic, 'while you were away')).toMatchObject({ result: true })

    // As @walletconnect/core reconnects: batch subscribe, then fetch (its own message is not given back).
    const back = await connect(b, walletJwt)
    await back.request('irn_batchSubscribe', { topics: [topic] })
    expect(messagesOf(await back.request('irn_batchFetchMessages', { topics: [topic] }))).toEqual(['while you were away'])
    expect(messagesOf(await back.request('irn_batchFetchMessages', { topics: [topic] }))).toEqual([])
    // Or irn_subscribe, which pushes what is stored.
    const other = await connect(b)
    await other.request('irn_subscribe', { topic })
    await expect.poll(() => other.pushes.map((push) => push.message)).toEqual(['wallet was here', 'while you were away'])
    expect(back.pushes).toEqual([])
  })

  it('holds a client to its quota across instances, and the totals across instances, oldest out first', async () => {
    const [a, b] = await startInstances(redis(), { maxStoredBytesPerClient: 2 * (10 + RECORD_BYTES), maxStoredBytesTotal: 4 * (10 + RECORD_BYTES) })
    // One client key, connected to both instances.
    const jwt = createClientJwt({ aud: PUBLIC_URL })
    const [onA, sameKeyOnB, others] = await Promise.all([connect(a, jwt), connect(b, jwt), Promise.all([connect(b), connect(b)])])
    expect(await publish(onA, freshTopic(), '0123456789')).toMatchObject({ result: true })
    expect(await publish(sameKeyOnB, freshTopic(), '0123456789')).toMatchObject({ result: true })
    const refusal = { error: { code: -32005, message: `maxStoredBytesPerClient: at most ${2 * (10 + RECORD_BYTES)} bytes stored per client until its messages expire` } }
    expect(await publish(sameKeyOnB, freshTopic(), '0123456789')).toMatchObject(refusal)
    expect(await publish(onA, freshTopic(), '0123456789')).toMatchObject(refusal)

    // Others fill the totals through B: the oldest messages relay-wide make room, whichever instance stored them.
    for (const other of [...others, others[0]!]) expect(await publish(other, freshTopic(), 'abcdefghij')).toMatchObject({ result: true })
    const stats = await Promise.all([a.relayStats(), b.relayStats()])
    for (const { storedMessages, storedBytes, evictedMessages } of stats) expect({ storedMessages, storedBytes, evictedMessages }).toEqual({ storedMessages: 4, storedBytes: 4 * (10 + RECORD_BYTES), evictedMessages: 1 })
    // The evicted message gave its bytes back: the client may store one more, on either instance.
    expect(await publish(onA, freshTopic(), '0123456789')).toMatchObject({ result: true })
  })

  it('pushes what was published while an instance was not subscribed on Redis, once it subscribed again', async () => {
    const [a, b] = await startInstances(redis())
    const [writer, subscriber] = await Promise.all([connect(a), connect(b)])
    const topic = freshTopic()
    await subscriber.request('irn_subscribe', { topic })
    // Cut both instances' subscriber connections; A's commands go on, and it stores at once, before B is back.
    const admin = new Redis(redis().url)
    await admin.client('KILL', 'TYPE', 'pubsub')
    await admin.quit()
    expect(await publish(writer, topic, 'published while B was away')).toMatchObject({ result: true })
    await expect.poll(() => subscriber.pushes.map((push) => push.message), { timeout: 5_000 }).toEqual(['published while B was away'])
    expect(await publish(writer, topic, 'and after')).toMatchObject({ result: true })
    await expect.poll(() => subscriber.pushes.map((push) => push.message)).toEqual(['published while B was away', 'and after'])
  })

  it('answers with a JSON-RPC error while Redis is frozen, reports 503, and carries on when it thaws', async () => {
    const [a, b] = await startInstances(redis())
    const [writer, reader] = await Promise.all([connect(a), connect(b)])
    const topic = freshTopic()
    expect(await publish(writer, topic, 'before')).toMatchObject({ result: true })
    redis().pause()
    try {
      const started = Date.now()
      expect(await publish(writer, topic, 'during')).toEqual({ id: expect.any(Number), jsonrpc: '2.0', error: { code: -32002, message: "The relay's message store is unavailable; try again in a few seconds." } })
      expect(Date.now() - started).toBeLessThan(5_000)
      // More requests than a client may have in flight (16): the relay reads the rest as the first ones fail.
      const burst = await Promise.all(Array.from({ length: 20 }, () => publish(writer, topic, 'during')))
      expect(burst.map((reply) => reply.error?.code)).toEqual(Array(20).fill(-32002))
      expect(await Promise.all([healthOf(a), healthOf(b)])).toEqual([503, 503])
    } finally {
      redis().resume()
    }
    await expect.poll(() => Promise.all([healthOf(a), healthOf(b)]), { timeout: 10_000 }).toEqual([200, 200])
    expect(await publish(writer, topic, 'after')).toMatchObject({ result: true })
    await reader.request('irn_subscribe', { topic })
    // The 'during' publishes timed out on our side but reached Redis once it thawed: kept, as a client's retry would be.
    await expect.poll(() => reader.pushes.map((push) => push.message)).toEqual(['before', ...Array(21).fill('during'), 'after'])
  })
})

describe('a relay whose Redis restarts', () => {
  const redis = useRedisServer({ appendOnly: true })

  it('fails requests while Redis is down, recovers by itself, and keeps and delivers what it acknowledged', async () => {
    const [a, b] = await startInstances(redis())
    const [writer, subscriber] = await Promise.all([connect(a), connect(b)])
    const topic = freshTopic()
    await subscriber.request('irn_subscribe', { topic })
    expect(await publish(writer, topic, 'acknowledged')).toMatchObject({ result: true })
    await expect.poll(() => subscriber.pushes.map((push) => push.message)).toEqual(['acknowledged'])

    await redis().kill()
    const started = Date.now()
    expect(await publish(writer, topic, 'refused')).toMatchObject({ error: { code: -32002, message: expect.stringContaining("relay's message store is unavailable") } })
    expect(await subscriber.request('irn_subscribe', { topic: freshTopic() })).toMatchObject({ error: { code: -32002 } })
    expect(Date.now() - started).toBeLessThan(5_000)
    await expect.poll(() => Promise.all([healthOf(a), healthOf(b)])).toEqual([503, 503])

    await redis().restart()
    await expect.poll(() => Promise.all([healthOf(a), healthOf(b)]), { timeout: 10_000 }).toEqual([200, 200])
    expect(await publish(writer, topic, 'after the restart')).toMatchObject({ result: true })
    // B subscribed again by itself: the same subscription is pushed the new message.
    await expect.poll(() => subscriber.pushes.map((push) => push.message), { timeout: 5_000 }).toEqual(['acknowledged', 'after the restart'])
    // And the message acknowledged before the restart is still stored, for a client that fetches it on either instance.
    const late = await connect(a)
    expect(messagesOf(await late.request('irn_batchFetchMessages', { topics: [topic] }))).toEqual(['acknowledged', 'after the restart'])
  })
})

describe('the relay process (services/relay/main.ts)', () => {
  const redis = useRedisServer()

  it('keeps messages in the Redis of REDIS_URL, and on SIGTERM closes its clients with 1012 and exits', async () => {
    const port = (await freePorts()).relay
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/relay/main.ts'], { env: { ...process.env, PORT: String(port), REDIS_URL: redis().url }, stdio: ['ignore', 'pipe', 'inherit'] })
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    await expect.poll(() => output, { timeout: 15_000 }).toContain(`WalletConnect relay on ws://127.0.0.1:${port} (messages in Redis at ${redis().url}`)
    const url = `ws://127.0.0.1:${port}`
    const client = await connectRawClient(url)
    expect(await publish(client, freshTopic(), 'kept in Redis')).toMatchObject({ result: true })
    const admin = new Redis(redis().url)
    expect(await admin.hget('tessera:relay:totals', 'messages')).toBe('1')
    await admin.quit()
    child.kill('SIGTERM')
    expect(await client.closed).toEqual({ code: 1012, reason: 'service restart' })
    expect(await exited).toBe(0)
  }, 30_000)
})
