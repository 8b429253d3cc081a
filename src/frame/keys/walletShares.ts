import { combine, split } from 'shamir-secret-sharing'
import { createWidgetError } from '../../shared/protocol/errors'
import { deriveWalletKeys, walletCommitment, type WalletKeys } from './walletKeys'
import type { Hex } from 'viem'

/** The three shares of a root secret; any two rebuild it. */
export type WalletShares = {
  /** Kept in this browser's IndexedDB, wrapped by a non-extractable AES-GCM key. */
  device: Uint8Array
  /** Kept by the auth service, released only to a logged-in session. */
  auth: Uint8Array
  /** Kept encrypted with the person's recovery password (scrypt + AES-GCM). */
  recovery: Uint8Array
}

/**
 * Splits a root secret 2-of-3 (Shamir over GF(256), `shamir-secret-sharing`).
 * @example const { device, auth, recovery } = await splitRootSecret(secret)
 */
export async function splitRootSecret(rootSecret: Uint8Array): Promise<WalletShares> {
  const [device, auth, recovery] = await split(rootSecret, 3, 2)
  return { device: device!, auth: auth!, recovery: recovery! }
}

/**
 * Rebuilds the wallet from two shares and checks it against the stored commitment: shares of another wallet, a
 * corrupted share or two copies of one share give a secret whose keys do not match, and nothing is returned.
 * Throws KEY_COMMITMENT_MISMATCH then.
 */
export async function recombineWallet(shares: [Uint8Array, Uint8Array], commitment: Hex): Promise<WalletKeys> {
  let keys: WalletKeys
  try {
    keys = deriveWalletKeys(await combine(shares))
  } catch (error) {
    throw createWidgetError('KEY_COMMITMENT_MISMATCH', { details: `the shares do not combine: ${(error as Error).message}`, cause: error })
  }
  if (walletCommitment(keys) !== commitment.toLowerCase()) throw createWidgetError('KEY_COMMITMENT_MISMATCH', { details: 'the rebuilt keys differ from the stored commitment' })
  return keys
}
