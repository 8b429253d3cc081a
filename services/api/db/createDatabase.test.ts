import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from './createDatabase'

describe('PGlite database', () => {
  let db: Database
  beforeAll(async () => {
    db = await openDatabase({})
  }, 60_000)
  afterAll(() => db?.close())

  it('runs with a small buffer cache and small work memory, not PostgreSQL server defaults', async () => {
    const settings = await db.query<{ name: string; setting: string; unit: string }>(
      `select name, setting, unit from pg_settings where name in ('shared_buffers', 'work_mem', 'maintenance_work_mem') order by name`,
    )
    expect(settings).toEqual([
      { name: 'maintenance_work_mem', setting: '16384', unit: 'kB' },
      { name: 'shared_buffers', setting: '2048', unit: '8kB' },
      { name: 'work_mem', setting: '2048', unit: 'kB' },
    ])
  })
})

describe('PGlite data directory', () => {
  it('is made on first open (initdb in a process of its own) and opened as it is afterwards', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'tessera-db-')), 'data')
    try {
      const first = await openDatabase({ dataDir })
      expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true)
      await first.query(`insert into names (name, address, coin_type) values ('kept.tessera.id', '0x1', 60)`)
      await first.close()
      const second = await openDatabase({ dataDir })
      expect(await second.query('select name from names')).toEqual([{ name: 'kept.tessera.id' }])
      await second.close()
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})
