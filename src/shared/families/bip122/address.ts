import { sha256 } from '@noble/hashes/sha2.js'
import { bech32, bech32m, createBase58check } from '@scure/base'

export type BitcoinNetwork = 'mainnet' | 'testnet' | 'signet' | 'regtest'

export type BitcoinNetworkParameters = {
  /** CAIP-2: `bip122:` and the first 32 hex characters of the genesis block hash. */
  caipNetworkId: `bip122:${string}`
  name: string
  /** BIP-173 human-readable part of its segwit addresses. */
  bech32Prefix: string
  /** Base58check version bytes of pay-to-pubkey-hash and pay-to-script-hash addresses. */
  pubKeyHash: number
  scriptHash: number
}

/** The four Bitcoin networks: mainnet `bc1…`/`1…`/`3…`; testnet and signet `tb1…`/`m…`/`n…`/`2…`; regtest `bcrt1…`/`m…`/`n…`/`2…`. */
export const bitcoinNetworks: Readonly<Record<BitcoinNetwork, BitcoinNetworkParameters>> = {
  mainnet: { caipNetworkId: 'bip122:000000000019d6689c085ae165831e93', name: 'Bitcoin', bech32Prefix: 'bc', pubKeyHash: 0x00, scriptHash: 0x05 },
  testnet: { caipNetworkId: 'bip122:000000000933ea01ad0ee984209779ba', name: 'Bitcoin Testnet', bech32Prefix: 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4 },
  signet: { caipNetworkId: 'bip122:00000008819873e925422c1ff0f99f7c', name: 'Bitcoin Signet', bech32Prefix: 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4 },
  regtest: { caipNetworkId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328', name: 'Bitcoin Regtest', bech32Prefix: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4 },
}

const networkNames = Object.keys(bitcoinNetworks) as BitcoinNetwork[]

/**
 * The Bitcoin network of a CAIP-2 id, if it is one of the four known ones.
 * @example getBitcoinNetwork('bip122:000000000019d6689c085ae165831e93') // 'mainnet'
 */
export const getBitcoinNetwork = (caipNetworkId: string): BitcoinNetwork | undefined =>
  networkNames.find((network) => bitcoinNetworks[network].caipNetworkId === caipNetworkId)

/** p2wsh and p2tr are 32-byte witness programs; `witness` is any other program of witness version 1 to 16 (future upgrades). */
export type BitcoinAddressType = 'p2pkh' | 'p2sh' | 'p2wpkh' | 'p2wsh' | 'p2tr' | 'witness'

export type DecodedBitcoinAddress = {
  type: BitcoinAddressType
  /** Every network whose addresses look like this one: base58 test addresses serve testnet, signet and regtest alike. */
  networks: readonly BitcoinNetwork[]
  /** The output script that pays it (scriptPubKey). */
  outputScript: Uint8Array
  /** The hash (base58) or witness program (segwit) the address carries: for p2tr, the x-only output key. */
  program: Uint8Array
}

const base58check = createBase58check(sha256)

const opPush = (bytes: Uint8Array) => [bytes.length, ...bytes]

/** BIP-173 (witness v0, bech32) and BIP-350 (witness v1+, bech32m) segwit addresses. */
function decodeSegwit(value: string): DecodedBitcoinAddress | undefined {
  if (value !== value.toLowerCase() && value !== value.toUpperCase()) return undefined
  const lower = value.toLowerCase()
  const separator = lower.lastIndexOf('1')
  const prefix = lower.slice(0, separator)
  const networks = networkNames.filter((network) => bitcoinNetworks[network].bech32Prefix === prefix)
  if (networks.length === 0) return undefined
  for (const coder of [bech32, bech32m]) {
    let decoded: { prefix: string; words: number[] }
    try {
      decoded = coder.decode(lower as `${string}1${string}`, 90)
    } catch {
      continue
    }
    if (decoded.words.length === 0) return undefined
    const [version, ...data] = decoded.words as [number, ...number[]]
    if (version > 16) return undefined
    if ((version === 0) !== (coder === bech32)) return undefined
    let program: Uint8Array
    try {
      program = coder.fromWords(data)
    } catch {
      return undefined
    }
    if (program.length < 2 || program.length > 40) return undefined
    if (version === 0 && program.length !== 20 && program.length !== 32) return undefined
    const type: BitcoinAddressType = version === 0 ? (program.length === 20 ? 'p2wpkh' : 'p2wsh') : version === 1 && program.length === 32 ? 'p2tr' : 'witness'
    // OP_0, or OP_1 … OP_16 (0x51 … 0x60), then the program pushed.
    return { type, networks, program, outputScript: Uint8Array.from([version === 0 ? 0 : 0x50 + version, ...opPush(program)]) }
  }
  return undefined
}

function decodeBase58(value: string): DecodedBitcoinAddress | undefined {
  let payload: Uint8Array
  try {
    payload = base58check.decode(value)
  } catch {
    return undefined
  }
  if (payload.length !== 21) return undefined
  const [version] = payload as unknown as [number]
  const hash = payload.subarray(1)
  const isP2pkh = networkNames.some((network) => bitcoinNetworks[network].pubKeyHash === version)
  const networks = networkNames.filter((network) => (isP2pkh ? bitcoinNetworks[network].pubKeyHash : bitcoinNetworks[network].scriptHash) === version)
  if (networks.length === 0) return undefined
  // OP_DUP OP_HASH160 <hash> OP_EQUALVERIFY OP_CHECKSIG, or OP_HASH160 <hash> OP_EQUAL.
  const outputScript = isP2pkh ? Uint8Array.from([0x76, 0xa9, ...opPush(hash), 0x88, 0xac]) : Uint8Array.from([0xa9, ...opPush(hash), 0x87])
  return { type: isP2pkh ? 'p2pkh' : 'p2sh', networks, program: hash, outputScript }
}

/**
 * Decodes a Bitcoin address of any network: its type, the networks it may belong to and the script that pays it.
 * Undefined for anything that is not a valid address (bad checksum, mixed case, bech32 for v1+, unknown prefix).
 * @example decodeBitcoinAddress('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4') // { type: 'p2wpkh', networks: ['mainnet'], … }
 */
export function decodeBitcoinAddress(value: string): DecodedBitcoinAddress | undefined {
  if (typeof value !== 'string' || value.length > 90) return undefined
  return decodeSegwit(value) ?? decodeBase58(value)
}

/**
 * The networks an address belongs to, [] when it is no Bitcoin address: so a form can say "this is a mainnet address".
 * @example getBitcoinAddressNetworks('tb1q…') // ['testnet', 'signet']
 */
export const getBitcoinAddressNetworks = (value: string): readonly BitcoinNetwork[] => decodeBitcoinAddress(value)?.networks ?? []

/**
 * The networks of an address in words, for messages: 'Bitcoin mainnet', 'Bitcoin testnet or signet', ….
 * @example describeBitcoinNetworks(['testnet', 'signet']) // 'Bitcoin testnet or signet'
 */
export function describeBitcoinNetworks(networks: readonly BitcoinNetwork[]): string {
  if (networks.length <= 1) return `Bitcoin ${networks[0] ?? 'unknown'}`
  return `Bitcoin ${networks.slice(0, -1).join(', ')} or ${networks.at(-1)}`
}

/** A Bitcoin address of the given network: bech32/bech32m segwit or base58check P2PKH/P2SH. */
export function isBitcoinAddress(value: string, network: BitcoinNetwork = 'mainnet'): boolean {
  return decodeBitcoinAddress(value)?.networks.includes(network) ?? false
}
