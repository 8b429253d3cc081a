import { bytesToNumberBE, numberToBytesBE } from '@noble/curves/abstract/utils'
import { schnorr, secp256k1 } from '@noble/curves/secp256k1'
import { ripemd160 } from '@noble/hashes/legacy.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { base64 } from '@scure/base'
import { script, Transaction } from 'bitcoinjs-lib'
import { decodeBitcoinAddress, type DecodedBitcoinAddress } from './address'
import { createWidgetError } from '../../protocol/errors'

/** Longest message either function takes, in UTF-16 code units; verifyBip322 answers false past it. */
export const BIP322_MAX_MESSAGE_LENGTH = 65_536
/** Longest signature verifyBip322 reads, in base64 characters (a full-format P2SH-P2WPKH proof is about 330). */
export const BIP322_MAX_SIGNATURE_LENGTH = 2_048

export type SignBip322Parameters = { message: string; address: string; privateKey: Uint8Array }
export type VerifyBip322Parameters = { message: string; address: string; signature: string }

const ZERO_HASH = new Uint8Array(32)
const OP_RETURN = Uint8Array.of(0x6a)
/** The legacy signed-message magic, with its length prefix (24). */
const LEGACY_MAGIC = utf8ToBytes('\x18Bitcoin Signed Message:\n')

const hash160 = (bytes: Uint8Array) => ripemd160(sha256(bytes))
const sha256d = (bytes: Uint8Array) => sha256(sha256(bytes))
const taggedHash = (tag: string, ...parts: Uint8Array[]) => {
  const tagHash = sha256(utf8ToBytes(tag))
  return sha256(concatBytes(tagHash, tagHash, ...parts))
}
const isEqual = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i])
/** OP_DUP OP_HASH160 <hash> OP_EQUALVERIFY OP_CHECKSIG: the script code BIP-143 signs for a P2WPKH input. */
const p2pkhScript = (hash: Uint8Array) => Uint8Array.of(0x76, 0xa9, 0x14, ...hash, 0x88, 0xac)

/** Bitcoin's CompactSize: the length prefixes of witness stacks and their items. */
function compactSize(n: number) {
  if (n < 0xfd) return Uint8Array.of(n)
  if (n <= 0xffff) return Uint8Array.of(0xfd, n & 0xff, n >> 8)
  return Uint8Array.of(0xfe, n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24)
}

/**
 * BIP-322's `to_spend`: a transaction nobody can broadcast whose one output pays the address, and whose input commits
 * to the message by its tagged hash (`BIP0322-signed-message`).
 */
function toSpend(message: string, outputScript: Uint8Array) {
  const messageHash = taggedHash('BIP0322-signed-message', utf8ToBytes(message))
  const tx = new Transaction()
  tx.version = 0
  tx.locktime = 0
  // OP_0 PUSH32 message_hash
  tx.addInput(ZERO_HASH, 0xffffffff, 0, Uint8Array.of(0x00, 0x20, ...messageHash))
  tx.addOutput(outputScript, 0n)
  return tx
}

/** BIP-322's `to_sign` of the simple format: spends `to_spend`'s output to OP_RETURN, with `witness` on its input. */
function simpleToSign(spend: Transaction, witness: Uint8Array[]) {
  const tx = new Transaction()
  tx.version = 0
  tx.locktime = 0
  tx.addInput(spend.getHash(), 0, 0)
  tx.addOutput(OP_RETURN, 0n)
  tx.setWitness(0, witness)
  return tx
}

/** The consensus encoding of a witness stack: what the simple format base64-encodes. */
const encodeWitness = (stack: Uint8Array[]) => concatBytes(compactSize(stack.length), ...stack.flatMap((item) => [compactSize(item.length), item]))

/** Reads a witness stack that fills `bytes` exactly; undefined for anything else. */
function decodeWitness(bytes: Uint8Array): Uint8Array[] | undefined {
  let offset = 0
  const readSize = () => {
    const first = bytes[offset++]
    if (first === undefined) return undefined
    if (first < 0xfd) return first
    // Larger than any signature this reads (bounded by BIP322_MAX_SIGNATURE_LENGTH): 0xfd sizes only, minimal.
    if (first !== 0xfd || offset + 2 > bytes.length) return undefined
    const size = bytes[offset]! | (bytes[offset + 1]! << 8)
    offset += 2
    return size < 0xfd ? undefined : size
  }
  const count = readSize()
  if (count === undefined || count > bytes.length) return undefined
  const stack: Uint8Array[] = []
  for (let i = 0; i < count; i++) {
    const size = readSize()
    if (size === undefined || offset + size > bytes.length) return undefined
    stack.push(bytes.slice(offset, offset + size))
    offset += size
  }
  return offset === bytes.length ? stack : undefined
}

