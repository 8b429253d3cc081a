import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from './createDatabase'
import { createVacuumSchedule } from './vacuumSchedule'

const insertTransfers = (db: Database, from: number, to: number) =>
  db.query(
    `insert into transfers (chain_id, block_number, tx_hash, log_index, from_address, to_address, token, value, status, timestamp)
     select 31337, g, '0x' || lpad(to_hex(g), 64, '0'), 0, '0x' || lpad(to_hex(g % 10), 40, '0'), '0x' || lpad(to_hex(g % 7 + 100), 40, '0'),
            null, g, 'confirmed', 1700000000 + g
       from generate_series(${from}, ${to}) as g`,
  )

/** Rows an account's history page read from the table rather than from the index alone. */
async function heapFetches(db: Database) {
  // A table this small would be read whole; the history statement walks the index on a big one.
  await db.query('set enable_seqscan = off')
  await db.query('set enable_bitmapscan = off')
  const plan = (await db.query<{ 'QUERY PLAN': string }>(
    `explain (analyze) select id, tx_hash from transfers where lower(from_address) = '0x0000000000000000000000000000000000000003' order by block_number desc, id desc limit 50`,
  )).map((row) => row['QUERY PLAN'])
  expect(plan.join('\n')).toMatch(/Index Only Scan using transfers_from_page/)
  return plan.map((line) => /Heap Fetches: (\d+)/.exec(line)?.[1]).filter(Boolean).map(Number).reduce((sum, n) => sum + n, 0)
}

describe('vacuum schedule on PGlite', () => {
  let db: Database
  beforeAll(async () => {
    db = await openDatabase({})
  }, 60_000)
  afterAll(() => db?.close())

  it('vacuums once enough transfers were written, so history pages are read from the index alone', async () => {
    const errors: unknown[] = []
    const schedule = createVacuumSchedule({ db, afterTransfers: 1_000, onError: (error) => errors.push(error) })
    await insertTransfers(db, 1, 600)
    schedule.written(600)
    await schedule.idle()
    expect(await heapFetches(db)).toBeGreaterThan(0)

    await insertTransfers(db, 601, 1_200)
    schedule.written(600)
    await schedule.idle()
    expect(await heapFetches(db)).toBe(0)
    expect(errors).toEqual([])
  })

  it('reports a failed vacuum and vacuums again later', async () => {
    const errors: unknown[] = []
    let calls = 0
    const failing = { kind: 'pglite' as const, query: async () => (calls++ === 0 ? Promise.reject(new Error('disk full')) : []) as never[] }
    const schedule = createVacuumSchedule({ db: failing, afterTransfers: 10, onError: (error) => errors.push(error) })
    schedule.written(10)
    await schedule.idle()
    schedule.written(10)
    await schedule.idle()
    expect(errors.map((error) => (error as Error).message)).toEqual(['disk full'])
    expect(calls).toBe(2)
  })

  it('leaves PostgreSQL to its autovacuum', async () => {
    let calls = 0
    const schedule = createVacuumSchedule({ db: { kind: 'postgres', query: async () => (calls++, []) as never[] }, afterTransfers: 1 })
    schedule.written(100)
    await schedule.idle()
    expect(calls).toBe(0)
  })
})
