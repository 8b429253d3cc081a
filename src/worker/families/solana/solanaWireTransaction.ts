import { base58 } from '@scure/base'

const SIGNATURE_BYTES = 64
const PUBLIC_KEY_BYTES = 32
const VERSIONED_MESSAGE_BIT = 0x80

/** A wire transaction's parts that signing needs: where its signature slots and message are, and who signs which slot. */
export type WireTransactionLayout = {
  /** Offset of the first 64-byte signature slot. */
  signaturesOffset: number
  /** Offset of the message (what every signer signs). */
  messageOffset: number
  /** The required signers' base58 addresses, in slot order (the fee payer first). */
  signers: string[]
}

/** Solana's compact-u16 (shortvec): 1 to 3 bytes, 7 bits each, lowest first; `[value, length]`. */
function readCompactU16(bytes: Uint8Array, offset: number): [number, number] {
  let value = 0
  for (let index = 0; index < 3; index++) {
    const byte = bytes[offset + index]
    if (byte === undefined) throw new Error('truncated compact-u16')
    value |= (byte & 0x7f) << (7 * index)
    if ((byte & 0x80) === 0) {
      // One encoding per value: no trailing zero byte, nothing above 0xffff.
      if (index > 0 && byte === 0) throw new Error('non-canonical compact-u16')
      if (value > 0xffff) throw new Error('compact-u16 above 0xffff')
      return [value, index + 1]
    }
  }
  throw new Error('compact-u16 longer than 3 bytes')
}

/**
 * Reads a legacy or v0 wire transaction:
 * 1. compact-u16 number of signatures, then that many 64-byte slots;
 * 2. the message: a version byte when its high bit is set (v0), the 3-byte header (first: required signatures),
 *    compact-u16 number of static account keys, the 32-byte keys — the first `required` of them sign, in slot order.
 * Throws on bytes that are not one.
 */
export function readWireTransaction(wire: Uint8Array): WireTransactionLayout {
  const [slotCount, slotCountLength] = readCompactU16(wire, 0)
  const signaturesOffset = slotCountLength
  const messageOffset = signaturesOffset + slotCount * SIGNATURE_BYTES
  let offset = messageOffset
  if (offset >= wire.length) throw new Error('no message after the signatures')
  if ((wire[offset]! & VERSIONED_MESSAGE_BIT) !== 0) offset += 1
  const requiredSignatures = wire[offset]
  if (requiredSignatures === undefined || offset + 3 > wire.length) throw new Error('truncated message header')
  if (requiredSignatures !== slotCount) throw new Error(`${slotCount} signature slots for ${requiredSignatures} required signatures`)
  const [keyCount, keyCountLength] = readCompactU16(wire, offset + 3)
  const keysOffset = offset + 3 + keyCountLength
  if (keyCount < requiredSignatures || keysOffset + keyCount * PUBLIC_KEY_BYTES > wire.length) throw new Error('truncated account keys')
  const signers = Array.from({ length: requiredSignatures }, (_, index) => base58.encode(wire.subarray(keysOffset + index * PUBLIC_KEY_BYTES, keysOffset + (index + 1) * PUBLIC_KEY_BYTES)))
  return { signaturesOffset, messageOffset, signers }
}

/** A copy of `wire` with `signature` in the slot of `signer` (the fee payer's, the first slot, when not given). */
export function withSignature(wire: Uint8Array, signature: Uint8Array, signer?: string): Uint8Array {
  if (signature.length !== SIGNATURE_BYTES) throw new Error(`a signature of ${signature.length} bytes`)
  const { signaturesOffset, signers } = readWireTransaction(wire)
  const slot = signer === undefined ? 0 : signers.indexOf(signer)
  if (slot < 0 || slot >= signers.length) throw new Error(`${signer ?? 'the fee payer'} does not sign this transaction`)
  const signed = wire.slice()
  signed.set(signature, signaturesOffset + slot * SIGNATURE_BYTES)
  return signed
}
