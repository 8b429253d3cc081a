import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, sqlLiteral, type Database } from './createDatabase'

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

describe('prepared statements on PGlite (EXECUTE with literals)', () => {
  let db: Database
  beforeAll(async () => {
    db = await openDatabase({})
  }, 60_000)
  afterAll(() => db?.close())

  it('gives hostile text back as it was sent, never as SQL', async () => {
    const hostile = ["'); drop table names; --", "\\'; select 1; --", 'back\\slash \\x41 \\u0041', "E'x'", '$$ dollar $$', 'ünïcødé 🦊', '']
    for (const value of hostile) {
      expect(await db.prepared<{ value: string }>('echo_text', 'select $1::text as value', [value])).toEqual([{ value }])
    }
    expect(await db.query('select count(*)::int as n from names')).toEqual([{ n: 0 }])
  })

  it('takes integers, bigints and null, and refuses what it cannot write as a literal', async () => {
    expect(await db.prepared('echo_numbers', 'select $1::integer as a, $2::bigint::text as b, $3::text as c', [-42, 9_223_372_036_854_775_807n, null])).toEqual([
      { a: -42, b: '9223372036854775807', c: null },
    ])
    expect(() => sqlLiteral(1.5)).toThrow(TypeError)
    expect(() => sqlLiteral(Number.NaN)).toThrow(TypeError)
    expect(() => sqlLiteral('a\0b')).toThrow(TypeError)
    expect(() => sqlLiteral({} as never)).toThrow(TypeError)
    await expect(db.prepared('bad name; drop', 'select 1', [])).rejects.toThrow(TypeError)
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
