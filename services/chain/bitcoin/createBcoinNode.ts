import { address as bitcoinAddress, initEccLib, networks } from 'bitcoinjs-lib'
import * as ecc from 'tiny-secp256k1'
import { loadBcoin, type BcoinAddress, type BcoinFullNode, type BcoinMeta, type BcoinVerifyError } from './loadBcoin'

// bitcoinjs-lib needs a secp256k1 library to handle P2TR (bech32m) addresses; setting it again is harmless.
initEccLib(ecc)

/** Where a transaction or an output is: in a block of the main chain, or in the mempool. */
export type ChainStatus =
  | { confirmed: true; block_height: number; block_hash: string; block_time: number }
  | { confirmed: false }

/** A transaction as stored: raw bytes, where it is, and its position in its block (-1 in the mempool). */
export type StoredTransaction = { raw: Uint8Array; txid: string; status: ChainStatus; blockIndex: number }

export type StoredOutput = { txid: string; vout: number; value: number; status: ChainStatus }

export type BcoinNodeParameters = {
  /** Mine a block this often while transactions wait in the mempool, so sends confirm; 0 mines only on `mine()`. */
  blockIntervalMs?: number
  /** The address timer blocks and `mine()` pay by default. */
  coinbaseAddress: string
  /** Blocks mined before the node is handed over (regtest activates SegWit at about 432), paid round-robin. */
  premine?: { blocks: number; addresses: readonly string[] }
  /** Where a failed timer block is reported (the next tick tries again); console.error by default. */
  log?: (line: string) => void
}

export type BcoinNode = {
  /** Display-order hex (what explorers show), 64 characters. */
  genesisHash: string
  getTip(): { height: number; hash: string }
  getBlockHash(height: number): Promise<string | undefined>
  getTransaction(txid: string): Promise<StoredTransaction | undefined>
  /** Every transaction paying or spending an output script, mempool included (unordered). */
  getTransactionsByScript(script: Uint8Array): Promise<StoredTransaction[]>
  /** Unspent outputs of a script, mempool included; outputs a mempool transaction spends are left out. */
  getUtxosByScript(script: Uint8Array): Promise<StoredOutput[]>
  /** Adds a transaction to the mempool and answers its txid; throws TransactionRejectedError with the node's reason. */
  submitTransaction(raw: Uint8Array): Promise<string>
  /** Mines blocks now (mempool transactions included) and answers their hashes. Waits for any mining under way. */
  mine(blocks: number, payTo?: string): Promise<string[]>
  stop(): Promise<void>
}

/** The node refused a transaction; `reason` is bcoin's (Bitcoin Core's words where they agree, e.g. bad-txns-inputs-spent). */
export class TransactionRejectedError extends Error {
  constructor(readonly reason: string) {
    super(`The node refused the transaction: ${reason}`)
    this.name = 'TransactionRejectedError'
  }
}

const reverseHex = (hex: string) => Buffer.from(hex, 'hex').reverse().toString('hex')
const isVerifyError = (error: unknown): error is BcoinVerifyError => (error as { type?: unknown } | null)?.type === 'VerifyError'

/**
 * Runs a bcoin regtest full node in memory with transaction and address indexes, and mines on a timer.
 * bcoin's own HTTP and P2P stay closed: the Esplora API in front of it is the only way in.
 * @example const node = await createBcoinNode({ coinbaseAddress: 'bcrt1q…', premine: { blocks: 450, addresses } })
 */
