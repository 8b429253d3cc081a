import { address as bitcoinAddress, initEccLib, networks, Transaction } from 'bitcoinjs-lib'
import * as ecc from 'tiny-secp256k1'

// bitcoinjs-lib needs a secp256k1 library to handle P2TR (bech32m) addresses; setting it again is harmless.
initEccLib(ecc)

/** A request the Esplora API refuses: the HTTP status, a stable code, a sentence for people, and the node's reason if any. */
export class EsploraError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly reason?: string,
  ) {
    super(message)
    this.name = 'EsploraError'
  }
}

// Longest address: a bech32 segwit v1+ address is at most 90 characters (BIP173); base58 ones are shorter.
const addressShape = /^[A-Za-z0-9]{1,90}$/

const otherNetworks = [
  { label: 'a Bitcoin mainnet', network: networks.bitcoin },
  { label: 'a testnet', network: networks.testnet },
] as const

/**
 * Parses an address of this regtest chain to its output script, with bitcoinjs-lib (bcoin's own parser refuses
 * bech32m, so P2TR `bcrt1p…` would fail there). Base58 testnet and regtest addresses share their prefixes, so those pass.
 * @example parseRegtestAddress('bcrt1q…') // Uint8Array [0x00, 0x14, …]
 */
export function parseRegtestAddress(text: string): Uint8Array {
  if (!addressShape.test(text)) throw new EsploraError(400, 'INVALID_ADDRESS', 'Invalid Bitcoin address: expected 1 to 90 letters and digits')
  try {
    return bitcoinAddress.toOutputScript(text, networks.regtest)
  } catch {
    for (const { label, network } of otherNetworks) {
      try {
        bitcoinAddress.toOutputScript(text, network)
      } catch {
        continue
      }
      throw new EsploraError(400, 'INVALID_ADDRESS', `${text} is ${label} address; this chain is regtest (bcrt1…, m…, n… or 2… addresses)`)
    }
    throw new EsploraError(400, 'INVALID_ADDRESS', `Invalid Bitcoin address: ${text}`)
  }
}

/**
 * A txid as 64 hex characters (display order), lower-cased.
 * @example parseTxid('AB…') // 'ab…'
 */
export function parseTxid(text: string): string {
  if (!/^[0-9a-fA-F]{64}$/.test(text)) throw new EsploraError(400, 'INVALID_TXID', 'Invalid txid: expected 64 hex characters')
  return text.toLowerCase()
}

/**
 * The body of POST /tx: a raw transaction in hex (whitespace around it is ignored), decoded to check it is one
 * whole transaction. The decoder's failure is answered in Bitcoin Core's words, "TX decode failed".
 * @example parseTransactionHex('0200000001…') // Uint8Array
 */
export function parseTransactionHex(body: string): Uint8Array {
  const hex = body.trim()
  if (hex === '') throw new EsploraError(400, 'INVALID_TRANSACTION', 'Empty body: send the raw transaction as hex')
  if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length % 2 !== 0) {
    throw new EsploraError(400, 'INVALID_TRANSACTION', 'The body must be the raw transaction as an even number of hex characters')
  }
  const raw = Buffer.from(hex, 'hex')
  try {
    Transaction.fromBuffer(raw)
  } catch (error) {
    throw new EsploraError(400, 'INVALID_TRANSACTION', `TX decode failed: ${(error as Error).message}`, 'TX decode failed')
  }
  return Uint8Array.from(raw)
}