/** An ECDSA signature as a script carries it (strict DER, BIP-66, and a defined sighash type), checked low-S. */
function isEcdsaValid(encoded: Uint8Array, publicKey: Uint8Array, sighash: (hashType: number) => Uint8Array) {
  const { signature, hashType } = script.signature.decode(encoded)
  return secp256k1.verify(signature, sighash(hashType), publicKey, { lowS: true, format: 'compact' })
}

/** A compressed public key: the only kind a segwit v0 input may use. */
const isCompressedKey = (key: Uint8Array) => key.length === 33 && (key[0] === 2 || key[0] === 3)

/**
 * Whether the first input of a `to_sign` transaction spends `address`'s output of `to_spend` as a script would let it
 * (for the single-key address types: a script interpreter is not needed for them, and other types answer false):
 * 1. P2WPKH: empty scriptSig, witness [signature, compressed key] with the key hashing to the program (BIP-143);
 * 2. P2TR key path: empty scriptSig, witness [64-byte signature, or 65 with a sighash type] under the output key
 *    (BIP-341 sighash, BIP-340 Schnorr); no annex, no script path;
 * 3. P2SH-P2WPKH: scriptSig pushing exactly `OP_0 <20-byte key hash>`, which hashes to the address, then as P2WPKH;
 * 4. P2PKH: scriptSig pushing exactly [signature, key] with the key hashing to the address (legacy sighash).
 */
function isSpentBy(tx: Transaction, decoded: DecodedBitcoinAddress): boolean {
  const input = tx.ins[0]!
  const { witness } = input
  const prevout = decoded.outputScript
  const p2wpkh = (keyHash: Uint8Array) => {
    const [signature, publicKey, ...rest] = witness
    if (!signature || !publicKey || rest.length > 0 || !isCompressedKey(publicKey) || !isEqual(hash160(publicKey), keyHash)) return false
    return isEcdsaValid(signature, publicKey, (hashType) => tx.hashForWitnessV0(0, p2pkhScript(keyHash), 0n, hashType))
  }
  switch (decoded.type) {
    case 'p2wpkh':
      return input.script.length === 0 && p2wpkh(decoded.program)
    case 'p2tr': {
      const [signature, ...rest] = witness
      if (input.script.length !== 0 || !signature || rest.length > 0) return false
      if (signature.length !== 64 && signature.length !== 65) return false
      // 65 bytes carry an explicit sighash type, which may not be SIGHASH_DEFAULT (BIP-341).
      const hashType = signature.length === 65 ? signature[64]! : Transaction.SIGHASH_DEFAULT
      if (signature.length === 65 && (hashType === 0 || !script.isDefinedHashType(hashType))) return false
      return schnorr.verify(signature.subarray(0, 64), tx.hashForWitnessV1(0, [prevout], [0n], hashType), decoded.program)
    }
    case 'p2sh': {
      const chunks = script.decompile(input.script)
      const redeem = chunks?.length === 1 ? chunks[0] : undefined
      if (!(redeem instanceof Uint8Array) || redeem.length !== 22 || redeem[0] !== 0x00 || redeem[1] !== 0x14) return false
      if (!isEqual(input.script, Uint8Array.of(22, ...redeem)) || !isEqual(hash160(redeem), decoded.program)) return false
      return p2wpkh(redeem.subarray(2))
    }
    case 'p2pkh': {
      const chunks = script.decompile(input.script)
      const [signature, publicKey] = chunks?.length === 2 ? chunks : []
      if (!(signature instanceof Uint8Array) || !(publicKey instanceof Uint8Array) || witness.length > 0) return false
      if (!script.isCanonicalPubKey(publicKey) || !isEqual(hash160(publicKey), decoded.program)) return false
      return isEcdsaValid(signature, publicKey, (hashType) => tx.hashForSignature(0, prevout, hashType))
    }
    default:
      return false
  }
}

