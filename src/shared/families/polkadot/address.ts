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

/**
 * Encodes a 32-byte public key as an SS58 address of `prefix` (0 to 16383; 64 and above take two bytes).
 * @example encodeSs58(alicePublicKey, 0) // '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5'
 */
export function encodeSs58(publicKey: Uint8Array, prefix: number): string {
  if (publicKey.length !== 32) throw new Error(`An SS58 account key has 32 bytes, not ${publicKey.length}`)
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > 16_383) throw new Error(`${prefix} is not an SS58 prefix (0 to 16383)`)
  const prefixBytes = prefix < 64 ? [prefix] : [((prefix & 0xfc) >> 2) | 0x40, (prefix >> 8) | ((prefix & 0x03) << 6)]
  const body = new Uint8Array([...prefixBytes, ...publicKey])
  const hash = blake2b(new Uint8Array([...SS58_PREFIX, ...body]), { dkLen: 64 })
  return base58.encode(new Uint8Array([...body, hash[0]!, hash[1]!]))
}

export type PolkadotNetworkParameters = {
  /** CAIP-2: `polkadot:` and the first 32 hex characters of the genesis hash. */
  caipNetworkId: `polkadot:${string}`
  name: string
  /** The SS58 prefix of its addresses (System.SS58Prefix of its runtime). */
  ss58Prefix: number
  symbol: string
  decimals: number
}

/**
 * The relay chains Tessera knows and the local stack's chain (chopsticks gives a chain built from a genesis spec the
 * genesis hash 0x4545…45; its Rococo Asset Hub runtime formats addresses with prefix 2).
 */
export const polkadotNetworks = {
  polkadot: { caipNetworkId: 'polkadot:91b171bb158e2d3848fa23a9f1c25182', name: 'Polkadot', ss58Prefix: 0, symbol: 'DOT', decimals: 10 },
  kusama: { caipNetworkId: 'polkadot:b0a8d493285c2df73290dfb7e61f870f', name: 'Kusama', ss58Prefix: 2, symbol: 'KSM', decimals: 12 },
  westend: { caipNetworkId: 'polkadot:e143f23803ac50e8f6f8e62695d1ce9e', name: 'Westend', ss58Prefix: 42, symbol: 'WND', decimals: 12 },
  local: { caipNetworkId: 'polkadot:45454545454545454545454545454545', name: 'Polkadot Local', ss58Prefix: 2, symbol: 'ROC', decimals: 12 },
} as const satisfies Record<string, PolkadotNetworkParameters>

/** The known Polkadot network of a CAIP-2 id. */
export const getPolkadotNetwork = (caipNetworkId: string): PolkadotNetworkParameters | undefined =>
  Object.values(polkadotNetworks).find((network) => network.caipNetworkId === caipNetworkId)

/** The generic Substrate prefix: an address of any chain, which wallets show when an account is not tied to one. */
export const GENERIC_SS58_PREFIX = 42

const prefixNames: Readonly<Record<number, string>> = { 0: 'Polkadot', 2: 'Kusama', 42: 'generic Substrate' }

/** What an address of `prefix` is, for a sentence: 'Polkadot', 'Kusama', 'SS58 format 7'. */
export const describeSs58Prefix = (prefix: number): string => prefixNames[prefix] ?? `SS58 format ${prefix}`

/** A Polkadot-family SS58 address; with `prefix`, only that network's (0 Polkadot, 2 Kusama, 42 generic). */
export function isPolkadotAddress(value: string, { prefix }: { prefix?: number } = {}): boolean {
  const decoded = decodeSs58(value)
  return decoded !== undefined && (prefix === undefined || decoded.prefix === prefix)
}
