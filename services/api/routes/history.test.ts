import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAddress } from 'viem'
import type { ServiceChain } from '../config'
import { openDatabase, type Database } from '../db/createDatabase'
import { historyQuery, historyRoutes } from './history'
import { createHistoryCache } from './historyCache'

const account = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const named = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const unnamed = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const forgotten = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`

const chain: ServiceChain = {
  chainId: 31337,
  name: 'Local',
  rpcUrl: 'http://127.0.0.1:1',
  multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  tokens: [{ address: token, name: 'Tessera Token', symbol: 'TSR', decimals: 18 }],
}

type Entry = {
  metadata: { hash: string; sentFrom: string; sentTo: string; sentFromName: string | null; sentToName: string | null; operationType: string; status: string }
  transfers: { direction: string; quantity: { numeric: string }; fungible_info: { symbol: string; name: string; implementations: { chain_id: string; address: string }[] } }[]
}

describe('history route: parties and directions', () => {
  let db: Database
  const get = async (who: string) => {
    const response = await historyRoutes({ db, chains: [chain], projects: [] }).request(`/v1/account/${who}/history?chainId=eip155:31337`)
    expect(response.status).toBe(200)
    return ((await response.json()) as { data: Entry[] }).data
  }
  const transfer = (block: number, from: string, to: string, value: string, tokenAddress: string | null = null) =>
    db.query(
      `insert into transfers (chain_id, block_number, tx_hash, log_index, from_address, to_address, token, value, status, timestamp)
       values (31337, $1, $2, $3, $4, $5, $6, $7, 'confirmed', $8)`,
      [block, hash(block), tokenAddress ? 0 : -1, from, to, tokenAddress, value, 1_700_000_000 + block],
    )

  beforeAll(async () => {
    db = await openDatabase({})
    // Two names for one address: the first registered is its name (as /v1/identity answers). Stored lower-case, as registration does.
    await db.query(`insert into names (name, address, coin_type, registered_at) values ('bob.tessera.id', $1, 60, '2026-01-01'), ('bobby.tessera.id', $1, 60, '2026-02-01')`, [named.toLowerCase()])
    await transfer(1, account, named, '1500000000000000000')
    await transfer(2, unnamed, account, '2000000000000000000', token)
    await transfer(3, account, account, '1000000000000000')
    await transfer(4, named, account, '123456789', forgotten)
    // A new PGlite database runs initdb first: seconds on a busy machine.
  }, 60_000)
  afterAll(() => db?.close())

  it('names each party the names service knows, and leaves the others null', async () => {
    const [forgottenToken, self, received, sent] = await get(account)
    expect(sent!.metadata).toMatchObject({ hash: hash(1), operationType: 'send', sentFrom: account, sentTo: named, sentFromName: null, sentToName: 'bob.tessera.id' })
    expect(received!.metadata).toMatchObject({ operationType: 'receive', sentFrom: unnamed, sentFromName: null, sentToName: null })
    expect(forgottenToken!.metadata).toMatchObject({ sentFrom: named, sentFromName: 'bob.tessera.id' })
    expect(self!.metadata).toMatchObject({ sentFromName: null, sentToName: null })
  })

  it('says out, in or self for the account whose history it is', async () => {
    const directions = (await get(account)).map((entry) => entry.transfers[0]!.direction)
    expect(directions).toEqual(['in', 'self', 'in', 'out'])
    // The same transfer seen from its other party.
    expect((await get(named)).map((entry) => [entry.metadata.hash, entry.transfers[0]!.direction])).toEqual([
      [hash(4), 'out'],
      [hash(1), 'in'],
    ])
  })

  it('gives a token it no longer knows no symbol, and its amount in base units', async () => {
    const [forgottenToken, self, received] = await get(account)
    expect(forgottenToken!.transfers[0]).toMatchObject({ fungible_info: { symbol: '', name: '' }, quantity: { numeric: '123456789' } })
    expect(received!.transfers[0]).toMatchObject({ fungible_info: { symbol: 'TSR' }, quantity: { numeric: '2' } })
    expect(self!.transfers[0]).toMatchObject({ fungible_info: { symbol: 'ETH' }, quantity: { numeric: '0.001' } })
  })

  it('names the contract of each token moved, known or not (its image is found by it), and none for the network’s currency', async () => {
    const [forgottenToken, self, received] = await get(account)
    expect(received!.transfers[0]!.fungible_info.implementations).toEqual([{ chain_id: 'eip155:31337', address: getAddress(token) }])
    expect(forgottenToken!.transfers[0]!.fungible_info.implementations).toEqual([{ chain_id: 'eip155:31337', address: getAddress(forgotten) }])
    expect(self!.transfers[0]!.fungible_info.implementations).toEqual([])
  })
})

describe('history route: a page costs the same however many transfers an account has', () => {
  let db: Database
  const busy = '0x0000000000000000000000000000000000000000'
  const pageOf = async (cursor?: string) => {
    const response = await historyRoutes({ db, chains: [chain], projects: [] }).request(`/v1/account/${busy}/history?chainId=eip155:31337${cursor ? `&cursor=${cursor}` : ''}`)
    expect(response.status).toBe(200)
    return (await response.json()) as { data: Entry[]; next: string | null }
  }

  beforeAll(async () => {
    db = await openDatabase({})
    // 40,000 transfers between 1,000 accounts; `busy` sends every 50th and receives every 75th (every 150th to itself).
    await db.query(
      `insert into transfers (chain_id, block_number, tx_hash, log_index, from_address, to_address, token, value, status, timestamp)
       select 31337, g / 2, '0x' || lpad(to_hex(g), 64, '0'), g % 2,
              '0x' || lpad(to_hex(case when g % 50 = 0 then 0 else g % 1000 + 1 end), 40, '0'),
              '0x' || lpad(to_hex(case when g % 75 = 0 then 0 else g % 997 + 1 end), 40, '0'),
              null, g, 'confirmed', 1700000000 + g
         from generate_series(1, 40000) as g`,
    )
    await db.query('analyze transfers')
  }, 60_000)
  afterAll(() => db?.close())

  it('walks the senders and receivers indexes a page deep, and sorts no more than two pages', async () => {
    for (const options of [{ hasChainId: true, hasCursor: true }, { hasChainId: false, hasCursor: false }]) {
      const params = [busy, ...(options.hasChainId ? [31337] : []), ...(options.hasCursor ? ['9000', '18000'] : [])]
      const plan = (await db.query<{ 'QUERY PLAN': string }>(`explain ${historyQuery(options)}`, params)).map((row) => row['QUERY PLAN']).join('\n')
      expect(plan).toMatch(/Index Only Scan using transfers_from_page on transfers/)
      expect(plan).toMatch(/Index Only Scan using transfers_to_page on transfers/)
      expect(plan).not.toMatch(/(Seq Scan|Bitmap Heap Scan) on transfers/)
      // Each walk is a range scan that stops after a page: the chain is matched in the index, not sorted or filtered on.
      expect(plan).toMatch(/Merge Append/)
      expect(plan).not.toMatch(/Sort {2}\(cost[^\n]*\n\s*Sort Key: transfers/)
      if (options.hasChainId) expect(plan).toMatch(/Index Cond: .*chain_id = /)
    }
  })

  it('pages through every transfer of the account once, newest first', async () => {
    const seen: string[] = []
    let cursor: string | undefined
    do {
      const page = await pageOf(cursor)
      seen.push(...page.data.map((entry) => entry.metadata.hash))
      cursor = page.next ?? undefined
    } while (cursor)
    // Every 50th sent, every 75th received, every 150th both (to itself).
    expect(seen).toHaveLength(800 + 533 - 266)
    expect(new Set(seen).size).toBe(seen.length)
    expect(seen.map((h) => BigInt(h))).toEqual(seen.map((h) => BigInt(h)).sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)))
  })

  it('serves a cached page until the cache is invalidated', async () => {
    const historyCache = createHistoryCache({ maxBytes: 1 << 20, ttlMs: 60_000 })
    const app = historyRoutes({ db, chains: [chain], projects: [], historyCache })
    const first = async () => ((await (await app.request(`/v1/account/${unnamed}/history`)).json()) as { data: Entry[] }).data.map((entry) => entry.metadata.hash)
    expect(await first()).toEqual([])
    await db.query(`insert into transfers (chain_id, block_number, tx_hash, log_index, from_address, to_address, token, value, status, timestamp) values (31337, 99999, $1, -1, $2, $3, null, 1, 'confirmed', 1)`, [hash(99_999), account, unnamed])
    expect(await first()).toEqual([])
    historyCache.invalidate()
    expect(await first()).toEqual([hash(99_999)])
  })
})
