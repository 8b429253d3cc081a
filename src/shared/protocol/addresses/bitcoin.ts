import { sha256 } from '@noble/hashes/sha2.js'
import { bech32, bech32m, createBase58check } from '@scure/base'

export type BitcoinNetwork = 'mainnet' | 'testnet' | 'regtest'

const bech32Prefix: Record<BitcoinNetwork, string> = { mainnet: 'bc', testnet: 'tb', regtest: 'bcrt' }
/** Base58check version bytes: pay-to-pubkey-hash and pay-to-script-hash. */
const base58Versions: Record<BitcoinNetwork, readonly number[]> = { mainnet: [0x00, 0x05], testnet: [0x6f, 0xc4], regtest: [0x6f, 0xc4] }
const base58check = createBase58check(sha256)

/** BIP-173 (witness v0, bech32) and BIP-350 (witness v1+, bech32m) segwit addresses. */
function isSegwitAddress(value: string, network: BitcoinNetwork): boolean {
  if (value !== value.toLowerCase() && value !== value.toUpperCase()) return false
  const lower = value.toLowerCase()
  if (!lower.startsWith(`${bech32Prefix[network]}1`)) return false
  for (const coder of [bech32, bech32m]) {
    let decoded: { prefix: string; words: number[] }
    try {
      decoded = coder.decode(lower as `${string}1${string}`, 90)
    } catch {
      continue
    }
    if (decoded.prefix !== bech32Prefix[network] || decoded.words.length === 0) return false
    const [version, ...data] = decoded.words as [number, ...number[]]
    if (version > 16) return false
    if ((version === 0) !== (coder === bech32)) return false
    let program: Uint8Array
    try {
      program = coder.fromWords(data)
    } catch {
      return false
    }
    if (program.length < 2 || program.length > 40) return false
    if (version === 0 && program.length !== 20 && program.length !== 32) return false
    return true
  }
  return false
}

function isBase58Address(value: string, network: BitcoinNetwork): boolean {
  try {
    const payload = base58check.decode(value)
    return payload.length === 21 && base58Versions[network].includes(payload[0]!)
  } catch {
    return false
  }
}

/** A Bitcoin address of the given network: bech32/bech32m segwit or base58check P2PKH/P2SH. */
export function isBitcoinAddress(value: string, network: BitcoinNetwork = 'mainnet'): boolean {
  return isSegwitAddress(value, network) || isBase58Address(value, network)
}
