import * as z from 'zod/mini'
import { scryptAsync } from '@noble/hashes/scrypt.js'
import { bytesToHex, hexToBytes as viemHexToBytes, type Hex } from 'viem'
import { createWidgetError } from '../../shared/protocol/errors'
import { parseOrThrow } from '../../shared/protocol/schemas/parse'

/** The shortest recovery password accepted (it guards a share the auth service keeps, so it can be attacked offline). */
export const RECOVERY_PASSWORD_MIN_LENGTH = 10

/** scrypt cost: N = 2^17, r = 8, p = 1 (OWASP's minimum for scrypt): 128 MiB and about a second in a browser. */
export const defaultScryptParams = { N: 2 ** 17, r: 8, p: 1 } as const
export type ScryptParams = { N: number; r: number; p: number }

// A stored envelope may come back from the server: its costs are bounded so it cannot make the frame spin or eat memory.
const MAX_LOG_N = 20
const hex = (bytes: number) => z.string().check(z.regex(new RegExp(`^0x[0-9a-f]{${bytes * 2}}$`), `Expected ${bytes} bytes of hex`))

/** The recovery share encrypted with the person's password, as the auth service keeps it. */
export const encryptedRecoveryShareSchema = z.object({
  v: z.literal(1),
  kdf: z.literal('scrypt'),
  N: z.number().check(z.refine((n) => Number.isInteger(Math.log2(n)) && n >= 2 && n <= 2 ** MAX_LOG_N, 'Expected a power of two up to 2^20')),
  r: z.number().check(z.int(), z.minimum(1), z.maximum(32)),
  p: z.number().check(z.int(), z.minimum(1), z.maximum(4)),
  salt: hex(16),
  iv: hex(12),
  ciphertext: z.string().check(z.regex(/^0x([0-9a-f]{2}){17,512}$/, 'Expected the encrypted share in hex')),
})
export type EncryptedRecoveryShare = z.infer<typeof encryptedRecoveryShareSchema>

// WebCrypto takes buffers backed by an ArrayBuffer: a copy is one.
const hexToBytes = (value: string) => new Uint8Array(viemHexToBytes(value as Hex))

/** An AES-GCM key from the password by scrypt, non-extractable, for this one envelope. */
async function passwordKey(password: string, salt: Uint8Array, { N, r, p }: ScryptParams, usage: KeyUsage) {
  const derived = await scryptAsync(new TextEncoder().encode(password.normalize('NFKC')), salt, { N, r, p, dkLen: 32 })
  // WebCrypto takes buffers backed by an ArrayBuffer: a copy is one.
  const bytes = new Uint8Array(derived)
  derived.fill(0)
  try {
    return await crypto.subtle.importKey('raw', bytes, 'AES-GCM', false, [usage])
  } finally {
    bytes.fill(0)
  }
}

/**
 * Encrypts the recovery share with the person's password: scrypt (a fresh 16-byte salt) gives an AES-256-GCM key, the
 * wallet's commitment is the additional data, so an envelope cannot be passed off as another wallet's.
 * @example const envelope = await encryptRecoveryShare(shares.recovery, password, { commitment })
 */
export async function encryptRecoveryShare(
  share: Uint8Array,
  password: string,
  { commitment, params = defaultScryptParams }: { commitment: Hex; params?: ScryptParams },
): Promise<EncryptedRecoveryShare> {
  if (password.length < RECOVERY_PASSWORD_MIN_LENGTH) throw createWidgetError('RECOVERY_PASSWORD_TOO_SHORT', { params: { n: RECOVERY_PASSWORD_MIN_LENGTH } })
  const salt = crypto.getRandomValues(new Uint8Array(16))
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const key = await passwordKey(password, salt, params, 'encrypt')
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: hexToBytes(commitment) }, key, new Uint8Array(share)))
  return { v: 1, kdf: 'scrypt', ...params, salt: bytesToHex(salt), iv: bytesToHex(iv), ciphertext: bytesToHex(ciphertext) }
}

/**
 * Decrypts the recovery share. A wrong password (or an envelope of another wallet, or one altered) fails AES-GCM's
 * check: RECOVERY_PASSWORD_WRONG. An envelope that is not one: INVALID_MESSAGE.
 */
export async function decryptRecoveryShare(envelope: unknown, password: string, { commitment }: { commitment: Hex }): Promise<Uint8Array> {
  const { N, r, p, salt, iv, ciphertext } = parseOrThrow(encryptedRecoveryShareSchema, envelope, 'encrypted recovery share')
  const key = await passwordKey(password, hexToBytes(salt), { N, r, p }, 'decrypt')
  try {
    return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: hexToBytes(iv), additionalData: hexToBytes(commitment) }, key, hexToBytes(ciphertext)))
  } catch (error) {
    throw createWidgetError('RECOVERY_PASSWORD_WRONG', { cause: error })
  }
}
