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
  /**
   * Requests of one client being answered at once (waiting on the store, each holding its message): past it, its socket
   * is not read until one ends.
   */
  maxPendingRequestsPerClient: number
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
  maxPendingRequestsPerClient: 16,
}

/**
 * What a stored message costs beyond its own bytes: its record, its topic string and the bookkeeping of its publisher,
 * so a flood of tiny messages (or of fresh client keys) is bounded by the same byte limits.
 */
export const RECORD_BYTES = 512
