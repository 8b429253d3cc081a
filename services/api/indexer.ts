import { BlockNotFoundError, createPublicClient, getAddress, http, parseAbiItem, type Address, type Hash, type Hex, type PublicClient } from 'viem'
import type { ServiceChain } from './config'
import { createRepeatingTask } from './createRepeatingTask'
import type { Database } from './db/createDatabase'

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')
/** Stored blocks compared with the chain per round trip while walking back from a reorg. */
const WALK_BACK_PAGE_SIZE = 50
/** Times one tick starts over when the chain moves while it reads. */
const ATTEMPTS_PER_TICK = 3

/**
 * Forgets the hashes of a chain's blocks in [$2, $3) that hold no transfer. `offset 0` keeps the check one lookup per
 * block in transfers_chain_block: as a join, the planner may read every transfer of the chain per block when its
 * statistics predate the chain (12 s per tick with a million rows in the table, measured).
 */
export const PRUNE_BLOCK_HASHES = `delete from indexed_blocks as b
  where b.chain_id = $1 and b.number >= $2 and b.number < $3
    and not exists (select 1 from transfers t where t.chain_id = b.chain_id and t.block_number = b.number offset 0)`

/** Rows the indexer dropped because the chain no longer has them. */
export type IndexerRollback =
  /** The chain's genesis block changed (a new chain under the same id, e.g. anvil restarted): every row of the chain went. */
  | { reason: 'reset'; fromBlock: 0n }
  /** The stored blocks from `fromBlock` on are no longer the chain's (a reorg, or a revert to an earlier block). */
  | { reason: 'reorg'; fromBlock: bigint }

export type IndexerParameters = {
  db: Database
  chain: ServiceChain
  pollIntervalMs?: number
  /** How many blocks at most one tick indexes. */
  maxBlocksPerTick?: number
  /**
   * How many of the latest blocks keep their hash (at least 1: the tip). Older hashes are kept only for blocks with
   * transfers, so what the indexer stores grows with the transfers, not with the chain.
   */
  recentBlocks?: number
  onError?: (error: unknown) => void
  /** Told each time rows are dropped because the chain no longer has them. */
  onRollback?: (rollback: IndexerRollback) => void
  /** Told after each write of new blocks: how many blocks, and how many transfers were found in them. */
  onIndexed?: (indexed: { blocks: number; transfers: number }) => void
}

type StoredBlock = { number: bigint; hash: string }
/** A transfer as the indexer writes it: block, tx hash, log index (-1: native), from, to, token (null: native), value, timestamp. */
type TransferRow = [bigint, Hash, number, Address, Address, Address | null, bigint, bigint]

/** Rows as the columns `unnest` takes: one array per column, numbers as decimal text (exact, whatever their size). */
const transferColumns = (rows: readonly TransferRow[]) => [
  rows.map((r) => r[0].toString()),
  rows.map((r) => r[1]),
  rows.map((r) => r[2]),
  rows.map((r) => r[3]),
  rows.map((r) => r[4]),
  rows.map((r) => r[5]),
  rows.map((r) => r[6].toString()),
  rows.map((r) => r[7].toString()),
]
const toStoredBlock = (row: { number: string; hash: string }): StoredBlock => ({ number: BigInt(row.number), hash: row.hash })

/** A read of a block past the chain's head answers undefined; any other failure is thrown. */
const undefinedIfMissing = (error: unknown): undefined => {
  if (error instanceof BlockNotFoundError) return undefined
  throw error
}

/**
 * Follows one chain into the database: native transfers (value > 0) and ERC-20 Transfer logs of the configured
 * tokens. Each tick:
 * 1. reads the chain's genesis hash and head, and the hash at the stored tip's height, in one round trip. A genesis
 *    other than the stored one means a new chain under the same id: every row of the chain is dropped.
 * 2. When the tip's hash is not the chain's (a reorg, or a revert that left the chain shorter), walks back through the
 *    stored hashes to the last block the chain still has (a block's hash commits to every block before it), drops
 *    the rows above it, and indexes again from there.
 * 3. Reads the next blocks (at most `maxBlocksPerTick`), keeping the run that chains onto the tip, then their
 *    Transfer logs, which must come from those very blocks. If the chain moved meanwhile, it goes back to 1.
 * 4. Writes them in one transaction with their hashes (one statement per table), and forgets the hashes of blocks
 *    older than `recentBlocks` that hold no transfer (new ones of these are not written at all).
 * A read that fails fails the tick and drops nothing.
 * @example const indexer = createIndexer({ db, chain }); indexer.start(); … await indexer.stop()
 */
