import { base58 } from '@scure/base'

const shape = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

/** A Solana address: base58, 32 to 44 characters (SPEC §5), decoding to a 32-byte public key. */
export function isSolanaAddress(value: string): boolean {
  if (!shape.test(value)) return false
  try {
    return base58.decode(value).length === 32
  } catch {
    return false
  }
}
