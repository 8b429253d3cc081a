import { base58 } from '@scure/base'
import { getCompiledTransactionMessageDecoder, getTransactionDecoder } from '@solana/kit'
import { invalidParams } from './jsonRpc'

export const SYSTEM_PROGRAM = '11111111111111111111111111111111'
export const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111'
const LAMPORTS_PER_SIGNATURE = 5_000n

export type MessageHeader = { numSignerAccounts: number; numReadonlySignerAccounts: number; numReadonlyNonSignerAccounts: number }
export type DecodedInstruction = { programAddressIndex: number; accountIndices: number[]; data: Uint8Array }
export type AddressTableLookup = { lookupTableAddress: string; writableIndexes: number[]; readonlyIndexes: number[] }

export type DecodedMessage = {
  version: 'legacy' | 0
  header: MessageHeader
  staticAccounts: string[]
  recentBlockhash: string
  instructions: DecodedInstruction[]
  addressTableLookups: AddressTableLookup[]
}

export type DecodedTransaction = DecodedMessage & {
  /** base58 of each signature slot (all-ones base58 "1111…" for an empty slot). */
  signatures: string[]
  messageBytes: Uint8Array
}

const emptySignature = new Uint8Array(64)

/** Decodes a compiled message (legacy or v0); throws -32602 naming `what` when it is not one. */
export function decodeMessage(messageBytes: Uint8Array, what: string): DecodedMessage {
  let compiled: ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>['decode']>
  try {
    compiled = getCompiledTransactionMessageDecoder().decode(messageBytes)
  } catch (error) {
    throw invalidParams(`${what} could not be decoded as a Solana message: ${(error as Error).message}`)
  }
  if (compiled.version !== 'legacy' && compiled.version !== 0) {
    throw invalidParams(`${what} uses transaction version ${String(compiled.version)}; this chain supports legacy and 0`)
  }
  return {
    version: compiled.version,
    header: compiled.header,
    staticAccounts: [...compiled.staticAccounts],
    recentBlockhash: compiled.lifetimeToken,
    instructions: compiled.instructions.map((instruction) => ({
      programAddressIndex: instruction.programAddressIndex,
      accountIndices: [...(instruction.accountIndices ?? [])],
      data: new Uint8Array(instruction.data ?? []),
    })),
    addressTableLookups:
      compiled.version === 0
        ? (compiled.addressTableLookups ?? []).map((lookup) => ({
            lookupTableAddress: lookup.lookupTableAddress,
            writableIndexes: [...lookup.writableIndexes],
            readonlyIndexes: [...lookup.readonlyIndexes],
          }))
        : [],
  }
}

/** Decodes a wire transaction; throws -32602 naming `what` when it is not one. */
export function decodeTransaction(wire: Uint8Array, what: string): DecodedTransaction {
  let transaction: ReturnType<ReturnType<typeof getTransactionDecoder>['decode']>
  try {
    transaction = getTransactionDecoder().decode(wire)
  } catch (error) {
    throw invalidParams(`${what} could not be decoded as a Solana transaction: ${(error as Error).message}`)
  }
  const message = decodeMessage(new Uint8Array(transaction.messageBytes), what)
  const signatures = Object.values(transaction.signatures).map((bytes) => base58.encode(bytes ?? emptySignature))
  if (signatures.length === 0) throw invalidParams(`${what} has no signatures`)
  return { ...message, signatures, messageBytes: new Uint8Array(transaction.messageBytes) }
}

/** Whether static account `index` is writable, from the message header. */
export function isStaticAccountWritable(message: DecodedMessage, index: number): boolean {
  const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = message.header
  if (index < numSignerAccounts) return index < numSignerAccounts - numReadonlySignerAccounts
  return index < message.staticAccounts.length - numReadonlyNonSignerAccounts
}

/** Whether the first instruction advances a durable nonce (such transactions carry a nonce, not a blockhash). */
export function isDurableNonceTransaction(message: DecodedMessage): boolean {
  const first = message.instructions[0]
  if (!first || message.staticAccounts[first.programAddressIndex] !== SYSTEM_PROGRAM) return false
  const data = first.data
  return data.length >= 4 && new DataView(data.buffer, data.byteOffset, 4).getUint32(0, true) === 4
}

// Precompiles whose instruction data begins with a signature count, each charged like a transaction signature.
const signatureCountingPrograms = new Set([
  'Ed25519SigVerify111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
  'Secp256r1SigVerify1111111111111111111111111',
])

// Programs whose instructions default to 3,000 compute units (SIMD-170); all others get 200,000.
const builtinPrograms = new Set([
  SYSTEM_PROGRAM,
  COMPUTE_BUDGET_PROGRAM,
  'Vote111111111111111111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  'ZkE1Gama1Proof11111111111111111111111111111',
  ...signatureCountingPrograms,
])

/**
 * The fee LiteSVM charges for a message, as the validator computes it:
 * 1. 5,000 lamports per signature, counting precompile signatures;
 * 2. plus ceil(compute unit price (micro-lamports) × compute unit limit / 1,000,000), where the limit
 *    is SetComputeUnitLimit's, else 3,000 per builtin and 200,000 per other instruction (max 1.4M).
 * Only statically addressed programs are counted (lookup tables cannot hold program ids).
 */
export function computeFee(message: DecodedMessage): bigint {
  let signatures = BigInt(message.header.numSignerAccounts)
  let unitPrice = 0n
  let unitLimit: bigint | undefined
  let defaultLimit = 0n
  for (const instruction of message.instructions) {
    const program = message.staticAccounts[instruction.programAddressIndex] ?? ''
    const data = instruction.data
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
    if (signatureCountingPrograms.has(program) && data.length > 0) signatures += BigInt(data[0] ?? 0)
    if (program === COMPUTE_BUDGET_PROGRAM) {
      if (data[0] === 2 && data.length >= 5) unitLimit = BigInt(view.getUint32(1, true))
      if (data[0] === 3 && data.length >= 9) unitPrice = view.getBigUint64(1, true)
    }
    defaultLimit += builtinPrograms.has(program) ? 3_000n : 200_000n
  }
  const limit = unitLimit ?? defaultLimit
  const cappedLimit = limit > 1_400_000n ? 1_400_000n : limit
  const priorityFee = (unitPrice * cappedLimit + 999_999n) / 1_000_000n
  return signatures * LAMPORTS_PER_SIGNATURE + priorityFee
}