export function createIndexer({ db, chain, pollIntervalMs = 1_000, maxBlocksPerTick = 200, recentBlocks = 64, onError = () => {}, onRollback = () => {}, onIndexed = () => {} }: IndexerParameters) {
  const client: PublicClient = createPublicClient({ transport: http(chain.rpcUrl, { batch: { batchSize: 100 } }) })
  const { chainId } = chain
  const tokens = chain.tokens.map((t) => t.address)
  const keptRecentBlocks = BigInt(Math.max(1, recentBlocks))
  // Hashes below this height are pruned already. It starts at 0, so the first write prunes what an earlier run kept.
  let prunedBelow = 0n

  const hashAt = async (number: bigint) => (await client.getBlock({ blockNumber: number }).catch(undefinedIfMissing))?.hash

  const storedTip = async () => {
    const [row] = await db.query<{ number: string; hash: string }>('select number::text as number, hash from indexed_blocks where chain_id = $1 order by indexed_blocks.number desc limit 1', [chainId])
    return row ? toStoredBlock(row) : undefined
  }

  /** 1. Resolves to true when the chain was reset and its rows dropped. */
  const followReset = async (genesisHash: Hash) => {
    const [stored] = await db.query<{ genesis_hash: string }>('select genesis_hash from indexed_chains where chain_id = $1', [chainId])
    if (stored?.genesis_hash === genesisHash) return false
    const upsert = 'insert into indexed_chains (chain_id, genesis_hash) values ($1, $2) on conflict (chain_id) do update set genesis_hash = excluded.genesis_hash'
    // First sight of the chain: what is stored (normally nothing) is checked block by block in step 2.
    if (!stored) {
      await db.query(upsert, [chainId, genesisHash])
      return false
    }
    await db.transaction(async (tx) => {
      await tx.query('delete from transfers where chain_id = $1', [chainId])
      await tx.query('delete from indexed_blocks where chain_id = $1', [chainId])
      await tx.query(upsert, [chainId, genesisHash])
    })
    prunedBelow = 0n
    onRollback({ reason: 'reset', fromBlock: 0n })
    return true
  }

  /** 2. Resolves to the stored block the chain still has, after dropping those above it. */
  const followReorg = async (tip: StoredBlock): Promise<StoredBlock | undefined> => {
    let kept: StoredBlock | undefined
    for (let below = tip.number; !kept; ) {
      const page = (
        await db.query<{ number: string; hash: string }>(
          'select number::text as number, hash from indexed_blocks where chain_id = $1 and number < $2 order by indexed_blocks.number desc limit $3',
          [chainId, below.toString(), WALK_BACK_PAGE_SIZE],
        )
      ).map(toStoredBlock)
      if (page.length === 0) break
      const onChain = await Promise.all(page.map((block) => hashAt(block.number)))
      kept = page.find((block, i) => onChain[i] === block.hash)
      below = page.at(-1)!.number
    }
    // None left: the chains share only their genesis (step 1 checked it), so everything is indexed again.
    const fromBlock = kept ? kept.number + 1n : 0n
    await db.transaction(async (tx) => {
      await tx.query('delete from transfers where chain_id = $1 and block_number >= $2', [chainId, fromBlock.toString()])
      await tx.query('delete from indexed_blocks where chain_id = $1 and number >= $2', [chainId, fromBlock.toString()])
    })
    if (fromBlock < prunedBelow) prunedBelow = fromBlock
    onRollback({ reason: 'reorg', fromBlock })
    return kept
  }

  /** 3–4. Indexes the blocks after `tip` up to `head`. `hasMoved`: the chain changed while they were read. */
  const indexAfter = async (tip: StoredBlock | undefined, head: bigint): Promise<{ indexed: number; hasMoved: boolean }> => {
    const from = tip ? tip.number + 1n : 0n
    if (from > head) return { indexed: 0, hasMoved: false }
    const to = head - from + 1n > BigInt(maxBlocksPerTick) ? from + BigInt(maxBlocksPerTick) - 1n : head
    const numbers = Array.from({ length: Number(to - from + 1n) }, (_, i) => from + BigInt(i))
    const fetched = await Promise.all(numbers.map((n) => client.getBlock({ blockNumber: n, includeTransactions: true }).catch(undefinedIfMissing)))
    const blocks: NonNullable<(typeof fetched)[number]>[] = []
    let parentHash = tip?.hash
    for (const block of fetched) {
      if (!block || (parentHash !== undefined && block.parentHash !== parentHash)) break
      blocks.push(block)
      parentHash = block.hash
    }
    const last = blocks.at(-1)
    if (!last) return { indexed: 0, hasMoved: true }
    const hashByNumber = new Map(blocks.map((b) => [b.number, b.hash]))
    const logs = tokens.length ? await client.getLogs({ address: tokens, event: transferEvent, fromBlock: from, toBlock: last.number }) : []
    // Logs of other blocks at these heights, or a last block gone since: the logs may miss some; read again.
    if (logs.some((log) => hashByNumber.get(log.blockNumber) !== log.blockHash) || (await hashAt(last.number)) !== last.hash) return { indexed: 0, hasMoved: true }

    const valueTransfers = blocks.map((block) => block.transactions.filter((t) => t.value > 0n && t.to))
    const receipts = await Promise.all(
      blocks.map((block, i) =>
        valueTransfers[i]!.length
          ? (client.request({ method: 'eth_getBlockReceipts' as never, params: [block.hash] as never }) as Promise<{ transactionHash: Hex; status: Hex }[] | null>)
          : [],
      ),
    )
    if (receipts.some((r) => r === null)) return { indexed: 0, hasMoved: true }
    const isSuccess = new Set(receipts.flatMap((list) => list!.filter((r) => r.status === '0x1').map((r) => r.transactionHash)))

    const timestampByNumber = new Map(blocks.map((b) => [b.number, b.timestamp]))
    const transfers: TransferRow[] = [
      ...blocks.flatMap((block, i) =>
        valueTransfers[i]!.filter((t) => isSuccess.has(t.hash)).map((t): TransferRow => [block.number, t.hash, -1, getAddress(t.from), getAddress(t.to!), null, t.value, block.timestamp]),
      ),
      ...logs.map((log): TransferRow => {
        const args = (log as unknown as { args: { from: Address; to: Address; value: bigint } }).args
        return [log.blockNumber, log.transactionHash, log.logIndex, getAddress(args.from), getAddress(args.to), getAddress(log.address), args.value, timestampByNumber.get(log.blockNumber)!]
      }),
    ]
    const pruneBelow = last.number + 1n - keptRecentBlocks
    // A block's hash is kept while it is recent or holds a transfer: the others would be pruned at once.
    const withTransfers = new Set(transfers.map(([number]) => number))
    const keptBlocks = blocks.filter((block) => block.number >= pruneBelow || withTransfers.has(block.number))
    await db.transaction(async (tx) => {
      // One statement per table, whatever the number of rows: a round trip each costs more than the row.
      await tx.query('insert into indexed_blocks (chain_id, number, hash, parent_hash, timestamp) select $1, * from unnest($2::bigint[], $3::text[], $4::text[], $5::bigint[])', [
        chainId,
        keptBlocks.map((b) => b.number.toString()),
        keptBlocks.map((b) => b.hash),
        keptBlocks.map((b) => b.parentHash),
        keptBlocks.map((b) => b.timestamp.toString()),
      ])
      if (transfers.length > 0) {
        await tx.query(
          `insert into transfers (chain_id, block_number, tx_hash, log_index, from_address, to_address, token, value, status, timestamp)
           select $1, block_number, tx_hash, log_index, from_address, to_address, token, value, 'confirmed', timestamp
             from unnest($2::bigint[], $3::text[], $4::integer[], $5::text[], $6::text[], $7::text[], $8::numeric[], $9::bigint[])
                  as t (block_number, tx_hash, log_index, from_address, to_address, token, value, timestamp)
           on conflict do nothing`,
          [chainId, ...transferColumns(transfers)],
        )
      }
      if (pruneBelow > prunedBelow) {
        await tx.query(PRUNE_BLOCK_HASHES, [chainId, prunedBelow.toString(), pruneBelow.toString()])
      }
    })
    if (pruneBelow > prunedBelow) prunedBelow = pruneBelow
    onIndexed({ blocks: blocks.length, transfers: transfers.length })
    return { indexed: blocks.length, hasMoved: blocks.length < fetched.length }
  }

  /** Indexes what is new since the last tick; resolves to the number of blocks indexed. */
  const indexNewBlocks = async (): Promise<number> => {
    let indexed = 0
    for (let attempt = 0; attempt < ATTEMPTS_PER_TICK; attempt++) {
      let tip = await storedTip()
      const [genesisHash, head, tipHash] = await Promise.all([hashAt(0n), client.getBlockNumber({ cacheTime: 0 }), tip ? hashAt(tip.number) : undefined])
      if (!genesisHash) throw new Error(`chain ${chainId} answered no genesis block`)
      if (await followReset(genesisHash)) tip = undefined
      else if (tip && tipHash !== tip.hash) tip = await followReorg(tip)
      const result = await indexAfter(tip, head)
      indexed += result.indexed
      if (!result.hasMoved) break
    }
    return indexed
  }

  // One tick at a time: the polling loop and catchUp() never index the same block twice.
  let queue: Promise<unknown> = Promise.resolve()
  const tick = (): Promise<number> => {
    const next = queue.then(indexNewBlocks)
    queue = next.catch(() => {})
    return next
  }

  // At once again while there are blocks to index, else after the poll interval.
  const polling = createRepeatingTask({
    run: () =>
      tick().catch((error: unknown) => {
        onError(error)
        return 0
      }),
    delayMs: (indexed) => (indexed > 0 ? 0 : pollIntervalMs),
  })

  return {
    tick,
    /** Indexes until the database holds every block up to the chain's current head. */
    async catchUp() {
      while ((await tick()) > 0);
    },
    start: polling.start,
    stop: polling.stop,
  }
}

export type Indexer = ReturnType<typeof createIndexer>
