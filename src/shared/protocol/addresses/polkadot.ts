import { blake2b } from '@noble/hashes/blake2.js'
import { base58 } from '@scure/base'

const SS58_PREFIX = new TextEncoder().encode('SS58PRE')

export type DecodedSs58 = { prefix: number; publicKey: Uint8Array }

/**
 * Decodes an SS58 address (https://docs.substrate.io/reference/address-formats/): a 1- or 2-byte network prefix,
 * a 32-byte public key, and the first 2 bytes of blake2b-512("SS58PRE" ‖ prefix ‖ key) as checksum.
 */
export function decodeSs58(value: string): DecodedSs58 | undefined {
  let bytes: Uint8Array
  try {
    bytes = base58.decode(value)
  } catch {
    return undefined
  }
  const first = bytes[0]
  if (first === undefined) return undefined
  const prefixLength = first < 64 ? 1 : first < 128 ? 2 : 0
  if (prefixLength === 0 || bytes.length !== prefixLength + 32 + 2) return undefined
  const prefix =
    prefixLength === 1 ? first : (((first & 0x3f) << 2) | (bytes[1]! >> 6) | ((bytes[1]! & 0x3f) << 8))
  const body = bytes.subarray(0, prefixLength + 32)
  const hash = blake2b(new Uint8Array([...SS58_PREFIX, ...body]), { dkLen: 64 })
  if (hash[0] !== bytes[prefixLength + 32] || hash[1] !== bytes[prefixLength + 33]) return undefined
  return { prefix, publicKey: bytes.slice(prefixLength, prefixLength + 32) }
}

/** A Polkadot-family SS58 address; with `prefix`, only that network's (0 Polkadot, 2 Kusama, 42 generic). */
export function isPolkadotAddress(value: string, { prefix }: { prefix?: number } = {}): boolean {
  const decoded = decodeSs58(value)
  return decoded !== undefined && (prefix === undefined || decoded.prefix === prefix)
}
