import type { Hex } from 'viem'
import { createWidgetError, isWidgetError } from '../../shared/protocol/errors'
import type { DeviceShareStore } from './deviceShareStore'
import { decryptRecoveryShare, defaultScryptParams, encryptRecoveryShare, type EncryptedRecoveryShare, type ScryptParams } from './recoveryShare'
import { createRootSecret, deriveWalletKeys, toPublicKeys, walletCommitment, type WalletKeys, type WalletPublicKeys } from './walletKeys'
import { recombineWallet, splitRootSecret } from './walletShares'

/** What the auth service keeps for an account: its share, the commitment, the public keys and the encrypted recovery share. */
export type AuthShareBundle = {
  share: Uint8Array
  commitment: Hex
  publicKeys: WalletPublicKeys
  recovery: EncryptedRecoveryShare
}

/** The logged-in account's share at the auth service (released only to its session). */
export type AuthShareBackend = {
  /** The account's bundle, or undefined when it has no wallet yet. */
  get(): Promise<AuthShareBundle | undefined>
  /** Stores the bundle of a new wallet (once per account). */
  put(bundle: AuthShareBundle): Promise<void>
}

/**
 * Asks the person for their recovery password inside the frame: 'create' to choose one for a new wallet, 'recover' to
 * open the wallet on a device that has no share. `submit` runs with each password typed: on RECOVERY_PASSWORD_WRONG or
 * RECOVERY_PASSWORD_TOO_SHORT the sentence is shown and the prompt stays; any other error closes it and rejects with that
 * error. The prompt settles with submit's result, or rejects with USER_REJECTED when dismissed.
 */
export type PasswordPrompt = <T>(request: { mode: 'create' | 'recover'; submit: (password: string) => Promise<T> }) => Promise<T>

export type KeyVault = {
  /**
   * Opens the wallet of the logged-in account `userId`: with this device's share and the auth share; on a device
   * without one, with the recovery password; for an account without a wallet, makes one. Resolves to its public keys.
   */
  unlock(userId: string, authShares: AuthShareBackend): Promise<WalletPublicKeys>
  /** The open wallet's keys, for signing inside the frame only. Throws AUTH_SESSION_EXPIRED when locked. */
  keys(): WalletKeys
  publicKeys(): WalletPublicKeys | undefined
  /** Forgets the keys (sign-out); this device's share stays for the next login. */
  lock(): void
}

export type CreateKeyVaultParameters = {
  deviceShares: DeviceShareStore
  askPassword: PasswordPrompt
  scryptParams?: ScryptParams
  createSecret?: () => Uint8Array
}

/**
 * The frame's embedded wallet: a root secret made here, split 2-of-3 (device, auth, recovery), rebuilt here only from
 * two shares and checked against the commitment. Keys live in this closure; nothing here is ever posted.
 * @example const vault = createKeyVault({ deviceShares, askPassword }); await vault.unlock(user.id, authShares)
 */
export function createKeyVault({ deviceShares, askPassword, scryptParams = defaultScryptParams, createSecret = () => createRootSecret() }: CreateKeyVaultParameters): KeyVault {
  let open: { userId: string; keys: WalletKeys } | undefined
  let unlocking: { userId: string; promise: Promise<WalletPublicKeys> } | undefined

  // Bumped by lock(): an unlock that finishes after a sign-out keeps nothing.
  let generation = 0

  /** 1. a new secret; 2. its shares; 3. the password chosen and the recovery share encrypted; 4. the auth share stored; 5. the device share stored. */
  async function create(userId: string, authShares: AuthShareBackend) {
    const secret = createSecret()
    const keys = deriveWalletKeys(secret)
    const shares = await splitRootSecret(secret)
    secret.fill(0)
    const commitment = walletCommitment(keys)
    const publicKeys = toPublicKeys(keys)
    const recovery = await askPassword({ mode: 'create', submit: (password) => encryptRecoveryShare(shares.recovery, password, { commitment, params: scryptParams }) })
    await authShares.put({ share: shares.auth, commitment, publicKeys, recovery })
    await deviceShares.save(userId, { share: shares.device, commitment, publicKeys })
    return keys
  }

  /** A device without its share: the recovery share, decrypted with the password, joins the auth share and then stays here as this device's. */
  async function recover(userId: string, bundle: AuthShareBundle) {
    const keys = await askPassword({
      mode: 'recover',
      submit: async (password) => {
        const recoveryShare = await decryptRecoveryShare(bundle.recovery, password, { commitment: bundle.commitment })
        const rebuilt = await recombineWallet([recoveryShare, bundle.share], bundle.commitment)
        await deviceShares.save(userId, { share: recoveryShare, commitment: bundle.commitment, publicKeys: toPublicKeys(rebuilt) })
        return rebuilt
      },
    })
    return keys
  }

  async function unlockOnce(userId: string, authShares: AuthShareBackend) {
    const bundle = await authShares.get()
    if (!bundle) return create(userId, authShares)
    const device = await deviceShares.load(userId)
    if (device && device.commitment === bundle.commitment) {
      try {
        return await recombineWallet([device.share, bundle.share], bundle.commitment)
      } catch (error) {
        // A damaged device share: the recovery password still opens the wallet (and replaces it).
        if (!isWidgetError(error) || error.code !== 'KEY_COMMITMENT_MISMATCH') throw error
      }
    }
    return recover(userId, bundle)
  }

  const forget = () => {
    open?.keys.solana.secretKey.fill(0)
    open = undefined
  }
  const lock = () => {
    generation += 1
    forget()
  }

  return {
    unlock(userId, authShares) {
      if (open?.userId === userId) return Promise.resolve(toPublicKeys(open.keys))
      // One unlock at a time: a second call for the same login waits for the first (one password prompt, not two).
      if (unlocking?.userId === userId) return unlocking.promise
      const started = generation
      const previous = unlocking?.promise.catch(() => undefined)
      const promise = Promise.resolve(previous)
        .then(async () => {
          if (open?.userId === userId) return toPublicKeys(open.keys)
          forget()
          const keys = await unlockOnce(userId, authShares)
          if (started !== generation) {
            keys.solana.secretKey.fill(0)
            throw createWidgetError('AUTH_SESSION_EXPIRED', { details: 'signed out while the wallet was opening' })
          }
          open = { userId, keys }
          return toPublicKeys(keys)
        })
        .finally(() => {
          if (unlocking?.promise === promise) unlocking = undefined
        })
      unlocking = { userId, promise }
      return promise
    },
    keys() {
      if (!open) throw createWidgetError('AUTH_SESSION_EXPIRED', { details: 'the wallet is locked: log in first' })
      return open.keys
    },
    publicKeys: () => (open ? toPublicKeys(open.keys) : undefined),
    lock,
  }
}
