import { randomBytes } from 'node:crypto'
import type { Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { freePorts } from '../stack/ports'
import { createRelay, RECORD_BYTES, type CreateRelayParameters, type Relay } from './createRelay'
import { connectRawClient, type RawClient } from './testing/connectRawClient'
import { createClientJwt } from './testing/createClientJwt'
import { relayStoreCases } from './testing/relayStoreCases'

const relays: Relay[] = []
afterEach(async () => {
  await Promise.all(relays.splice(0).map((relay) => relay.close()))
})

async function launchRelay(parameters: Omit<CreateRelayParameters, 'port'>) {
  const relay = createRelay({ port: (await freePorts()).relay, ...parameters })
  relays.push(relay)
  await relay.ready
  return relay
}

const freshTopic = () => randomBytes(32).toString('hex')
const publish = (client: RawClient, topic: string, message: string, { ttl = 300, tag = 0 }: { ttl?: unknown; tag?: unknown } = {}) =>
  client.request('irn_publish', { topic, message, ttl, tag })
const limitError = (message: string) => ({ error: { code: -32005, message } })
/** Stops reading: the kernel buffers fill, then the relay's send buffer grows. */
const pauseReading = (client: RawClient) => (client.socket as unknown as { _socket: Socket })._socket.pause()

// Every rule holds on both stores: one instance's memory, and Redis (shared by instances: see redis.test.ts).
describe.each(relayStoreCases())('relay limits (%s store)', (_name, store) => {
  const startRelay = (parameters: Omit<CreateRelayParameters, 'port'> = {}) => launchRelay({ store: store(), ...parameters })
  const sharedTopic = freshTopic()
  it.each<[string, CreateRelayParameters['limits'], (client: RawClient, relayUrl: string) => Promise<unknown>, (client: RawClient) => Promise<unknown>, string]>([
    ['maxMessageBytes', { maxMessageBytes: 100 }, async () => {}, (a) => publish(a, freshTopic(), 'x'.repeat(101)), 'maxMessageBytes: the message is 101 bytes, at most 100'],
    [
      'maxStoredBytesPerClient',
      { maxStoredBytesPerClient: 3 * (10 + RECORD_BYTES) },
      async (a) => {
        for (let i = 0; i < 3; i++) expect(await publish(a, freshTopic(), 'x'.repeat(10))).toMatchObject({ result: true })
      },
      (a) => publish(a, freshTopic(), 'x'.repeat(10)),
      `maxStoredBytesPerClient: at most ${3 * (10 + RECORD_BYTES)} bytes stored per client until its messages expire`,
    ],
    [
      'maxStoredTopicsPerClient',
      { maxStoredTopicsPerClient: 2 },
      async (a) => {
        for (const topic of [sharedTopic, freshTopic(), sharedTopic]) expect(await publish(a, topic, 'm')).toMatchObject({ result: true })
      },
      (a) => publish(a, freshTopic(), 'm'),
      'maxStoredTopicsPerClient: messages stored on at most 2 topics per client until they expire',
    ],
    [
      'maxSubscriptionsPerClient',
      { maxSubscriptionsPerClient: 3 },
      (a) => a.request('irn_batchSubscribe', { topics: [freshTopic(), freshTopic()] }),
      (a) => a.request('irn_batchSubscribe', { topics: [freshTopic(), freshTopic()] }),
      'maxSubscriptionsPerClient: at most 3 subscriptions per client',
    ],
    ['maxBatchTopics (subscribe)', { maxBatchTopics: 2 }, async () => {}, (a) => a.request('irn_batchSubscribe', { topics: [freshTopic(), freshTopic(), freshTopic()] }), 'maxBatchTopics: at most 2 topics per call'],
    ['maxBatchTopics (fetch)', { maxBatchTopics: 2 }, async () => {}, (a) => a.request('irn_batchFetchMessages', { topics: [freshTopic(), freshTopic(), freshTopic()] }), 'maxBatchTopics: at most 2 topics per call'],
  ])('refuses past %s with -32005 naming it, stores nothing, and keeps serving others', async (_name, limits, fill, exceed, message) => {
    const relay = await startRelay({ limits })
    const [a, b] = await Promise.all([connectRawClient(relay.url), connectRawClient(relay.url)])
    await fill(a, relay.url)
    const before = await relay.relayStats()
    expect(await exceed(a)).toMatchObject(limitError(message))
    expect(await relay.relayStats()).toEqual(before)
    // The refused client is still connected, and the others are served.
    expect(await a.request('irn_subscribe', { topic: freshTopic() })).toMatchObject({ result: expect.any(String) })
    const topic = freshTopic()
    expect(await b.request('irn_subscribe', { topic })).toMatchObject({ result: expect.any(String) })
    a.close()
    b.close()
  })

  it.each([
    ['bytes', { maxStoredBytesTotal: 3 * (100 + RECORD_BYTES) }],
    ['topics', { maxStoredTopicsTotal: 3 }],
  ] as const)('makes room under the total of stored %s by dropping the oldest messages relay-wide, refusing nobody', async (_name, limits) => {
    const relay = await startRelay({ limits })
    const [a, b] = await Promise.all([connectRawClient(relay.url), connectRawClient(relay.url)])
    const topics = Array.from({ length: 5 }, freshTopic)
    // a fills the relay first; b's messages later push a's oldest out.
    for (const [i, topic] of topics.entries()) expect(await publish(i < 3 ? a : b, topic, `${i}`.repeat(100))).toMatchObject({ result: true })
    expect(await relay.relayStats()).toMatchObject({ storedMessages: 3, topics: 3, evictedMessages: 2 })
    const reader = await connectRawClient(relay.url)
    const { result } = (await reader.request('irn_batchFetchMessages', { topics })) as { result: { messages: { message: string }[] } }
    expect(result.messages.map((m) => m.message[0])).toEqual(['2', '3', '4'])
    for (const client of [a, b, reader]) client.close()
  })

  it('counts message sizes in UTF-8 bytes, not characters', async () => {
    const relay = await startRelay({ limits: { maxMessageBytes: 100 } })
    const client = await connectRawClient(relay.url)
    expect(await publish(client, freshTopic(), '€'.repeat(34))).toMatchObject(limitError('maxMessageBytes: the message is 102 bytes, at most 100'))
    expect(await publish(client, freshTopic(), '€'.repeat(33))).toMatchObject({ result: true })
    expect(await relay.relayStats()).toMatchObject({ storedMessages: 1, storedBytes: 99 + RECORD_BYTES })
    client.close()
  })

  it('keeps the totals within the limits through a flood from many clients, and accounts every byte', async () => {
    const messageBytes = 2_048 + RECORD_BYTES
    const limits = { maxMessageBytes: 2_048, maxStoredBytesPerClient: 10 * messageBytes, maxStoredBytesTotal: 16 * messageBytes, maxStoredTopicsPerClient: 4, maxStoredTopicsTotal: 12 }
    const relay = await startRelay({ limits })
    const clients = await Promise.all(Array.from({ length: 8 }, () => connectRawClient(relay.url)))
    // Each client sends 30 at once, a third on a topic of its own and the rest on fresh topics, with the longest ttl.
    const replies = await Promise.all(
      clients.map((client, c) =>
        Promise.all(Array.from({ length: 30 }, (_, i) => publish(client, i % 3 ? freshTopic() : `${c}`.padStart(64, '0'), 'x'.repeat(2_048), { ttl: 30 * 86_400 }))),
      ),
    )
    const accepted = replies.flat().filter((reply) => reply.result === true).length
    const refusals = new Set(replies.flat().filter((reply) => reply.error).map((reply) => `${reply.error!.code} ${reply.error!.message.split(':')[0]}`))
    expect([...refusals].every((refusal) => /^-32005 maxStored(Topics|Bytes)PerClient$/.test(refusal))).toBe(true)
    const stats = await relay.relayStats()
    expect(stats.storedBytes).toBeLessThanOrEqual(limits.maxStoredBytesTotal)
    expect(stats.topics).toBeLessThanOrEqual(limits.maxStoredTopicsTotal)
    expect(stats.evictedMessages).toBeGreaterThan(0)
    expect(stats).toMatchObject({ storedMessages: accepted - stats.evictedMessages, storedBytes: (accepted - stats.evictedMessages) * messageBytes, clients: 8 })
    for (const client of clients) client.close()
  })

  it('drops the oldest message of a full topic and frees its publisher', async () => {
    const relay = await startRelay({ limits: { maxMessagesPerTopic: 3, maxStoredBytesPerClient: 3 * (2 + RECORD_BYTES) } })
    const [writer, reader] = await Promise.all([connectRawClient(relay.url), connectRawClient(relay.url)])
    const topic = freshTopic()
    // A fourth message fits the writer's quota only because the topic lets its first one go.
    for (const message of ['m1', 'm2', 'm3', 'm4']) expect(await publish(writer, topic, message)).toMatchObject({ result: true })
    expect(await relay.relayStats()).toMatchObject({ storedMessages: 3, storedBytes: 3 * (2 + RECORD_BYTES) })
    await reader.request('irn_subscribe', { topic })
    await expect.poll(() => reader.pushes.map((push) => push.message)).toEqual(['m2', 'm3', 'm4'])
    writer.close()
    reader.close()
  })

  it('keeps the messages of a client that left for its peer, still charged to its key', async () => {
    const relay = await startRelay({ limits: { maxStoredBytesPerClient: 2 * (2 + RECORD_BYTES) } })
    const jwt = createClientJwt({ aud: relay.url })
    const topic = freshTopic()
    const writer = await connectRawClient(relay.url, { jwt })
    expect(await publish(writer, topic, 'm1')).toMatchObject({ result: true })
    expect(await publish(writer, topic, 'm2')).toMatchObject({ result: true })
    writer.close()
    await expect.poll(() => relay.relayStats()).toMatchObject({ clients: 0, storedMessages: 2 })
    const again = await connectRawClient(relay.url, { jwt })
    expect(await publish(again, topic, 'm3')).toMatchObject(limitError(`maxStoredBytesPerClient: at most ${2 * (2 + RECORD_BYTES)} bytes stored per client until its messages expire`))
    const reader = await connectRawClient(relay.url)
    await reader.request('irn_subscribe', { topic })
    await expect.poll(() => reader.pushes.map((push) => push.message)).toEqual(['m1', 'm2'])
    again.close()
    reader.close()
  })

  it('stores both wc_approveSession messages or neither', async () => {
    const relay = await startRelay({ limits: { maxStoredBytesPerClient: 2 + RECORD_BYTES } })
    const wallet = await connectRawClient(relay.url)
    const reply = await wallet.request('wc_approveSession', { pairingTopic: freshTopic(), sessionTopic: freshTopic(), sessionProposalResponse: 'r1', sessionSettlementRequest: 's1', ttl: 300 })
    expect(reply).toMatchObject({ error: { code: -32005, message: expect.stringMatching(/^maxStoredBytesPerClient: /) } })
    expect(await relay.relayStats()).toMatchObject({ storedMessages: 0, storedBytes: 0, topics: 0 })
    wallet.close()
  })

  it('sweeps expired messages on a timer, with nobody reading their topics, and gives the quota back', async () => {
    let clockMs = Date.now()
    const relay = await startRelay({ now: () => clockMs, sweepIntervalMs: 10, limits: { maxStoredBytesPerClient: 2 * (1 + RECORD_BYTES) } })
    const client = await connectRawClient(relay.url)
    expect(await publish(client, freshTopic(), 'a', { ttl: 10 })).toMatchObject({ result: true })
    expect(await publish(client, freshTopic(), 'b', { ttl: 60 })).toMatchObject({ result: true })
    expect(await publish(client, freshTopic(), 'c', { ttl: 10 })).toMatchObject(limitError(`maxStoredBytesPerClient: at most ${2 * (1 + RECORD_BYTES)} bytes stored per client until its messages expire`))
    clockMs += 10_000
    await expect.poll(() => relay.relayStats()).toMatchObject({ storedMessages: 1, storedBytes: 1 + RECORD_BYTES, topics: 1 })
    clockMs += 50_000
    await expect.poll(() => relay.relayStats()).toMatchObject({ storedMessages: 0, storedBytes: 0, topics: 0 })
    expect(await publish(client, freshTopic(), 'c', { ttl: 10 })).toMatchObject({ result: true })
    client.close()
  })

  it('stops its sweep timer on close()', async () => {
    let clockReads = 0
    const now = () => {
      clockReads += 1
      return Date.now()
    }
    const relay = await startRelay({ now, sweepIntervalMs: 5 })
    const client = await connectRawClient(relay.url)
    await publish(client, freshTopic(), 'kept', { ttl: 3_600 })
    const readsWhileOpen = clockReads
    await expect.poll(() => clockReads).toBeGreaterThan(readsWhileOpen + 2)
    await relay.close()
    const readsAtClose = clockReads
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(clockReads).toBe(readsAtClose)
  })

  it('answers irn_batchFetchMessages in pages of at most maxFetchBytes, with hasMore until the last', async () => {
    const entryBytes = 1_000 + RECORD_BYTES
    const relay = await startRelay({ limits: { maxFetchBytes: 3 * entryBytes } })
    const [writer, reader] = await Promise.all([connectRawClient(relay.url), connectRawClient(relay.url)])
    const topics = [freshTopic(), freshTopic()]
    for (let i = 0; i < 7; i++) await publish(writer, topics[i % 2]!, `${i}`.padEnd(1_000, '.'))
    const pages: { messages: { message: string }[]; hasMore: boolean }[] = []
    for (let i = 0; i < 4; i++) pages.push((await reader.request('irn_batchFetchMessages', { topics })).result as (typeof pages)[number])
    expect(pages.map((page) => [page.messages.length, page.hasMore])).toEqual([[3, true], [3, true], [1, false], [0, false]])
    expect(new Set(pages.flatMap((page) => page.messages.map((m) => m.message[0]))).size).toBe(7)
    writer.close()
    reader.close()
  })

  it.each<[string, Record<string, unknown>, string]>([
    ['no ttl', { ttl: undefined }, 'ttl'],
    ['a ttl below 10 s', { ttl: 9 }, 'ttl'],
    ['a ttl above 30 days', { ttl: 30 * 86_400 + 1 }, 'ttl'],
    ['a fractional ttl', { ttl: 300.5 }, 'ttl'],
    ['a ttl as a string', { ttl: '300' }, 'ttl'],
    ['a negative tag', { tag: -1 }, 'tag'],
    ['a fractional tag', { tag: 1100.5 }, 'tag'],
    ['a tag above u32', { tag: 2 ** 32 }, 'tag'],
    ['a tag as a string', { tag: '1100' }, 'tag'],
  ])('refuses a publish with %s (-32602 naming the field)', async (_name, params, field) => {
    const relay = await startRelay()
    const client = await connectRawClient(relay.url)
    const expected = field === 'ttl' ? 'ttl: expected an integer number of seconds from 10 to 2592000' : 'tag: expected an integer from 0 to 4294967295'
    expect(await client.request('irn_publish', { topic: freshTopic(), message: 'm', ttl: 300, tag: 1108, ...params })).toMatchObject({ error: { code: -32602, message: expected } })
    expect(await client.request('wc_proposeSession', { pairingTopic: freshTopic(), sessionProposal: 'p', ttl: 300, ...params })).toMatchObject({ error: { code: -32602, message: expected } })
    expect(await relay.relayStats()).toMatchObject({ storedMessages: 0 })
    client.close()
  })

  it('accepts the ttls and tags @walletconnect/core sends', async () => {
    const relay = await startRelay()
    const [writer, reader] = await Promise.all([connectRawClient(relay.url), connectRawClient(relay.url)])
    const topic = freshTopic()
    await reader.request('irn_subscribe', { topic })
    // wc_pairingPing (30 s, 1002), a session request (5 min, 1108), wc_sessionSettle (1 day, 1102), the protocol's bounds.
    for (const [ttl, tag] of [[30, 1002], [300, 1108], [86_400, 1102], [10, 0], [30 * 86_400, 2 ** 32 - 1]]) {
      expect(await publish(writer, topic, `${ttl}`, { ttl, tag })).toMatchObject({ result: true })
    }
    expect(await writer.request('wc_proposeSession', { pairingTopic: topic, sessionProposal: 'proposal', ttl: 300 })).toMatchObject({ result: true })
    await expect.poll(() => reader.pushes.map((push) => push.tag)).toEqual([1002, 1108, 1102, 0, 2 ** 32 - 1, 1100])
    writer.close()
    reader.close()
  })

  it('answers a frame above maxRequestBytes with an error naming the limit, keeps the socket open, and closes only above maxFrameBytes', async () => {
    const relay = await startRelay()
    const client = await connectRawClient(relay.url)
    const topic = freshTopic()
    // The largest message fits in a request frame.
    expect(await publish(client, topic, 'x'.repeat(64 * 1_024))).toMatchObject({ result: true })
    const frame = JSON.stringify({ id: 7, jsonrpc: '2.0', method: 'irn_publish', params: { topic, message: 'x'.repeat(300 * 1_024), ttl: 300, tag: 0 } })
    const answered = new Promise((resolve) => client.socket.once('message', (data) => resolve(JSON.parse(data.toString()))))
    client.socket.send(frame)
    expect(await answered).toEqual({ id: 7, jsonrpc: '2.0', error: { code: -32005, message: `maxRequestBytes: the frame is ${Buffer.byteLength(frame)} bytes, at most ${256 * 1_024}` } })
    expect(await client.request('irn_subscribe', { topic })).toMatchObject({ result: expect.any(String) })
    client.socket.send('x'.repeat(1_024 * 1_024 + 1))
    expect(await client.closed).toMatchObject({ code: 1009 })
    await expect.poll(() => relay.relayStats()).toMatchObject({ clients: 0, storedMessages: 1 })
  })

  it('closes a connection past maxClients with 1013 and serves the next one once a client leaves', async () => {
    const relay = await startRelay({ limits: { maxClients: 2 } })
    const [a] = await Promise.all([connectRawClient(relay.url), connectRawClient(relay.url)])
    expect(await (await connectRawClient(relay.url)).closed).toEqual({ code: 1013, reason: 'maxClients: the relay serves at most 2 clients' })
    a.close()
    await expect.poll(() => relay.clientCount()).toBe(1)
    const c = await connectRawClient(relay.url)
    expect(await c.request('irn_subscribe', { topic: freshTopic() })).toMatchObject({ result: expect.any(String) })
  })

  it('drops a subscriber that stops reading, frees what it had buffered, and keeps serving the publisher', async () => {
    const dropped: { publicKey: string; reason: string }[] = []
    const maxBufferedBytesPerClient = 256 * 1_024
    const relay = await startRelay({ limits: { maxBufferedBytesPerClient, maxStoredBytesPerClient: 64 * 1_024 * 1_024 }, onClientDropped: (event) => dropped.push(event) })
    const [writer, reader] = await Promise.all([connectRawClient(relay.url), connectRawClient(relay.url)])
    const topic = freshTopic()
    await reader.request('irn_subscribe', { topic })
    pauseReading(reader)
    let mostBuffered = 0
    // Bounded: 400 × 64 KiB, far more than loopback's kernel buffers and the limit together.
    for (let i = 0; i < 400 && !dropped.length; i++) {
      expect(await publish(writer, topic, 'x'.repeat(64 * 1_024))).toMatchObject({ result: true })
      mostBuffered = Math.max(mostBuffered, (await relay.relayStats()).bufferedBytes)
    }
    expect(dropped).toEqual([{ publicKey: expect.stringMatching(/^did:key:z/), reason: expect.stringMatching(new RegExp(`^maxBufferedBytesPerClient: \\d+ bytes unread, at most ${maxBufferedBytesPerClient}$`)) }])
    expect(mostBuffered).toBeGreaterThan(64 * 1_024)
    expect(await relay.relayStats()).toMatchObject({ clients: 1, bufferedBytes: 0, droppedClients: 1 })
    expect(await publish(writer, topic, 'still served')).toMatchObject({ result: true })
    ;(reader.socket as unknown as { _socket: Socket })._socket.resume() // it reads what the kernel held, then the end
    expect(await reader.closed).toMatchObject({ code: 1006 })
    writer.close()
  })
})
