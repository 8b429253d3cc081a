import { createRequire } from 'node:module'

/**
 * The parts of bcoin 1.0.2 (untyped CommonJS) this folder uses. Hashes are hex strings in bcoin's internal
 * (little-endian) byte order unless a method says `rhash`/`txid`, which give the display order.
 */
export type BcoinTX = {
  hash(encoding: 'hex'): string
  txid(): string
  toRaw(): Buffer
}
export type BcoinMeta = { tx: BcoinTX; height: number; block: string | null; time: number; index: number }
export type BcoinCoin = { hash: string; index: number; height: number; value: number; script: { toRaw(): Buffer } }
export type BcoinEntry = { height: number; hash: string; time: number; rhash(): string }
export type BcoinAddress = object
export type BcoinVerifyError = Error & { type: 'VerifyError'; code: string; reason: string }

export type BcoinFullNode = {
  network: { genesis: { hash: string } }
  chain: {
    tip: BcoinEntry
    height: number
    getEntry(heightOrHash: number | string): Promise<BcoinEntry | null>
    add(block: unknown): Promise<BcoinEntry | null>
  }
  mempool: {
    addTX(tx: BcoinTX): Promise<string[] | null>
    removeOrphan(hash: string): void
    hasEntry(hash: string): boolean
    /** The mempool's entries by hash. */
    map: Map<string, unknown>
  }
  miner: { mineBlock(tip: BcoinEntry | null, address: BcoinAddress): Promise<unknown> }
  http: { open(): Promise<void>; close(): Promise<void> }
  open(): Promise<void>
  close(): Promise<void>
  getMeta(hash: string): Promise<BcoinMeta | null>
  getMetaByAddress(addresses: BcoinAddress[]): Promise<BcoinMeta[]>
  getCoinsByAddress(addresses: BcoinAddress[]): Promise<BcoinCoin[]>
}

export type Bcoin = {
  FullNode: new (options: Record<string, unknown>) => BcoinFullNode
  TX: { fromRaw(raw: Buffer): BcoinTX }
  Script: { fromRaw(raw: Buffer): unknown }
  Address: { fromScript(script: unknown): BcoinAddress | null }
  HDPrivateKey: { fromSeed(seed: Buffer): BcoinHDPrivateKey }
}
export type BcoinHDPrivateKey = { privateKey: Buffer; publicKey: Buffer; derivePath(path: string): BcoinHDPrivateKey }

/**
 * Loads bcoin for a regtest node (Node's module cache keeps one copy per process), after the two things that must come first:
 * 1. `NODE_BACKEND=js`: bcoin's crypto (bcrypto) picks its backend when each module loads, and its native one is not
 *    built here. bcoin loads modules lazily, so the variable stays set for the life of the process.
 * 2. Bitcoin Core's regtest address prefixes (`bcrt`, 0x6f, 0xc4) instead of bcoin's own (`rb`, 0x3c, 0x26), so
 *    addresses made by bitcoinjs-lib and wallets match (bcoin's regtest Network reads this very object).
 * @example const bcoin = loadBcoin(); const node = new bcoin.FullNode({ network: 'regtest', memory: true })
 */
export function loadBcoin(): Bcoin {
  process.env.NODE_BACKEND = 'js'
  const require = createRequire(import.meta.url)
  const networks = require('bcoin/lib/protocol/networks') as { regtest: { addressPrefix: Record<string, number | string> } }
  Object.assign(networks.regtest.addressPrefix, { pubkeyhash: 0x6f, scripthash: 0xc4, bech32: 'bcrt' })
  return require('bcoin') as Bcoin
}
