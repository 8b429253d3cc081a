import { base58 } from '@scure/base'

const SIGNATURE_BYTES = 64
const KEY_BYTES = 32
/** The most instructions and lookup tables read from one transaction (a wire transaction is at most 1232 bytes anyway). */
const MAX_WIRE_BYTES = 1_232

export const SYSTEM_PROGRAM = '11111111111111111111111111111111'
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb'
export const ASSOCIATED_TOKEN_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'
export const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111'

/** A legacy or v0 wire transaction, read: where to sign, who signs, and what it does. */
export type SolanaWireTransaction = {
  version: 'legacy' | 0
  signaturesOffset: number
  messageOffset: number
  /** The required signers in slot order (the fee payer first). */
  signers: string[]
  /** The accounts named in the message; those from lookup tables are not known here (undefined). */
  instructions: { programId: string | undefined; accounts: (string | undefined)[]; data: Uint8Array }[]
}

/** A reader over the bytes that throws on any read past the end. */
function reader(bytes: Uint8Array) {
  let offset = 0
  const take = (length: number) => {
    if (offset + length > bytes.length) throw new Error('the transaction ends too early')
    const slice = bytes.subarray(offset, offset + length)
    offset += length
    return slice
  }
  return {
    take,
    byte: () => take(1)[0]!,
    /** Solana's compact-u16 (shortvec): 1 to 3 bytes, 7 bits each, lowest first, one encoding per value. */
    compactU16() {
      let value = 0
      for (let index = 0; index < 3; index++) {
        const byte = take(1)[0]!
        value |= (byte & 0x7f) << (7 * index)
        if ((byte & 0x80) === 0) {
          if (index > 0 && byte === 0) throw new Error('a non-canonical compact-u16')
          if (value > 0xffff) throw new Error('a compact-u16 above 0xffff')
          return value
        }
      }
      throw new Error('a compact-u16 longer than 3 bytes')
    },
    get offset() {
      return offset
    },
  }
}

/**
 * Reads a wire transaction (Solana's format):
 * 1. compact-u16 signature count, the 64-byte slots;
 * 2. the message: a version byte when the high bit is set (only v0 is known), the header (required signatures,
 *    read-only signed, read-only unsigned), the static account keys, the recent blockhash;
 * 3. the instructions (program index, account indexes, data), then for v0 the address lookup tables.
 * Throws on anything else, or on bytes left over.
 */
export function readSolanaTransaction(wire: Uint8Array): SolanaWireTransaction {
  if (wire.length > MAX_WIRE_BYTES) throw new Error(`a transaction of ${wire.length} bytes (at most ${MAX_WIRE_BYTES})`)
  const r = reader(wire)
  const slotCount = r.compactU16()
  const signaturesOffset = r.offset
  r.take(slotCount * SIGNATURE_BYTES)
  const messageOffset = r.offset
  let version: 'legacy' | 0 = 'legacy'
  const first = wire[messageOffset]
  if (first !== undefined && (first & 0x80) !== 0) {
    if ((first & 0x7f) !== 0) throw new Error(`transaction version ${first & 0x7f} is not known`)
    version = 0
    r.byte()
  }
  const required = r.byte()
  r.byte()
  r.byte()
  if (required !== slotCount) throw new Error(`${slotCount} signature slots for ${required} required signatures`)
  const keyCount = r.compactU16()
  if (keyCount < required || keyCount === 0) throw new Error('fewer account keys than signers')
  const keys = Array.from({ length: keyCount }, () => base58.encode(r.take(KEY_BYTES)))
  r.take(32)
  const instructionCount = r.compactU16()
  const raw = Array.from({ length: instructionCount }, () => {
    const programIndex = r.byte()
    const accountIndexes = Array.from(r.take(r.compactU16()))
    const data = r.take(r.compactU16())
    return { programIndex, accountIndexes, data }
  })
  if (version === 0) {
    const tables = r.compactU16()
    for (let index = 0; index < tables; index++) {
      r.take(KEY_BYTES)
      r.take(r.compactU16())
      r.take(r.compactU16())
    }
  }
  if (r.offset !== wire.length) throw new Error(`${wire.length - r.offset} bytes after the transaction`)
  return {
    version,
    signaturesOffset,
    messageOffset,
    signers: keys.slice(0, required),
    instructions: raw.map(({ programIndex, accountIndexes, data }) => ({ programId: keys[programIndex], accounts: accountIndexes.map((index) => keys[index]), data })),
  }
}

/** A copy of `wire` with `signature` in the slot of `signer`; throws when `signer` is not one of its signers. */
export function withSolanaSignature(wire: Uint8Array, signature: Uint8Array, signer: string): Uint8Array {
  const { signaturesOffset, signers } = readSolanaTransaction(wire)
  const slot = signers.indexOf(signer)
  if (slot < 0) throw new Error(`${signer} does not sign this transaction`)
  const signed = wire.slice()
  signed.set(signature, signaturesOffset + slot * SIGNATURE_BYTES)
  return signed
}

const u64 = (data: Uint8Array, offset: number) => new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true)
const u32 = (data: Uint8Array, offset: number) => new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(offset, true)

/** What one instruction does, when it is one of the common ones: a SOL transfer, a token transfer, a token account, fee settings. */
export type SolanaInstructionMeaning =
  | { kind: 'transfer'; from: string | undefined; to: string | undefined; lamports: bigint }
  | { kind: 'tokenTransfer'; to: string | undefined; mint: string | undefined; amount: bigint; decimals: number | undefined }
  | { kind: 'createTokenAccount'; owner: string | undefined }
  | { kind: 'feeSettings' }
  | { kind: 'program'; programId: string }

export function readSolanaInstruction({ programId, accounts, data }: SolanaWireTransaction['instructions'][number]): SolanaInstructionMeaning {
  if (programId === SYSTEM_PROGRAM && data.length === 12 && u32(data, 0) === 2) return { kind: 'transfer', from: accounts[0], to: accounts[1], lamports: u64(data, 4) }
  if (programId === TOKEN_PROGRAM || programId === TOKEN_2022_PROGRAM) {
    // Transfer (3): source, destination, owner. TransferChecked (12): source, mint, destination, owner.
    if (data[0] === 3 && data.length === 9) return { kind: 'tokenTransfer', to: accounts[1], mint: undefined, amount: u64(data, 1), decimals: undefined }
    if (data[0] === 12 && data.length === 10) return { kind: 'tokenTransfer', to: accounts[2], mint: accounts[1], amount: u64(data, 1), decimals: data[9] }
  }
  // Create / CreateIdempotent: payer, associated account, owner, mint, system program, token program.
  if (programId === ASSOCIATED_TOKEN_PROGRAM && (data.length === 0 || data[0] === 0 || data[0] === 1)) return { kind: 'createTokenAccount', owner: accounts[2] }
  if (programId === COMPUTE_BUDGET_PROGRAM) return { kind: 'feeSettings' }
  return { kind: 'program', programId: programId ?? 'unknown' }
}
