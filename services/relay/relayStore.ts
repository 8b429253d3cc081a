import type { RelayLimits } from './relayLimits'

/**
 * A message as the store keeps it. `id` grows with every message stored relay-wide, so a connection's progress on a topic
 * is a few numbers (see Cursor in createRelay), never a set of the messages it was given.
 */
export type StoredMessage = {
  id: number
  topic: string
  message: string
  tag: number
  publishedAt: number
  expiresAt: number
  /** The did:key of the client that published it: the account it is charged to. */
  publisher: string
  /** What the byte limits count: its UTF-8 bytes plus RECORD_BYTES. */
  bytes: number
}

export type NewMessage = Omit<StoredMessage, 'id'>

/** Limits a store enforces itself, since only the store sees every instance's messages. */
export type StoreQuotaLimit = 'maxStoredTopicsPerClient' | 'maxStoredBytesPerClient'

export type PublishResult = { isStored: true; messages: StoredMessage[] } | { isStored: false; refusedBy: StoreQuotaLimit }

/** One topic of a fetch: the messages with ids above `afterId`, except those in (`skip.fromId`, `skip.toId`]. */
export type FetchTopic = { topic: string; afterId: number; skip?: { fromId: number; toId: number } }

export type FetchRequest = {
  topics: FetchTopic[]
  /** Its own messages are never given back to a client. */
  reader: string
  /** Bytes (as StoredMessage.bytes counts them) in one answer; the first message is given whatever its size. */
  maxBytes: number
}

export type FetchResult = {
  /** Every live message asked for, topic by topic in id order, until `maxBytes`. */
  messages: StoredMessage[]
  /**
   * Per topic of the request, in its order: `examinedUpTo` is the last id looked at (given, or skipped as the reader's
   * own or expired), and `isComplete` says the topic was read to its end, which the store's `lastId` then stands for.
   */
  topics: { examinedUpTo: number; isComplete: boolean }[]
  /** The highest id the store had handed out when it answered. */
  lastId: number
}

export type StoreStats = { topics: number; storedMessages: number; storedBytes: number; evictedMessages: number }

/** What a store tells its relay. */
export type RelayStoreContext = {
  limits: RelayLimits
  now: () => number
  /** A new message on a topic the instance watches (a store may also report topics nobody here watches). */
  onMessage: (message: StoredMessage) => void
  /**
   * New messages may have been missed since the last call to `onMessagesResumed` (a connection to a shared store
   * dropped). The relay holds pushes back until then and fetches what its connections missed.
   */
  onMessagesInterrupted: () => void
  /** Messages flow again; `isDataLost` says the store lost what it held, so every connection's progress restarts. */
  onMessagesResumed: (event: { isDataLost: boolean }) => void
}

/**
 * Where the relay keeps stored messages and per-client accounts, and how a message published on one instance reaches
 * the others. Every method may reject with RelayStoreUnavailableError; none of them hangs.
 */
export type RelayStore = {
  /** Resolves once the store answers for the first time. */
  ready: Promise<void>
  /**
   * Checks the messages against the per-topic and per-client limits, makes room under the totals (oldest first), stores
   * all of them or none, and then reports each through every instance's `onMessage`. Resolves once they are stored.
   */
  publish: (messages: NewMessage[]) => Promise<PublishResult>
  fetch: (request: FetchRequest) => Promise<FetchResult>
  /** The highest id handed out so far. */
  lastId: () => Promise<number>
  /** Reports the topic's new messages to `onMessage` from when this resolves; counted, so each watch needs an unwatch. */
  watch: (topic: string) => Promise<void>
  unwatch: (topic: string) => void
  /** Removes expired messages, giving their bytes back to their publishers. */
  sweep: () => Promise<void>
  stats: () => Promise<StoreStats>
  /** Whether the store answers now (for the health check). */
  isAvailable: () => Promise<boolean>
  close: () => Promise<void>
}

/** How createRelay makes its store (memoryStore(), redisStore({ url })). */
export type RelayStoreFactory = (context: RelayStoreContext) => RelayStore

/**
 * The store did not answer (Redis unreachable, or slower than its command timeout). A publish that fails so was not
 * acknowledged, though a store that answers late may still keep it: the client sends it again, and WalletConnect
 * clients ignore a message they already have.
 */
export class RelayStoreUnavailableError extends Error {
  constructor(options?: { cause?: unknown }) {
    super("The relay's message store is unavailable; try again in a few seconds.", options)
    this.name = 'RelayStoreUnavailableError'
  }
}
