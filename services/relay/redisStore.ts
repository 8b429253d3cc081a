import { Redis, ReplyError, type RedisOptions } from 'ioredis'
import { fetchScript, publishScript, raiseLastIdScript, sweepScript } from './redisScripts'
import { RelayStoreUnavailableError, type FetchResult, type RelayStoreFactory, type StoredMessage, type StoreQuotaLimit } from './relayStore'

export type RedisStoreParameters = {
  /** `redis://[[user]:password@]host:port[/db]`, or `rediss://…` for TLS. */
  url: string
  /** Put before every key and channel, so several relays (or tests) can share one Redis. */
  keyPrefix?: string
  /** A command Redis has not answered by then fails, and the client's request with it. */
  commandTimeoutMs?: number
  /** Expired messages removed per round trip of a sweep. */
  sweepBatch?: number
}

/** Channels subscribed per SUBSCRIBE when a connection comes back. */
const RESUBSCRIBE_CHUNK = 1_000
const RESTORE_RETRY_MS = 1_000

/** The URL without its password, for messages. */
export const redactRedisUrl = (url: string) => {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'an invalid Redis URL'
  }
}

/**
 * The relay's store in Redis, shared by any number of relay instances: messages, quotas and totals live in Redis and
 * change only through Lua scripts (one atomic step each: see redisScripts.ts); new messages reach the other instances
 * over pub/sub, one channel per topic, which each instance subscribes to while a client of its own does. Nothing in
 * the process grows per message. While Redis does not answer, every call fails within commandTimeoutMs with
 * RelayStoreUnavailableError (none is queued), and ioredis reconnects by itself; a publish resolves only once Redis
 * has stored it, so run Redis with AOF (`appendonly yes`) to keep acknowledged messages through its restarts.
 * @example createRelay({ port: 8790, store: redisStore({ url: process.env.REDIS_URL! }) })
 */
