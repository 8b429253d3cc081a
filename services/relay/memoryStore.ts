import type { NewMessage, RelayStoreFactory, StoredMessage, StoreQuotaLimit } from './relayStore'

type Account = { bytes: number; topics: Map<string, number> }

/**
 * The relay's store in this process's memory, for a relay that runs as one instance (the default: `npm start`, the
 * tests). Its memory is bounded by the totals of RelayLimits; it reports every new message to the relay at once.
 * @example createRelay({ port: 8790, store: memoryStore() })
 */
export function memoryStore(): RelayStoreFactory {
  return ({ limits, now, onMessage }) => {
    const mailboxes = new Map<string, StoredMessage[]>()
    const accounts = new Map<string, Account>()
    const totals = { messages: 0, bytes: 0, evictedMessages: 0 }
    /** Every stored message, oldest first (a Set keeps insertion order): what the totals evict from. */
    const byAge = new Set<StoredMessage>()
    let lastId = 0

    const charge = (stored: StoredMessage) => {
      const account = accounts.get(stored.publisher) ?? { bytes: 0, topics: new Map<string, number>() }
      account.bytes += stored.bytes
      account.topics.set(stored.topic, (account.topics.get(stored.topic) ?? 0) + 1)
      accounts.set(stored.publisher, account)
      totals.messages += 1
      totals.bytes += stored.bytes
      byAge.add(stored)
    }

    const release = (stored: StoredMessage) => {
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
    const live = (topic: string): StoredMessage[] => {
      const box = mailboxes.get(topic)
      if (!box) return []
      const nowMs = now()
      const kept: StoredMessage[] = []
      for (const stored of box) {
        if (stored.expiresAt > nowMs) kept.push(stored)
        else release(stored)
      }
      if (kept.length === box.length) return box
      if (kept.length) mailboxes.set(topic, kept)
      else mailboxes.delete(topic)
      return kept
    }

    /** Stores one message, charged to its publisher, or names the per-client limit it would pass (storing nothing). */
    const store = (input: NewMessage): StoredMessage | StoreQuotaLimit => {
      // 1. Room on the topic: a full topic gives up its oldest message, which frees that message's publisher.
      const box = live(input.topic)
      const evicted = box.length >= limits.maxMessagesPerTopic ? box[0] : undefined
      const account = accounts.get(input.publisher)
      const ownFreed = evicted?.publisher === input.publisher ? evicted.bytes : 0
      // 2. The publisher's own limits.
      if (!account?.topics.has(input.topic) && (account?.topics.size ?? 0) >= limits.maxStoredTopicsPerClient) return 'maxStoredTopicsPerClient'
      if ((account?.bytes ?? 0) - ownFreed + input.bytes > limits.maxStoredBytesPerClient) return 'maxStoredBytesPerClient'
      // 3. Room under the totals: the oldest messages relay-wide go (a client's own quota is far below the totals).
      if (evicted) release(box.shift()!)
      const makeRoom = (isFull: () => boolean) => {
        while (isFull()) if (!evictOldest()) return
      }
      makeRoom(() => !box.length && mailboxes.size >= limits.maxStoredTopicsTotal)
      makeRoom(() => totals.bytes + input.bytes > limits.maxStoredBytesTotal)
      // 4. Store.
      lastId += 1
      const stored: StoredMessage = { ...input, id: lastId }
      box.push(stored)
      mailboxes.set(input.topic, box)
      charge(stored)
      return stored
    }

    /** Takes back a message just stored (the second of a pair was refused). */
    const unstore = (stored: StoredMessage) => {
      const box = mailboxes.get(stored.topic) ?? []
      const index = box.lastIndexOf(stored)
      if (index < 0) return
      box.splice(index, 1)
      release(stored)
      if (!box.length) mailboxes.delete(stored.topic)
    }

    return {
      ready: Promise.resolve(),
      publish: async (inputs) => {
        const stored: StoredMessage[] = []
        for (const input of inputs) {
          const result = store(input)
          if (typeof result === 'string') {
            stored.forEach(unstore)
            return { isStored: false, refusedBy: result }
          }
          stored.push(result)
        }
        stored.forEach(onMessage)
        return { isStored: true, messages: stored }
      },
      fetch: async ({ topics, reader, maxBytes }) => {
        const messages: StoredMessage[] = []
        let bytes = 0
        let isCut = false
        const marks = topics.map(({ topic, afterId, skip }) => {
          if (isCut) return { examinedUpTo: afterId, isComplete: false }
          let examinedUpTo = afterId
          for (const stored of live(topic)) {
            if (stored.id <= afterId) continue
            const isSkipped = skip !== undefined && stored.id > skip.fromId && stored.id <= skip.toId
            if (!isSkipped && stored.publisher !== reader) {
              if (messages.length && bytes + stored.bytes > maxBytes) {
                isCut = true
                return { examinedUpTo, isComplete: false }
              }
              bytes += stored.bytes
              messages.push(stored)
            }
            examinedUpTo = stored.id
          }
          return { examinedUpTo, isComplete: true }
        })
        return { messages, topics: marks, lastId }
      },
      lastId: async () => lastId,
      // Every message is reported, watched or not: the relay looks up who subscribed.
      watch: async () => {},
      unwatch: () => {},
      sweep: async () => {
        for (const topic of mailboxes.keys()) live(topic)
      },
      stats: async () => ({ topics: mailboxes.size, storedMessages: totals.messages, storedBytes: totals.bytes, evictedMessages: totals.evictedMessages }),
      isAvailable: async () => true,
      close: async () => {},
    }
  }
}
