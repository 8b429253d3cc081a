import { createPublicClient, getAddress, http, parseAbiItem, type Address, type Hex, type PublicClient } from 'viem'
import type { ServiceChain } from './config'
import type { Database } from './db/createDatabase'

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')

export type IndexerParameters = {
  db: Database
  chain: ServiceChain
  pollIntervalMs?: number
  /** How many blocks at most one tick indexes. */
  maxBlocksPerTick?: number
  /** How far back a reorg is followed. */
  reorgDepth?: number
  onError?: (error: unknown) => void
}

/**
 * Follows one chain into the database: native transfers (value > 0) and ERC-20 Transfer logs of the configured
 * tokens, block by block. Each block lands in one transaction with its hash; when a new block's parent hash does not
 * match the stored one, the stored blocks are rolled back until they match (up to `reorgDepth`) and indexed again.
 * @example const indexer = createIndexer({ db, chain }); indexer.start(); … await indexer.stop()
 */
export function createIndexer({ db, chain, pollIntervalMs = 1_000, maxBlocksPerTick = 200, reorgDepth = 12, onError = () => {} }: IndexerParameters) {
  const client: PublicClient = createPublicClient({ transport: http(chain.rpcUrl, { batch: { batchSize: 100 } }) })
  const tokens = chain.tokens.map((t) => t.address)
  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<number> | undefined
  let isStopped = true

  const lastIndexed = async () => {
    const [row] = await db.query<{ number: string; hash: string }>('select number::text as number, hash from indexed_blocks where chain_id = $1 order by indexed_blocks.number desc limit 1', [chain.chainId])
    return row ? { number: BigInt(row.number), hash: row.hash } : undefined
  }

  const rollback = async (fromNumber: bigint) =>
    db.transaction(async (tx) => {
      await tx.query('delete from transfers where chain_id = $1 and block_number >= $2', [chain.chainId, fromNumber.toString()])
      await tx.query('delete from indexed_blocks where chain_id = $1 and number >= $2', [chain.chainId, fromNumber.toString()])
    })

  /** Rolls back stored blocks that are no longer on the chain. */
  const followReorg = async () => {
    for (let depth = 0; depth < reorgDepth; depth++) {
      const last = await lastIndexed()
      if (!last) return
      const onChain = await client.getBlock({ blockNumber: last.number }).catch(() => undefined)
      if (onChain?.hash === last.hash) return
      await rollback(last.number)
    }
  }

  const indexBlock = async (number: bigint, logs: Awaited<ReturnType<PublicClient['getLogs']>>) => {
    const block = await client.getBlock({ blockNumber: number, includeTransactions: true })
    const previous = await lastIndexed()
    if (previous && previous.number === number - 1n && previous.hash !== block.parentHash) {
      await followReorg()
      return false
    }
    const valueTransfers = block.transactions.filter((t) => typeof t !== 'string' && t.value > 0n && t.to)
    const receipts = valueTransfers.length
      ? ((await client.request({ method: 'eth_getBlockReceipts' as never, params: [`0x${number.toString(16)}`] as never })) as { transactionHash: Hex; status: Hex }[])
      : []
    const statusOf = (hash: Hex) => (receipts.find((r) => r.transactionHash === hash)?.status === '0x1' ? 'confirmed' : 'failed')
    await db.transaction(async (tx) => {
      await tx.query('insert into indexed_blocks (chain_id, number, hash, parent_hash, timestamp) values ($1, $2, $3, $4, $5)', [
        chain.chainId, number.toString(), block.hash, block.parentHash, block.timestamp.toString(),
      ])
      for (const t of valueTransfers) {
        if (typeof t === 'string') continue
        const status = statusOf(t.hash)
        if (status === 'failed') continue
        await tx.query(
          'insert into transfers (chain_id, block_number, tx_hash, log_index, from_address, to_address, token, value, status, timestamp) values ($1, $2, $3, -1, $4, $5, null, $6, $7, $8) on conflict do nothing',
          [chain.chainId, number.toString(), t.hash, getAddress(t.from), getAddress(t.to!), t.value.toString(), status, block.timestamp.toString()],
        )
      }
      for (const log of logs.filter((l) => l.blockNumber === number)) {
        const args = (log as unknown as { args: { from: Address; to: Address; value: bigint } }).args
        await tx.query(
          'insert into transfers (chain_id, block_number, tx_hash, log_index, from_address, to_address, token, value, status, timestamp) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) on conflict do nothing',
          [chain.chainId, number.toString(), log.transactionHash, log.logIndex, getAddress(args.from), getAddress(args.to), getAddress(log.address), args.value.toString(), 'confirmed', block.timestamp.toString()],
        )
      }
    })
    return true
  }

  /** Indexes what is new since the last tick; resolves to the number of blocks indexed. */
  const indexNewBlocks = async (): Promise<number> => {
    await followReorg()
    const head = await client.getBlockNumber({ cacheTime: 0 })
    const last = await lastIndexed()
    const from = last ? last.number + 1n : 0n
    if (from > head) return 0
    const to = head - from + 1n > BigInt(maxBlocksPerTick) ? from + BigInt(maxBlocksPerTick) - 1n : head
    const logs = tokens.length ? await client.getLogs({ address: tokens, event: transferEvent, fromBlock: from, toBlock: to }) : []
    let count = 0
    for (let n = from; n <= to; n++) {
      if (!(await indexBlock(n, logs))) break
      count++
    }
    return count
  }

  // One tick at a time: the polling loop and catchUp() never index the same block twice.
  let queue: Promise<unknown> = Promise.resolve()
  const tick = (): Promise<number> => {
    const next = queue.then(indexNewBlocks)
    queue = next.catch(() => {})
    return next
  }

  const loop = async () => {
    if (isStopped) return
    running = tick().catch((error: unknown) => {
      onError(error)
      return 0
    })
    const indexed = await running
    if (!isStopped) timer = setTimeout(loop, indexed > 0 ? 0 : pollIntervalMs)
  }

  return {
    tick,
    /** Indexes until the database holds every block up to the chain's current head. */
    async catchUp() {
      while ((await tick()) > 0);
    },
    start() {
      if (!isStopped) return
      isStopped = false
      void loop()
    },
    async stop() {
      isStopped = true
      clearTimeout(timer)
      await running
    },
  }
}

export type Indexer = ReturnType<typeof createIndexer>
