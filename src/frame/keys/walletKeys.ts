import { ed25519 } from '@noble/curves/ed25519'
import { mapHashToField } from '@noble/curves/abstract/modular'
import { secp256k1 } from '@noble/curves/secp256k1'
import { hkdf } from '@noble/hashes/hkdf.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { base58 } from '@scure/base'
import { bytesToHex, getAddress, type Address, type Hex } from 'viem'

/** The wallet's root secret: 32 random bytes, split into shares; every account key is derived from it. */
export const ROOT_SECRET_BYTES = 32

const utf8 = (text: string) => new TextEncoder().encode(text)
const HKDF_SALT = utf8('tessera-embedded-wallet-v1')
const COMMITMENT_TAG = utf8('tessera-wallet-commitment-v1')

/** The accounts of one embedded wallet: an EVM key (secp256k1) and a Solana key (ed25519), both from one root secret. */
export type WalletKeys = {
  eip155: { privateKey: Hex; publicKey: Uint8Array; address: Address }
  solana: { secretKey: Uint8Array; publicKey: Uint8Array; address: string }
}

/** The public half of WalletKeys: what may be stored and shown. */
export type WalletPublicKeys = { eip155: { address: Address; publicKey: Hex }; solana: { address: string; publicKey: Hex } }

/**
 * A new root secret from the browser's CSPRNG.
 * @example const secret = createRootSecret() // 32 bytes, never leaves the frame
 */
export function createRootSecret(random: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array = (bytes) => crypto.getRandomValues(bytes)): Uint8Array {
  return random(new Uint8Array(ROOT_SECRET_BYTES))
}

/**
 * The account keys of a root secret, by HKDF-SHA256 with one label per namespace:
 * 1. eip155: 48 bytes mapped onto the secp256k1 scalar field (noble's `mapHashToField`, no bias), its address the last
 *    20 bytes of keccak256 of the uncompressed public key;
 * 2. solana: 32 bytes as the ed25519 secret key, its address the base58 public key.
 */
export function deriveWalletKeys(rootSecret: Uint8Array): WalletKeys {
  if (rootSecret.length !== ROOT_SECRET_BYTES) throw new Error(`a root secret of ${rootSecret.length} bytes`)
  const evmSeed = hkdf(sha256, rootSecret, HKDF_SALT, utf8('eip155 secp256k1'), 48)
  const evmPrivate = mapHashToField(evmSeed, secp256k1.CURVE.n)
  const evmPublic = secp256k1.getPublicKey(evmPrivate, false)
  const address = getAddress(bytesToHex(keccak_256(evmPublic.subarray(1)).subarray(-20)))
  const solanaSecret = hkdf(sha256, rootSecret, HKDF_SALT, utf8('solana ed25519'), 32)
  const solanaPublic = ed25519.getPublicKey(solanaSecret)
  return {
    eip155: { privateKey: bytesToHex(evmPrivate), publicKey: evmPublic, address },
    solana: { secretKey: solanaSecret, publicKey: solanaPublic, address: base58.encode(solanaPublic) },
  }
}

/** The public keys and addresses of a wallet. */
export const toPublicKeys = (keys: WalletKeys): WalletPublicKeys => ({
  eip155: { address: keys.eip155.address, publicKey: bytesToHex(keys.eip155.publicKey) },
  solana: { address: keys.solana.address, publicKey: bytesToHex(keys.solana.publicKey) },
})

/**
 * The commitment a rebuilt secret is checked against: SHA-256 of a label and both public keys. It reveals nothing of the
 * secret and changes with any change of it.
 * @example walletCommitment(deriveWalletKeys(secret)) // '0x…' (32 bytes)
 */
export function walletCommitment(keys: WalletKeys): Hex {
  const input = new Uint8Array(COMMITMENT_TAG.length + keys.eip155.publicKey.length + keys.solana.publicKey.length)
  input.set(COMMITMENT_TAG)
  input.set(keys.eip155.publicKey, COMMITMENT_TAG.length)
  input.set(keys.solana.publicKey, COMMITMENT_TAG.length + keys.eip155.publicKey.length)
  return bytesToHex(sha256(input))
}
