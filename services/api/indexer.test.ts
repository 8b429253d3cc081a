import { createTestClient, createWalletClient, http, publicActions, zeroAddress, type Address, type Hash } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '../chain/anvil'
import { freePorts } from '../stack/ports'
import { createApiApp } from './app'
import type { ServiceChain } from './config'
import { openDatabase, type Database } from './db/createDatabase'
import { createIndexer, PRUNE_BLOCK_HASHES, type Indexer, type IndexerRollback } from './indexer'

const RECENT_BLOCKS = 4

describe('history indexer on anvil: resets and reorgs', () => {
  let anvil: Anvil
  let port: number
  let chain: ServiceChain
  let db: Database
  let indexer: Indexer
  let rollbacks: IndexerRollback[]
  let from: Address
  let to: Address

  const node = () => createTestClient({ chain: foundry, mode: 'anvil', transport: http(anvil.rpcUrl) }).extend(publicActions)
  /** A native transfer, mined at once (automine); resolves to its hash and block. */
  const transfer = async (value: bigint) => {
    const hash = await createWalletClient({ chain: foundry, transport: http(anvil.rpcUrl) }).sendTransaction({ account: from, to, value })
    const { blockNumber } = await node().waitForTransactionReceipt({ hash })
    return { hash, blockNumber }
  }
  /** What /v1/account/:address/history shows for the receiver: transaction hashes, newest first. */
  const history = async (): Promise<Hash[]> => {
    const response = await createApiApp({ db, projects: [{ id: 'p', allowedOrigins: [] }], chains: [chain] }).request(`/v1/account/${to}/history?chainId=eip155:31337&projectId=p`)
    expect(response.status).toBe(200)
    return ((await response.json()) as { data: { metadata: { hash: Hash } }[] }).data.map((t) => t.metadata.hash)
  }
  const storedBlocks = async () => (await db.query<{ number: string }>('select number::text as number from indexed_blocks order by number')).map((r) => BigInt(r.number))

  beforeAll(async () => {
    port = (await freePorts()).anvil
    ;[anvil, db] = await Promise.all([startAnvil({ port, chainId: 31337 }), openDatabase({})])
    chain = { chainId: 31337, name: 'Local', rpcUrl: anvil.rpcUrl, multicall3: zeroAddress, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, tokens: [] }
    ;[from, to] = (await createWalletClient({ transport: http(anvil.rpcUrl) }).getAddresses()) as [Address, Address]
  }, 30_000)
  afterAll(async () => {
    await anvil?.stop()
    await db?.close()
  })
  // Each test indexes the chain from block 0 into empty tables.
  beforeEach(async () => {
    for (const table of ['transfers', 'indexed_blocks', 'indexed_chains']) await db.query(`delete from ${table}`)
    rollbacks = []
    indexer = createIndexer({ db, chain, recentBlocks: RECENT_BLOCKS, onRollback: (rollback) => rollbacks.push(rollback) })
  })

  it('keeps the hashes of the latest blocks and of blocks with transfers only', async () => {
    const first = await transfer(1n)
    await node().mine({ blocks: 10 })
    const second = await transfer(2n)
    await node().mine({ blocks: 10 })
    await indexer.catchUp()
    const head = await node().getBlockNumber()
    const withTransfers = (await db.query<{ number: string }>('select distinct block_number::text as number from transfers order by number')).map((r) => BigInt(r.number))
    expect(withTransfers).toEqual(expect.arrayContaining([first.blockNumber, second.blockNumber]))
    expect(await storedBlocks()).toEqual([...withTransfers, head - 3n, head - 2n, head - 1n, head])
    expect((await history()).slice(0, 2)).toEqual([second.hash, first.hash])
  })

  it('drops a transfer reverted off the chain, keeps the ones below it, and shows the one mined at its height instead', async () => {
    const kept = await transfer(3n)
    const snapshot = await node().snapshot()
    const reverted = await transfer(4n)
    // Past the recent hashes: the walk back goes through heights whose hashes were pruned.
    await node().mine({ blocks: RECENT_BLOCKS + 2 })
    await indexer.catchUp()
    expect((await history()).slice(0, 2)).toEqual([reverted.hash, kept.hash])

    await node().revert({ id: snapshot })
    const replacement = await transfer(5n)
    expect(replacement.blockNumber).toBe(reverted.blockNumber)
    await indexer.catchUp()
    const after = await history()
    expect(after.slice(0, 2)).toEqual([replacement.hash, kept.hash])
    expect(after).not.toContain(reverted.hash)
    expect(rollbacks).toEqual([{ reason: 'reorg', fromBlock: reverted.blockNumber }])
  })

  it('drops what a shorter chain no longer has, with nothing mined after the revert', async () => {
    const snapshot = await node().snapshot()
    const reverted = await transfer(6n)
    await indexer.catchUp()
    expect(await history()).toContain(reverted.hash)
    await node().revert({ id: snapshot })
    await indexer.catchUp()
    expect(await history()).not.toContain(reverted.hash)
    expect(await storedBlocks()).not.toContain(reverted.blockNumber)
    expect(rollbacks).toEqual([{ reason: 'reorg', fromBlock: reverted.blockNumber }])
  })

  // Last: it restarts the chain the other tests share.
  it('drops nothing while the node is down, and every row of the old chain once it comes back as a new one', async () => {
    const old = await transfer(7n)
    await indexer.catchUp()
    const genesis = await node().getBlock({ blockNumber: 0n })
    await anvil.stop()
    await expect(indexer.tick()).rejects.toThrow()
    expect(await history()).toContain(old.hash)

    // anvil's genesis hash follows its start time, in seconds: a restart in the same second would be the same chain.
    while (Date.now() / 1_000 < Number(genesis.timestamp) + 1) await new Promise((resolve) => setTimeout(resolve, 50))
    anvil = await startAnvil({ port, chainId: 31337 })
    expect((await node().getBlock({ blockNumber: 0n })).hash).not.toBe(genesis.hash)
    const fresh = await transfer(8n)
    await indexer.catchUp()
    expect(await history()).toEqual([fresh.hash])
    expect(rollbacks).toEqual([{ reason: 'reset', fromBlock: 0n }])
  })
})