/** The full format: a whole `to_sign` transaction, one input spending `to_spend`'s output and one OP_RETURN output. */
function isFullProof(bytes: Uint8Array, spend: Transaction, decoded: DecodedBitcoinAddress) {
  const tx = Transaction.fromBuffer(bytes)
  const [input] = tx.ins
  const [output] = tx.outs
  if (tx.ins.length !== 1 || tx.outs.length !== 1 || !input || !output) return false
  if (!isEqual(input.hash, spend.getHash()) || input.index !== 0) return false
  if (output.value !== 0n || !isEqual(output.script, OP_RETURN)) return false
  return isSpentBy(tx, decoded)
}

/**
 * The "Bitcoin Signed Message" signature most wallets still make (BIP-137): 65 bytes, a header then r and s, over the
 * double SHA-256 of the magic and the message. The header says the key's recovery id and form: 27–30 an
 * uncompressed key's P2PKH, 31–34 a compressed key's P2PKH, 35–38 P2SH-P2WPKH, 39–42 P2WPKH. Segwit addresses take
 * any compressed header, as Electrum and others write 31–34 for them.
 */
function isLegacyValid(bytes: Uint8Array, message: string, decoded: DecodedBitcoinAddress) {
  const header = bytes[0]!
  if (bytes.length !== 65 || header < 27 || header > 42) return false
  const isCompressed = header >= 31
  if (decoded.type === 'p2pkh' ? header > 34 : !isCompressed) return false
  const messageBytes = utf8ToBytes(message)
  const digest = sha256d(concatBytes(LEGACY_MAGIC, compactSize(messageBytes.length), messageBytes))
  const recovery = (header - 27) % 4
  const publicKey = secp256k1.Signature.fromCompact(bytes.subarray(1)).addRecoveryBit(recovery).recoverPublicKey(digest).toRawBytes(isCompressed)
  const keyHash = hash160(publicKey)
  switch (decoded.type) {
    case 'p2pkh':
    case 'p2wpkh':
      return isEqual(keyHash, decoded.program)
    case 'p2sh':
      return isEqual(hash160(Uint8Array.of(0x00, 0x14, ...keyHash)), decoded.program)
    default:
      return false
  }
}

const tryOr = (check: () => boolean) => {
  try {
    return check()
  } catch {
    return false
  }
}

/**
 * Whether `signature` proves that `address` signed `message`; false (never a throw) for anything malformed, too long,
 * for another address or another message. Reads, in base64:
 * - BIP-322 simple (the witness stack) for P2WPKH and P2TR (key path) addresses;
 * - BIP-322 full (the whole `to_sign` transaction) for P2WPKH, P2TR, P2SH-P2WPKH and P2PKH;
 * - either one with the `smp` / `ful` prefix of the BIP's latest draft;
 * - the legacy "Bitcoin Signed Message" compact signature (BIP-137) for P2PKH, P2WPKH and P2SH-P2WPKH.
 * Addresses of mainnet, testnet, signet and regtest all work; P2WSH and script-path P2TR answer false.
 * @example verifyBip322({ message: 'Hello World', address: 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l', signature: 'AkcwRAIg…' }) // true
 */
export function verifyBip322({ message, address, signature }: VerifyBip322Parameters): boolean {
  if (typeof message !== 'string' || typeof address !== 'string' || typeof signature !== 'string') return false
  if (message.length > BIP322_MAX_MESSAGE_LENGTH || signature.length > BIP322_MAX_SIGNATURE_LENGTH) return false
  const decoded = decodeBitcoinAddress(address)
  if (!decoded) return false
  const spend = toSpend(message, decoded.outputScript)
  const isSimple = (bytes: Uint8Array) =>
    tryOr(() => {
      const witness = decodeWitness(bytes)
      return (decoded.type === 'p2wpkh' || decoded.type === 'p2tr') && witness !== undefined && isSpentBy(simpleToSign(spend, witness), decoded)
    })
  const isFull = (bytes: Uint8Array) => tryOr(() => isFullProof(bytes, spend, decoded))
  const prefixed = fromBase64(signature.slice(3))
  if (prefixed && ((signature.startsWith('smp') && isSimple(prefixed)) || (signature.startsWith('ful') && isFull(prefixed)))) return true
  const bytes = fromBase64(signature)
  if (!bytes) return false
  return tryOr(() => isLegacyValid(bytes, message, decoded)) || isSimple(bytes) || isFull(bytes)
}

