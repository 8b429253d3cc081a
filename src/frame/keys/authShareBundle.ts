import * as z from 'zod/mini'
import { base64urlnopad } from '@scure/base'
import { bytesToHex, hexToBytes, type Hex } from 'viem'
import { parseOrThrow } from '../../shared/protocol/schemas/parse'
import type { AuthShareBundle } from './createKeyVault'
import { encryptedRecoveryShareSchema } from './recoveryShare'

const hexBytes = (min: number, max: number) => z.string().check(z.regex(new RegExp(`^0x([0-9a-f]{2}){${min},${max}}$`), 'Expected hex bytes'))

/** The auth service keeps one opaque base64url blob per account; inside, this versioned JSON. */
const storedBundleSchema = z.object({
  v: z.literal(1),
  share: hexBytes(17, 64),
  commitment: hexBytes(32, 32),
  publicKeys: z.object({
    eip155: z.object({ address: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/)), publicKey: hexBytes(33, 65) }),
    solana: z.object({ address: z.string().check(z.regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)), publicKey: hexBytes(32, 32) }),
  }),
  recovery: encryptedRecoveryShareSchema,
})

/** The bundle as the blob the auth service stores (PUT /v1/auth-share). */
export function encodeAuthShareBundle({ share, commitment, publicKeys, recovery }: AuthShareBundle): string {
  return base64urlnopad.encode(new TextEncoder().encode(JSON.stringify({ v: 1, share: bytesToHex(share), commitment, publicKeys, recovery })))
}

/** The blob back as a bundle, checked field by field (it comes from a server): INVALID_MESSAGE when it is not one. */
export function decodeAuthShareBundle(blob: string): AuthShareBundle {
  let json: unknown
  try {
    json = JSON.parse(new TextDecoder().decode(base64urlnopad.decode(blob)))
  } catch {
    json = undefined
  }
  const stored = parseOrThrow(storedBundleSchema, json, 'auth share')
  return { share: hexToBytes(stored.share as Hex), commitment: stored.commitment as Hex, publicKeys: stored.publicKeys as AuthShareBundle['publicKeys'], recovery: stored.recovery }
}
