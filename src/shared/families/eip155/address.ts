import { keccak_256 } from '@noble/hashes/sha3.js'
import { utf8ToBytes } from '@noble/hashes/utils.js'

const loose = /^(0x)?[0-9a-fA-F]{40}$/
const strictShape = /^0x[0-9a-fA-F]{40}$/

/** The EIP-55 mixed-case checksum form of a 40-hex-digit address (https://eips.ethereum.org/EIPS/eip-55). */
export function toChecksumAddress(address: string): `0x${string}` {
  if (!loose.test(address)) throw new Error(`Invalid EVM address: ${address}`)
  const lower = address.replace(/^0x/, '').toLowerCase()
  const hash = keccak_256(utf8ToBytes(lower))
  let result = '0x'
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0x0f
    result += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i]
  }
  return result as `0x${string}`
}

/**
 * An EVM address: 40 hex digits with an optional 0x (SPEC §5). Strict: 0x, and the EIP-55 checksum must hold
 * (an all-lowercase or all-uppercase address carries no checksum and is accepted).
 */
export function isEvmAddress(value: string, { strict = false }: { strict?: boolean } = {}): boolean {
  if (!strict) return loose.test(value)
  if (!strictShape.test(value)) return false
  const body = value.slice(2)
  if (body === body.toLowerCase() || body === body.toUpperCase()) return true
  return toChecksumAddress(value) === value
}