/** The bytes of non-empty base64 text; undefined for anything else. */
function fromBase64(text: string) {
  try {
    const bytes = base64.decode(text)
    return bytes.length > 0 ? bytes : undefined
  } catch {
    return undefined
  }
}

/** Low-R grinding as Bitcoin Core signs: RFC 6979 nonces with a counter as extra data until r fits in 32 bytes. */
function signEcdsaLowR(digest: Uint8Array, privateKey: Uint8Array) {
  for (let counter = 0; ; counter++) {
    const extraEntropy = counter === 0 ? undefined : Uint8Array.from({ length: 32 }, (_, i) => (i < 4 ? (counter >>> (8 * i)) & 0xff : 0))
    const signature = secp256k1.sign(digest, privateKey, { lowS: true, extraEntropy })
    if (signature.r < 2n ** 255n) return signature.toCompactRawBytes()
  }
}

/** BIP-341's key-path secret key: the key, negated if its point's y is odd, plus the TapTweak of its x-only point. */
function tweakPrivateKey(privateKey: Uint8Array) {
  const { n } = secp256k1.CURVE
  const point = secp256k1.ProjectivePoint.fromPrivateKey(privateKey)
  const secret = bytesToNumberBE(privateKey)
  const even = point.toAffine().y % 2n === 0n ? secret : n - secret
  // A TapTweak of n or more (odds about 2^-128) has no P2TR address (BIP-341); the output key check then refuses it.
  const tweaked = (even + bytesToNumberBE(taggedHash('TapTweak', point.toRawBytes(true).subarray(1)))) % n
  return numberToBytesBE(tweaked, 32)
}

const unsignable = (details: string) => createWidgetError('INVALID_ADDRESS', { field: 'address', details })

/**
 * Signs `message` for `address` with its private key, as a wallet does for BIP-322 (`to_spend` / `to_sign`), and
 * returns the simple format: the base64 of the witness stack.
 * 1. P2WPKH: an ECDSA signature (SIGHASH_ALL, low R as Bitcoin Core grinds it) and the compressed key;
 * 2. P2TR: a BIP-340 Schnorr signature (SIGHASH_DEFAULT) with the key tweaked as BIP-341 tweaks a key path without scripts.
 * Throws a WidgetError INVALID_ADDRESS for another address type or an address the key does not own, and
 * INVALID_MESSAGE for a message longer than BIP322_MAX_MESSAGE_LENGTH.
 * @example signBip322({ message: 'Hello World', address: 'bcrt1q…', privateKey })
 */
export function signBip322({ message, address, privateKey }: SignBip322Parameters): string {
  if (typeof message !== 'string' || message.length > BIP322_MAX_MESSAGE_LENGTH) {
    throw createWidgetError('INVALID_MESSAGE', { field: 'message', details: `the message must be text of at most ${BIP322_MAX_MESSAGE_LENGTH} characters` })
  }
  const decoded = decodeBitcoinAddress(address)
  if (!decoded || (decoded.type !== 'p2wpkh' && decoded.type !== 'p2tr')) throw unsignable('BIP-322 signing needs a P2WPKH (…1q…) or P2TR (…1p…) address')
  if (!secp256k1.utils.isValidPrivateKey(privateKey)) throw unsignable('the private key is not a secp256k1 secret key')
  const spend = toSpend(message, decoded.outputScript)
  const sign = simpleToSign(spend, [])
  if (decoded.type === 'p2wpkh') {
    const publicKey = secp256k1.getPublicKey(privateKey, true)
    if (!isEqual(hash160(publicKey), decoded.program)) throw unsignable('the private key does not own this address')
    const digest = sign.hashForWitnessV0(0, p2pkhScript(decoded.program), 0n, Transaction.SIGHASH_ALL)
    return base64.encode(encodeWitness([script.signature.encode(signEcdsaLowR(digest, privateKey), Transaction.SIGHASH_ALL), publicKey]))
  }
  const tweaked = tweakPrivateKey(privateKey)
  if (!secp256k1.utils.isValidPrivateKey(tweaked) || !isEqual(schnorr.getPublicKey(tweaked), decoded.program)) throw unsignable('the private key does not own this address')
  const digest = sign.hashForWitnessV1(0, [decoded.outputScript], [0n], Transaction.SIGHASH_DEFAULT)
  return base64.encode(encodeWitness([schnorr.sign(digest, tweaked)]))
}
