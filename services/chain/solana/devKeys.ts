import { createHash } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'

export type SolanaDevKey = {
  /** base58 public key. */
  address: string
  /** The 32-byte ed25519 private key (seed), for `createKeyPairSignerFromPrivateKeyBytes`. */
  privateKey: Uint8Array
  /** 64 bytes: private key then public key (the Solana CLI keypair format, `createKeyPairSignerFromBytes`). */
  secretKey: Uint8Array
}

/**
 * Derives a fixed ed25519 key from a label: private key = sha256(label). Public, test-only keys.
 * @example deriveSolanaDevKey('tessera-dev-solana-0').address
 */
export function deriveSolanaDevKey(label: string): SolanaDevKey {
  const privateKey = new Uint8Array(createHash('sha256').update(label).digest())
  const publicKey = ed25519.getPublicKey(privateKey)
  const secretKey = new Uint8Array(64)
  secretKey.set(privateKey, 0)
  secretKey.set(publicKey, 32)
  return { address: base58.encode(publicKey), privateKey, secretKey }
}

export const SOLANA_DEV_ACCOUNT_COUNT = 10

/** The dev accounts every local Solana chain funds: keys from 'tessera-dev-solana-0' … '-9'. */
export function solanaDevKeys(count = SOLANA_DEV_ACCOUNT_COUNT): SolanaDevKey[] {
  return Array.from({ length: count }, (_, index) => deriveSolanaDevKey(`tessera-dev-solana-${index}`))
}

/** The key of the demo SPL mint, so its address is the same on every run. */
export const solanaDevMintKey = (): SolanaDevKey => deriveSolanaDevKey('tessera-dev-solana-mint-tusd')

/** The key that pays requestAirdrop transfers. */
export const solanaFaucetKey = (): SolanaDevKey => deriveSolanaDevKey('tessera-dev-solana-faucet')