export function redisStore({ url, keyPrefix = 'tessera:relay:', commandTimeoutMs = 2_000, sweepBatch = 1_000 }: RedisStoreParameters): RelayStoreFactory {
  return ({ limits, now, onMessage, onMessagesInterrupted, onMessagesResumed }) => {
    const options: RedisOptions = {
      // Fail at once while disconnected rather than queue (a client's request must not hang), and fail what was in
      // flight when a connection drops rather than send it again later.
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      maxRetriesPerRequest: 0,
      commandTimeout: commandTimeoutMs,
      retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
      // Subscriptions are restored by `restore`, which must know when they are.
      autoResubscribe: false,
    }
    const commands = new Redis(url, options)
    const subscriber = new Redis(url, options)
    // ioredis reports every failed attempt to reconnect; each request meanwhile fails on its own.
    commands.on('error', () => {})
    subscriber.on('error', () => {})
    const scripts = { relayPublish: publishScript, relayFetch: fetchScript, relaySweep: sweepScript, relayRaiseLastId: raiseLastIdScript }
    for (const [name, lua] of Object.entries(scripts)) commands.defineCommand(name, { numberOfKeys: 0, lua })
    const channelOf = (topic: string) => `${keyPrefix}c:${topic}`
    /** The highest id seen: no id handed out later may be at or below it, even if Redis lost its data. */
    let highestId = 0
    const seen = (id: number) => {
      highestId = Math.max(highestId, id)
      return id
    }
    const parse = (json: string) => {
      const message = JSON.parse(json) as StoredMessage
      seen(message.id)
      return message
    }

    /**
     * Runs a command. Redis answering `ERR …` (a script's own error: a bug, not an outage) is thrown as it is; anything
     * else (no connection, a timeout, LOADING, OOM…) becomes RelayStoreUnavailableError.
     */
    const run = async <T>(command: () => Promise<T>): Promise<T> => {
      try {
        return await command()
      } catch (error) {
        if (error instanceof ReplyError && (error as Error).message.startsWith('ERR')) throw error
        throw new RelayStoreUnavailableError({ cause: error })
      }
    }
    const script = (name: keyof typeof scripts, args: (string | number)[]) =>
      run(() => (commands as unknown as Record<string, (...args: (string | number)[]) => Promise<unknown>>)[name]!(keyPrefix, now(), ...args))

    /** Topic → how many watches; `subscribed` settles when Redis confirmed the SUBSCRIBE. */
    const watched = new Map<string, { count: number; subscribed: Promise<unknown> }>()
    subscriber.on('message', (_channel: string, json: string) => onMessage(parse(json)))

    // A dropped subscriber connection misses messages: the relay holds pushes until `restore` subscribed again.
    let isInterrupted = false
    let wasReady = false
    let isClosed = false
    subscriber.on('close', () => {
      if (!wasReady || isInterrupted || isClosed) return
      isInterrupted = true
      onMessagesInterrupted()
    })
    let restoreRetry: NodeJS.Timeout | undefined
    const restore = async () => {
      clearTimeout(restoreRetry)
      if (!isInterrupted || subscriber.status !== 'ready') return
      try {
        const channels = [...watched.keys()].map(channelOf)
        for (let start = 0; start < channels.length; start += RESUBSCRIBE_CHUNK) await subscriber.subscribe(...channels.slice(start, start + RESUBSCRIBE_CHUNK))
        const isDataLost = (await script('relayRaiseLastId', [highestId])) === 1
        isInterrupted = false
        onMessagesResumed({ isDataLost })
      } catch {
        restoreRetry = setTimeout(() => void restore(), RESTORE_RETRY_MS)
        restoreRetry.unref()
      }
    }
    subscriber.on('ready', () => {
      wasReady = true
      void restore()
    })

    const isReady = (redis: Redis) => (redis.status === 'ready' ? Promise.resolve() : new Promise<void>((resolve) => redis.once('ready', () => resolve())))

    return {
      ready: Promise.all([isReady(commands), isReady(subscriber)]).then(() => {}),
      publish: async (messages) => {
        const { publisher } = messages[0]!
        const args: (string | number)[] = [highestId, publisher, limits.maxMessagesPerTopic, limits.maxStoredTopicsPerClient, limits.maxStoredBytesPerClient, limits.maxStoredTopicsTotal, limits.maxStoredBytesTotal]
        for (const { topic, expiresAt, bytes, ...rest } of messages) args.push(topic, expiresAt, bytes, JSON.stringify({ topic, expiresAt, bytes, ...rest }))
        const [isStored, ...ids] = (await script('relayPublish', args)) as [number, ...(number | string)[]]
        if (!isStored) return { isStored: false, refusedBy: ids[0] as StoreQuotaLimit }
        return { isStored: true, messages: messages.map((message, index) => ({ ...message, id: seen(Number(ids[index])) })) }
      },
      fetch: async ({ topics, reader, maxBytes }) => {
        const args: (string | number)[] = [reader, maxBytes]
        for (const { topic, afterId, skip } of topics) args.push(topic, afterId, skip?.fromId ?? 0, skip?.toId ?? 0)
        const [lastId, marks, payloads] = (await script('relayFetch', args)) as [number, number[], string[]]
        const result: FetchResult = { messages: payloads.map(parse), topics: [], lastId: seen(lastId) }
        for (let index = 0; index < marks.length; index += 2) result.topics.push({ examinedUpTo: marks[index]!, isComplete: marks[index + 1] === 1 })
        return result
      },
      lastId: async () => seen(Number((await run(() => commands.get(`${keyPrefix}seq`))) ?? 0)),
      watch: async (topic) => {
        let entry = watched.get(topic)
        if (!entry) {
          const created = { count: 0, subscribed: subscriber.subscribe(channelOf(topic)) }
          // A failed SUBSCRIBE forgets the topic, and every watch waiting on it fails; the next one tries again. One that
          // timed out may still reach Redis: unsubscribe (before any later SUBSCRIBE, on the same connection).
          created.subscribed.catch(() => {
            if (watched.get(topic) === created) watched.delete(topic)
            subscriber.unsubscribe(channelOf(topic)).catch(() => {})
          })
          watched.set(topic, created)
          entry = created
        }
        entry.count += 1
        await run(() => entry.subscribed)
      },
      unwatch: (topic) => {
        const entry = watched.get(topic)
        if (!entry || --entry.count > 0) return
        watched.delete(topic)
        subscriber.unsubscribe(channelOf(topic)).catch(() => {}) // a connection that dropped has no subscriptions left
      },
      sweep: async () => {
        while ((await script('relaySweep', [sweepBatch])) === sweepBatch);
      },
      stats: async () => {
        const [messages, bytes, topics, evicted] = await run(() => commands.hmget(`${keyPrefix}totals`, 'messages', 'bytes', 'topics', 'evicted'))
        return { topics: Number(topics ?? 0), storedMessages: Number(messages ?? 0), storedBytes: Number(bytes ?? 0), evictedMessages: Number(evicted ?? 0) }
      },
      isAvailable: async () => subscriber.status === 'ready' && !isInterrupted && (await commands.ping().then(() => true, () => false)),
      close: async () => {
        isClosed = true
        clearTimeout(restoreRetry)
        await Promise.all([commands, subscriber].map((redis) => redis.quit().catch(() => redis.disconnect())))
      },
    }
  }
}
