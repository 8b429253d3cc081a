import { createWidgetError } from '../../../shared/protocol/errors'
import type { DecodedLog, LogSet } from '../../../shared/protocol/core/coreApi'
import { toDecodedLog, type AnyLog, type LogDecoder } from './createLogDecoder'

export type CreateLogSetsParameters = {
  /** Sets held at once; adding one more drops the one read least recently. */
  maxSets?: number
  /** The most logs one read answers. */
  maxReadLimit?: number
}

type Held = { logs: readonly AnyLog[]; decoder: LogDecoder }

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0

/**
 * Log sets held in the worker: eth_getLogs answers kept as the node sent them (only the logs of the ABI's events), so
 * the page gets a count and reads slices, decoded when read, instead of every decoded log copied at once.
 * 1. add() keeps the logs the decoder matches and answers `{ id, chainId, count }`;
 * 2. read() decodes `logs[offset, offset + limit)`; a log that matched but fails strict decoding comes back with
 *    `eventName` and `args` undefined, so offsets stay those of the count;
 * 3. ids carry a random prefix per worker: after a restart an old id names nothing (RESOURCE_NOT_FOUND) rather than
 *    another set.
 * @example const sets = createLogSets(); const { id } = sets.add({ chainId, logs, decoder }); sets.read({ id, offset: 0, limit: 50 })
 */
export function createLogSets({ maxSets = 16, maxReadLimit = 10_000 }: CreateLogSetsParameters = {}) {
  const prefix = [...crypto.getRandomValues(new Uint8Array(6))].map((b) => b.toString(16).padStart(2, '0')).join('')
  // A Map iterates in insertion order: reading a set moves it to the end, so the first entry is the least recent.
  const sets = new Map<string, Held>()
  let nextId = 0

  const held = (id: string) => {
    const set = sets.get(id)
    if (!set) throw createWidgetError('RESOURCE_NOT_FOUND', { details: `log set ${id} is not held by the core (released, dropped for newer sets, or the worker restarted): query it again` })
    sets.delete(id)
    sets.set(id, set)
    return set
  }

  return {
    add({ chainId, logs, decoder }: { chainId: number; logs: readonly AnyLog[]; decoder: LogDecoder }): LogSet {
      const id = `${prefix}-${++nextId}`
      sets.set(id, { logs: logs.filter((log) => decoder.matches(log)), decoder })
      while (sets.size > maxSets) sets.delete(sets.keys().next().value!)
      return { id, chainId, count: sets.get(id)!.logs.length }
    },
    read({ id, offset, limit }: { id: string; offset: number; limit: number }): DecodedLog[] {
      if (!isCount(offset)) throw createWidgetError('INVALID_MESSAGE', { details: `offset must be a whole number from 0, not ${String(offset)}`, field: 'offset' })
      if (!isCount(limit) || limit > maxReadLimit) throw createWidgetError('INVALID_MESSAGE', { details: `limit must be a whole number from 0 to ${maxReadLimit}, not ${String(limit)}`, field: 'limit' })
      const { logs, decoder } = held(id)
      return logs.slice(offset, offset + limit).map((log) => decoder.decode(log) ?? toDecodedLog(log))
    },
    /** Forgets a set; answers whether it was held. */
    release: ({ id }: { id: string }) => sets.delete(id),
    get size() {
      return sets.size
    },
  }
}

export type LogSets = ReturnType<typeof createLogSets>