export async function createBcoinNode({
  blockIntervalMs = 2_000,
  coinbaseAddress,
  premine,
  log = console.error,
}: BcoinNodeParameters): Promise<BcoinNode> {
  const bcoin = loadBcoin()
  /** bcoin's address index is keyed by the hash inside a script; the callers filter by the full script. */
  const toBcoinAddress = (script: Uint8Array): BcoinAddress => {
    const found = bcoin.Address.fromScript(bcoin.Script.fromRaw(Buffer.from(script)))
    if (!found) throw new Error('This output script has no address')
    return found
  }
  const addressOf = (text: string) => toBcoinAddress(bitcoinAddress.toOutputScript(text, networks.regtest))

  addressOf(coinbaseAddress) // fails early on an address of another network
  const node: BcoinFullNode = new bcoin.FullNode({
    network: 'regtest',
    memory: true,
    workers: false,
    listen: false,
    indexTX: true,
    indexAddress: true,
    logLevel: 'none',
  })
  // bcoin's REST/RPC would be a second, differently shaped door on some port; nothing needs it.
  node.http.open = async () => {}
  node.http.close = async () => {}
  await node.open()

  async function statusAt(height: number): Promise<ChainStatus> {
    const entry = height < 0 ? null : await node.chain.getEntry(height)
    return entry ? { confirmed: true, block_height: entry.height, block_hash: entry.rhash(), block_time: entry.time } : { confirmed: false }
  }

  const toStored = (meta: BcoinMeta): StoredTransaction => ({
    raw: Uint8Array.from(meta.tx.toRaw()),
    txid: meta.tx.txid(),
    status:
      meta.height < 0 || meta.block === null
        ? { confirmed: false }
        : { confirmed: true, block_height: meta.height, block_hash: reverseHex(meta.block), block_time: meta.time },
    blockIndex: meta.height < 0 ? -1 : meta.index,
  })

  // One mining job at a time: the timer and mine() share this chain of promises.
  let mining: Promise<unknown> = Promise.resolve()
  function mine(blocks: number, payTo = coinbaseAddress): Promise<string[]> {
    const job = mining.then(async () => {
      const hashes: string[] = []
      for (let i = 0; i < blocks; i++) hashes.push(await mineOne(addressOf(payTo)))
      return hashes
    })
    mining = job.catch(() => {})
    return job
  }
  async function mineOne(payTo: BcoinAddress): Promise<string> {
    const block = await node.miner.mineBlock(null, payTo)
    const entry = await node.chain.add(block)
    if (!entry) throw new Error('The node did not connect the block it mined')
    return entry.rhash()
  }

  if (premine) {
    try {
      const payees = premine.addresses.map(addressOf)
      if (payees.length === 0) throw new Error('premine needs at least one address')
      for (let i = 0; i < premine.blocks; i++) await mineOne(payees[i % payees.length]!)
    } catch (error) {
      await node.close()
      throw error
    }
  }

  let isStopped = false
  let timer: NodeJS.Timeout | undefined
  const scheduleBlock = () => {
    if (isStopped || blockIntervalMs <= 0) return
    // A block only when a transaction waits for one: an idle node neither grows nor moves its balances.
    timer = setTimeout(() => {
      if (node.mempool.map.size === 0) return scheduleBlock()
      mine(1)
        .catch((error: unknown) => log(`bitcoin regtest: the timer block failed: ${(error as Error)?.message ?? String(error)}`))
        .finally(scheduleBlock)
    }, blockIntervalMs)
  }
  scheduleBlock()

  return {
    genesisHash: reverseHex(node.network.genesis.hash),
    getTip: () => ({ height: node.chain.tip.height, hash: node.chain.tip.rhash() }),
    async getBlockHash(height) {
      const status = await statusAt(height)
      return status.confirmed ? status.block_hash : undefined
    },
    async getTransaction(txid) {
      const meta = await node.getMeta(reverseHex(txid))
      return meta ? toStored(meta) : undefined
    },
    async getTransactionsByScript(script) {
      return (await node.getMetaByAddress([toBcoinAddress(script)])).map(toStored)
    },
    async getUtxosByScript(script) {
      const wanted = Buffer.from(script)
      const coins = (await node.getCoinsByAddress([toBcoinAddress(script)])).filter((coin) => coin.script.toRaw().equals(wanted))
      return Promise.all(
        coins.map(async (coin) => ({ txid: reverseHex(coin.hash), vout: coin.index, value: coin.value, status: await statusAt(coin.height) })),
      )
    },
    async submitTransaction(raw) {
      let tx
      try {
        tx = bcoin.TX.fromRaw(Buffer.from(raw))
      } catch {
        throw new TransactionRejectedError('TX decode failed')
      }
      const hash = tx.hash('hex')
      // Bitcoin Core answers the txid again for a transaction it already holds, so a wallet may safely retry.
      if (node.mempool.hasEntry(hash)) return tx.txid()
      let missing: string[] | null
      try {
        missing = await node.mempool.addTX(tx)
      } catch (error) {
        if (isVerifyError(error)) throw new TransactionRejectedError(error.reason)
        throw error
      }
      if (missing) {
        // bcoin would keep it as an orphan; an API caller is better told now, in Bitcoin Core's words.
        node.mempool.removeOrphan(hash)
        throw new TransactionRejectedError('bad-txns-inputs-missingorspent')
      }
      return tx.txid()
    },
    mine,
    async stop() {
      if (isStopped) return
      isStopped = true
      clearTimeout(timer)
      await mining
      await node.close()
    },
  }
}
