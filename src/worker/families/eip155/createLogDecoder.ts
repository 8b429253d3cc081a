import { decodeEventLog, toEventSelector, type Abi, type AbiEvent, type Hex, type Log, type RpcLog } from 'viem'
import type { DecodedLog } from '../../../shared/protocol/core/coreApi'

/** A log as the node sends it (hex quantities) or as viem formats it (bigint and numbers). */
export type AnyLog = Pick<Log | RpcLog, 'address' | 'blockNumber' | 'data' | 'logIndex' | 'topics' | 'transactionHash'>

export type LogDecoder = {
  /** Whether the log has the shape of one event of the ABI (selector, topic count, data): cheap, no decoding. */
  matches(log: AnyLog): boolean
  /** The log decoded against the ABI, or undefined when it is not one of its events. */
  decode(log: AnyLog): DecodedLog | undefined
}


/** The log's place (address, block, transaction, index) with its decoded event, if any, as the page receives it. */
export const toDecodedLog = (log: AnyLog, decoded?: { eventName: string; args: unknown }): DecodedLog => ({
  eventName: decoded?.eventName,
  args: decoded?.args,
  address: log.address,
  blockNumber: log.blockNumber === null ? null : BigInt(log.blockNumber),
  transactionHash: log.transactionHash,
  logIndex: log.logIndex === null ? null : Number(log.logIndex),
})

/**
 * Decodes logs against one ABI, with the ABI's event selectors hashed once rather than once per log.
 * 1. `matches` finds the log's event as viem's decodeEventLog does (by selector; anonymous events by topic count, only
 *    when `eventName` names one or every event is anonymous) and checks what strict decoding needs: a topic per
 *    indexed input and data when the event has non-indexed inputs;
 * 2. `decode` runs viem's strict decodeEventLog against that event alone.
 * @example const decoder = createLogDecoder({ abi: erc20Abi, eventName: 'Transfer' }); const decoded = decoder.decode(log)
 */
export function createLogDecoder({ abi, eventName }: { abi: Abi; eventName?: string }): LogDecoder {
  const events = abi.filter((item): item is AbiEvent => item.type === 'event' && 'name' in item)
  const indexedCounts = new Map(events.map((event) => [event, event.inputs.filter((input) => input.indexed).length]))
  const indexedCount = (event: AbiEvent) => indexedCounts.get(event)!
  const bySelector = new Map<Hex, AbiEvent>()
  // The first event of a selector wins, as in decodeEventLog's find().
  for (const event of events) {
    const selector = event.anonymous ? undefined : toEventSelector(event)
    if (selector && !bySelector.has(selector)) bySelector.set(selector, event)
  }
  const requested = eventName ? events.filter((e) => e.name === eventName) : events.every((e) => e.anonymous) ? events : []
  const anonymous = requested.filter((e) => e.anonymous)

  const eventOf = (topics: readonly Hex[]) => {
    const named = topics[0] ? bySelector.get(topics[0]) : undefined
    if (named) return named
    const candidates = anonymous.filter((e) => indexedCount(e) === topics.length)
    return candidates.length === 1 ? candidates[0] : undefined
  }

  const hasShape = (event: AbiEvent, { topics, data }: AnyLog) =>
    topics.length - (event.anonymous ? 0 : 1) >= indexedCount(event) && (event.inputs.every((input) => input.indexed) || data.length > 2)

  return {
    matches(log) {
      const event = eventOf(log.topics)
      return event !== undefined && hasShape(event, log)
    },
    decode(log) {
      const event = eventOf(log.topics)
      if (!event || !hasShape(event, log)) return undefined
      try {
        return toDecodedLog(log, decodeEventLog({ abi: [event], data: log.data, topics: log.topics as [Hex, ...Hex[]], eventName, strict: true }))
      } catch {
        return undefined
      }
    },
  }
}
