import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { startPostgres } from '../testing/startPostgres'
import { openDatabase, type Database } from './createDatabase'
import { createLeaderLock, type LeaderLock } from './leaderLock'

const RETRY_MS = 200

describe('the leader lock on PostgreSQL', () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>>
  let dbs: Database[]
  beforeAll(async () => {
    postgres = await startPostgres()
    // Two instances: a pool each, as two processes would have.
    dbs = await Promise.all([openDatabase({ databaseUrl: postgres.url }), openDatabase({ databaseUrl: postgres.url })])
  }, 60_000)
  afterAll(async () => {
    await Promise.all(dbs.map((db) => db.close()))
    postgres?.stop()
  })

  /** A lock whose leading is recorded in `events` as `<label> leads` and `<label> follows`. */
  const lockOf = (db: Database, label: string, events: string[], name: string) => {
    const lock = createLeaderLock({
      db,
      name,
      retryMs: RETRY_MS,
      onLead: () => void events.push(`${label} leads`),
      onFollow: async () => void events.push(`${label} follows`),
      onError: () => {},
    })
    onTestFinished(() => lock.stop())
    return lock
  }
  const holderPid = async (name: string) =>
    (await dbs[0]!.query<{ pid: number }>("select pid from pg_locks where locktype = 'advisory' and granted and (classid::bigint << 32 | objid::bigint) = hashtextextended($1, 0)", [name]))[0]?.pid
  const leaderOf = (locks: LeaderLock[]) => locks.filter((lock) => lock.role === 'leader')

  it('elects exactly one of two, and the other takes over when the leader stops', async () => {
    const events: string[] = []
    const a = lockOf(dbs[0]!, 'a', events, 'test:stop')
    const b = lockOf(dbs[1]!, 'b', events, 'test:stop')
    a.start()
    await expect.poll(() => a.role).toBe('leader')
    b.start()
    await new Promise((resolve) => setTimeout(resolve, 3 * RETRY_MS))
    expect([a.role, b.role]).toEqual(['leader', 'follower'])
    await a.stop()
    await expect.poll(() => b.role, { timeout: 3 * RETRY_MS }).toBe('leader')
    expect(events).toEqual(['a leads', 'a follows', 'b leads'])
  })

  it('makes the leader follow when the server ends its connection, and another leads at its next try', async () => {
    const events: string[] = []
    const locks = [lockOf(dbs[0]!, 'a', events, 'test:terminate'), lockOf(dbs[1]!, 'b', events, 'test:terminate')]
    for (const lock of locks) lock.start()
    await expect.poll(() => leaderOf(locks).length).toBe(1)
    const [first] = leaderOf(locks)
    const pid = await holderPid('test:terminate')
    expect(pid).toBeTypeOf('number')
    await dbs[0]!.query('select pg_terminate_backend($1)', [pid])
    const terminatedAt = performance.now()
    await expect.poll(() => holderPid('test:terminate').then((holder) => holder !== undefined && holder !== pid), { timeout: 3 * RETRY_MS, interval: 20 }).toBe(true)
    expect(performance.now() - terminatedAt).toBeLessThan(3 * RETRY_MS)
    // The one cut off is told by its connection and follows; one leads, whichever takes the lock next.
    await expect.poll(() => events).toContain(`${first === locks[0] ? 'a' : 'b'} follows`)
    await expect.poll(() => leaderOf(locks).length).toBe(1)
  })
})

describe('the leader lock on PGlite', () => {
  it('leads at once: one process on its own data', async () => {
    const events: string[] = []
    const lock = createLeaderLock({ db: {}, name: 'test:pglite', onLead: () => void events.push('leads'), onFollow: async () => void events.push('follows') })
    lock.start()
    await expect.poll(() => lock.role).toBe('leader')
    await lock.stop()
    expect(events).toEqual(['leads', 'follows'])
  })
})
