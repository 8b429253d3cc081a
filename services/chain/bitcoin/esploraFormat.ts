import { address as bitcoinAddress, initEccLib, networks, Transaction } from 'bitcoinjs-lib'
import * as ecc from 'tiny-secp256k1'
import type { ChainStatus, StoredTransaction } from './createBcoinNode'

// bitcoinjs-lib needs a secp256k1 library to handle P2TR (bech32m) addresses; setting it again is harmless.
initEccLib(ecc)

/** An output as Esplora shows it (without its `scriptpubkey_asm`, which this API leaves out). */
export type EsploraOutput = { scriptpubkey: string; scriptpubkey_type: string; scriptpubkey_address?: string; value: number }

export type EsploraInput = {
  txid: string
  vout: number
  prevout: EsploraOutput | null
  scriptsig: string
  witness?: string[]
  is_coinbase: boolean
  sequence: number
}

export type EsploraTransaction = {
  txid: string
  version: number
  locktime: number
  vin: EsploraInput[]
  vout: EsploraOutput[]
  size: number
  weight: number
  fee: number
  status: ChainStatus
}

export type EsploraStats = { funded_txo_count: number; funded_txo_sum: number; spent_txo_count: number; spent_txo_sum: number; tx_count: number }

/** Finds a transaction by txid (display order), mempool included; undefined when the node has none. */
export type LookupTransaction = (txid: string) => Promise<StoredTransaction | undefined>

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
const txidOf = (hash: Uint8Array) => Buffer.from(hash).reverse().toString('hex')

/** Esplora's names for output script types. */
export function scriptType(script: Uint8Array): string {
  const [first, second] = script
  if (script.length === 25 && first === 0x76 && second === 0xa9 && script[2] === 0x14 && script[23] === 0x88 && script[24] === 0xac) return 'p2pkh'
  if (script.length === 23 && first === 0xa9 && second === 0x14 && script[22] === 0x87) return 'p2sh'
  if (script.length === 22 && first === 0x00 && second === 0x14) return 'v0_p2wpkh'
  if (script.length === 34 && first === 0x00 && second === 0x20) return 'v0_p2wsh'
  if (script.length === 34 && first === 0x51 && second === 0x20) return 'v1_p2tr'
  if (first === 0x6a) return 'op_return'
  if ((script.length === 35 && first === 0x21) || (script.length === 67 && first === 0x41)) return script.at(-1) === 0xac ? 'p2pk' : 'unknown'
  return 'unknown'
}

function toEsploraOutput(script: Uint8Array, value: bigint): EsploraOutput {
  let address: string | undefined
  try {
    address = bitcoinAddress.fromOutputScript(script, networks.regtest)
  } catch {
    address = undefined
  }
  return { scriptpubkey: hex(script), scriptpubkey_type: scriptType(script), ...(address ? { scriptpubkey_address: address } : {}), value: Number(value) }
}

/**
 * Looks up the outputs a transaction's inputs spend (one lookup per distinct funding transaction, shared through
 * `cache` across calls of one request). Coinbase inputs have no prevout; neither does an unknown funding transaction.
 */
async function loadPrevouts(tx: Transaction, lookup: LookupTransaction, cache: Map<string, Transaction | null>) {
  return Promise.all(
    tx.ins.map(async (input) => {
      if (tx.isCoinbase()) return null
      const txid = txidOf(input.hash)
      if (!cache.has(txid)) {
        const stored = await lookup(txid)
        cache.set(txid, stored ? Transaction.fromBuffer(Buffer.from(stored.raw)) : null)
      }
      const output = cache.get(txid)?.outs[input.index]
      return output ? { script: output.script, value: output.value } : null
    }),
  )
}

/**
 * A stored transaction in Esplora's shape (`GET /tx/:txid`): inputs with their prevouts, fee in sats, status.
 * @example await toEsploraTransaction(stored, node.getTransaction) // { txid, vin: [{ prevout: { value } }], fee, status }
 */
export async function toEsploraTransaction(
  stored: StoredTransaction,
  lookup: LookupTransaction,
  cache = new Map<string, Transaction | null>(),
): Promise<EsploraTransaction> {
  const tx = Transaction.fromBuffer(Buffer.from(stored.raw))
  const prevouts = await loadPrevouts(tx, lookup, cache)
  const isCoinbase = tx.isCoinbase()
  const inputSum = prevouts.reduce((sum, prevout) => sum + (prevout?.value ?? 0n), 0n)
  const outputSum = tx.outs.reduce((sum, output) => sum + output.value, 0n)
  return {
    txid: stored.txid,
    version: tx.version,
    locktime: tx.locktime,
    vin: tx.ins.map((input, index) => {
      const prevout = prevouts[index]
      return {
        txid: txidOf(input.hash),
        vout: input.index,
        prevout: prevout ? toEsploraOutput(prevout.script, prevout.value) : null,
        scriptsig: hex(input.script),
        ...(input.witness.length > 0 ? { witness: input.witness.map(hex) } : {}),
        is_coinbase: isCoinbase,
        sequence: input.sequence,
      }
    }),
    vout: tx.outs.map((output) => toEsploraOutput(output.script, output.value)),
    size: tx.byteLength(),
    weight: tx.weight(),
    fee: isCoinbase || prevouts.includes(null) ? 0 : Number(inputSum - outputSum),
    status: stored.status,
  }
}

const emptyStats = (): EsploraStats => ({ funded_txo_count: 0, funded_txo_sum: 0, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 0 })

/**
 * Sums what an output script received and spent, confirmed (`chain_stats`) and in the mempool (`mempool_stats`),
 * as Esplora's `GET /address/:address` does, and answers the transactions that really touch the script (bcoin's index
 * is keyed by the hash inside a script, so it may hold others with the same hash).
 */
export async function summarizeScript(script: Uint8Array, candidates: StoredTransaction[], lookup: LookupTransaction) {
  const wanted = Buffer.from(script)
  const chain = emptyStats()
  const mempool = emptyStats()
  const touching: StoredTransaction[] = []
  const cache = new Map<string, Transaction | null>()
  for (const stored of candidates) {
    const tx = Transaction.fromBuffer(Buffer.from(stored.raw))
    const stats = stored.status.confirmed ? chain : mempool
    let isTouching = false
    for (const output of tx.outs) {
      if (!wanted.equals(output.script)) continue
      stats.funded_txo_count += 1
      stats.funded_txo_sum += Number(output.value)
      isTouching = true
    }
    for (const prevout of await loadPrevouts(tx, lookup, cache)) {
      if (!prevout || !wanted.equals(prevout.script)) continue
      stats.spent_txo_count += 1
      stats.spent_txo_sum += Number(prevout.value)
      isTouching = true
    }
    if (!isTouching) continue
    stats.tx_count += 1
    touching.push(stored)
  }
  return { chain_stats: chain, mempool_stats: mempool, transactions: touching, cache }
}

/** Esplora's order for an address's transactions: mempool first, then newest block first, last in block first. */
export function newestFirst(a: StoredTransaction, b: StoredTransaction): number {
  const heightOf = (stored: StoredTransaction) => (stored.status.confirmed ? stored.status.block_height : Number.MAX_SAFE_INTEGER)
  return heightOf(b) - heightOf(a) || b.blockIndex - a.blockIndex
}
