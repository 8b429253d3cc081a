import { randomUUID } from 'node:crypto'
import { memoryStore } from '../memoryStore'
import { redisStore } from '../redisStore'
import type { RelayStoreFactory } from '../relayStore'
import { useRedisServer } from './startRedis'

/**
 * The stores every relay rule is tested on, for `describe.each`: the memory store, and the Redis store. Call it at the
 * top of a test file: it starts a redis-server of the file's own before its tests and stops it after. Each call of a
 * case's function is a store of its own (on Redis, keys under a fresh prefix), as a fresh relay's memory would be.
 * @example describe.each(relayStoreCases())('relay limits (%s store)', (_name, store) => … createRelay({ port, store: store() }))
 */
export function relayStoreCases(): [string, () => RelayStoreFactory][] {
  const redis = useRedisServer()
  return [
    ['memory', () => memoryStore()],
    ['Redis', () => redisStore({ url: redis().url, keyPrefix: `test:${randomUUID()}:` })],
  ]
}