describe('history indexer: pruning block hashes', () => {
  let db: Database
  beforeAll(async () => {
    db = await openDatabase({})
  }, 60_000)
  afterAll(() => db?.close())

  it('looks each block up in transfers_chain_block, even when the statistics know none of the chain', async () => {
    const insertTransfers = (chainId: number, count: number) =>
      db.query(
        `insert into transfers (chain_id, block_number, tx_hash, log_index, from_address, to_address, token, value, status, timestamp)
         select $1, g, '0x' || g, 0, '0xa', '0xb', null, 1, 'confirmed', 1 from generate_series(1, $2::integer) as g`,
        [chainId, count],
      )
    await insertTransfers(1, 20_000)
    await db.query('analyze transfers')
    // A chain added after the statistics were taken.
    await insertTransfers(2, 5_000)
    await db.query(`insert into indexed_blocks (chain_id, number, hash, parent_hash, timestamp) select 2, g, 'h', 'p', 1 from generate_series(1, 6000) as g`)
    const plan = (await db.query<{ 'QUERY PLAN': string }>(`explain ${PRUNE_BLOCK_HASHES}`, [2, 4_000, 6_000])).map((row) => row['QUERY PLAN']).join('\n')
    expect(plan).toMatch(/SubPlan/)
    expect(plan).toMatch(/Index Cond: \(\(chain_id = b\.chain_id\) AND \(block_number = b\.number\)\)/)
    expect(plan).not.toMatch(/Join/)
    await db.transaction((tx) => tx.query(PRUNE_BLOCK_HASHES, [2, 4_000, 6_000]))
    const [{ kept }] = (await db.query<{ kept: string }>('select count(*)::text as kept from indexed_blocks where chain_id = 2')) as [{ kept: string }]
    // Blocks 1–5000 hold transfers; of 5001–6000, those below 6000 go.
    expect(kept).toBe('5001')
  })
})
