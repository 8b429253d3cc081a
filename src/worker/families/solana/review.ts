import {
  getBase58Decoder,
  getBase64Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getTransactionDecoder,
  getTransactionEncoder,
  type CompiledTransactionMessage,
} from '@solana/kit'
import { isSolanaAddress } from '../../../shared/families/solana/address'
import type { CaipNetworkId } from '../../../shared/protocol/caip'
import { createWidgetError, WidgetError } from '../../../shared/protocol/errors'
import type { SolanaAccountMeta, SolanaBalanceChange, SolanaDecodedInstruction, SolanaReviewWarning, SolanaTransactionReview } from '../../../shared/protocol/review'
import { decodeInstruction } from './decodeInstruction'

/** A JSON-RPC read on the cluster's endpoints, with the client's retries (SolanaClient.read). */
export type SolanaRpcRead = (method: string, params: readonly unknown[]) => Promise<unknown>

export type ReviewSolanaTransactionParameters = {
  read: SolanaRpcRead
  caipNetworkId: CaipNetworkId
  /** The wire transaction as solana:signTransaction receives it: bytes, or base64. */
  transaction: Uint8Array | string
  /** The wallet's account: its SOL and token balance changes are shown even when it does not sign. */
  account?: string
  commitment?: 'processed' | 'confirmed' | 'finalized'
}

/** v1 transactions may be up to 4,096 bytes; legacy and v0 ones 1,232 (a packet). */
const MAX_TRANSACTION_BYTES = 4_096
/** simulateTransaction's `accounts.addresses` limit on the local chain (agave allows more). */
const MAX_SIMULATED_ACCOUNTS = 64
const SYSTEM_PROGRAM = '11111111111111111111111111111111'
const LOOKUP_TABLE_PROGRAM = 'AddressLookupTab1e1111111111111111111111111'
/** An address lookup table's header before its addresses (LOOKUP_TABLE_META_SIZE). */
const LOOKUP_TABLE_HEADER_BYTES = 56

const invalidTransaction = (details: string, cause?: unknown) => createWidgetError('INVALID_PARAMS', { field: 'transaction', details, cause })
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const toJson = (value: unknown) => (JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? String(value)).slice(0, 500)
const errorCodeOf = (error: unknown) => (error instanceof WidgetError ? error.code : 'UNKNOWN')

/** The wire bytes of a request: a Uint8Array, or a base64 string; INVALID_PARAMS for anything else. */
function readWireBytes(transaction: unknown): Uint8Array {
  if (typeof transaction === 'string') {
    if (transaction.length === 0 || transaction.length > Math.ceil(MAX_TRANSACTION_BYTES / 3) * 4 || !/^[A-Za-z0-9+/]+={0,2}$/.test(transaction) || transaction.length % 4 === 1) {
      throw invalidTransaction(`A transaction in base64 of at most ${MAX_TRANSACTION_BYTES} bytes was expected`)
    }
    return new Uint8Array(getBase64Encoder().encode(transaction))
  }
  if (!(transaction instanceof Uint8Array) || transaction.length === 0) throw invalidTransaction('The transaction must be a non-empty Uint8Array or a base64 string')
  if (transaction.length > MAX_TRANSACTION_BYTES) throw invalidTransaction(`The transaction is ${transaction.length} bytes: at most ${MAX_TRANSACTION_BYTES}`)
  return transaction
}

type CompiledInstruction = { programAddressIndex: number; accountIndices: readonly number[]; data: Uint8Array }

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, index) => byte === b[index])

/**
 * The wire transaction's parts: its signature slots, its message's bytes and compiled form (legacy, v0 or v1) with the
 * instructions in one shape. The decoders read short input leniently (an instruction's data cut short is read as
 * shorter data), so both parts are encoded again and must give the very bytes received: what is reviewed is what
 * would be signed. Anything else is INVALID_PARAMS, never a library's error.
 */
function decodeWire(wire: Uint8Array) {
  let signatures: Record<string, unknown>
  let messageBytes: Uint8Array
  let compiled: CompiledTransactionMessage & { lifetimeToken: string }
  try {
    const [transaction, end] = getTransactionDecoder().read(wire, 0)
    if (end !== wire.length) throw invalidTransaction(`${wire.length - end} bytes follow the transaction`)
    signatures = transaction.signatures
    messageBytes = new Uint8Array(transaction.messageBytes)
    const [message, messageEnd] = getCompiledTransactionMessageDecoder().read(messageBytes, 0)
    if (messageEnd !== messageBytes.length) throw invalidTransaction(`${messageBytes.length - messageEnd} bytes follow the message`)
    compiled = message
    if (!sameBytes(new Uint8Array(getCompiledTransactionMessageEncoder().encode(message)), messageBytes) || !sameBytes(new Uint8Array(getTransactionEncoder().encode(transaction)), wire)) {
      throw invalidTransaction('Not a Solana wire transaction: it is cut short, or not in the canonical encoding')
    }
  } catch (error) {
    if (error instanceof WidgetError) throw error
    // Kit's errors carry a numeric code; their text depends on the build (and reads process.env): not shown.
    const code = isObject(error) && isObject(error.context) ? error.context.__code : undefined
    throw invalidTransaction(`Not a Solana wire transaction: its bytes end early or do not fit the format${code === undefined ? '' : ` (decoder error ${String(code)})`}`, error)
  }
  const instructions: CompiledInstruction[] =
    compiled.version === 1
      ? compiled.instructionHeaders.map((header, index) => ({
          programAddressIndex: header.programAccountIndex,
          accountIndices: compiled.version === 1 ? compiled.instructionPayloads[index]!.instructionAccountIndices : [],
          data: new Uint8Array(compiled.version === 1 ? compiled.instructionPayloads[index]!.instructionData : []),
        }))
      : compiled.instructions.map(({ programAddressIndex, accountIndices = [], data = new Uint8Array() }) => ({ programAddressIndex, accountIndices, data: new Uint8Array(data) }))
  const lookups = compiled.version === 0 ? (compiled.addressTableLookups ?? []) : []
  const { numSignerAccounts } = compiled.header
  if (numSignerAccounts === 0 || compiled.staticAccounts.length < numSignerAccounts) throw invalidTransaction('The message names no fee payer')
  const slots = Object.keys(signatures)
  if (slots.length !== numSignerAccounts) throw invalidTransaction(`${slots.length} distinct signers for ${numSignerAccounts} required signatures`)
  return { signatures, messageBytes, compiled, instructions, lookups }
}

/** A lookup table's addresses from its account (base64), or undefined when it is not one. */
function readLookupTable(account: unknown): string[] | undefined {
  const data = isObject(account) ? account.data : undefined
  if (!isObject(account) || account.owner !== LOOKUP_TABLE_PROGRAM || !Array.isArray(data) || typeof data[0] !== 'string' || data[1] !== 'base64') return undefined
  const bytes = new Uint8Array(getBase64Encoder().encode(data[0]))
  if (bytes.length < LOOKUP_TABLE_HEADER_BYTES || (bytes.length - LOOKUP_TABLE_HEADER_BYTES) % 32 !== 0) return undefined
  const decoder = getBase58Decoder()
  return Array.from({ length: (bytes.length - LOOKUP_TABLE_HEADER_BYTES) / 32 }, (_, index) =>
    decoder.decode(bytes.subarray(LOOKUP_TABLE_HEADER_BYTES + index * 32, LOOKUP_TABLE_HEADER_BYTES + (index + 1) * 32)),
  )
}

/**
 * Every account of the message in index order, with its role: the static keys (signers first, writable before
 * read-only in each group), then from the lookup tables all writable ones, then all read-only ones.
 */
async function resolveAccounts(read: SolanaRpcRead, { compiled, lookups }: ReturnType<typeof decodeWire>, commitment: string) {
  const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = compiled.header
  const staticCount = compiled.staticAccounts.length
  const accounts: SolanaAccountMeta[] = compiled.staticAccounts.map((address, index) => {
    const isSigner = index < numSignerAccounts
    return { address, isSigner, isWritable: isSigner ? index < numSignerAccounts - numReadonlySignerAccounts : index < staticCount - numReadonlyNonSignerAccounts }
  })
  const unresolved: string[] = []
  if (lookups.length > 0) {
    let tables: (string[] | undefined)[] = []
    try {
      const answer = await read('getMultipleAccounts', [lookups.map(({ lookupTableAddress }) => lookupTableAddress), { encoding: 'base64', commitment }])
      const value = isObject(answer) ? answer.value : undefined
      if (Array.isArray(value)) tables = value.map(readLookupTable)
    } catch {
      tables = []
    }
    const fromTables = (isWritable: boolean) =>
      lookups.flatMap(({ lookupTableAddress, writableIndexes, readonlyIndexes }, table) =>
        (isWritable ? writableIndexes : readonlyIndexes).map((index): SolanaAccountMeta => {
          const address = tables[table]?.[index]
          if (address === undefined && !unresolved.includes(lookupTableAddress)) unresolved.push(lookupTableAddress)
          return { ...(address !== undefined && { address }), isSigner: false, isWritable, lookupTable: lookupTableAddress }
        }),
      )
    accounts.push(...fromTables(true), ...fromTables(false))
  }
  return { accounts, unresolved }
}

type ParsedAccount = { lamports: bigint; tokenProgram?: string; token?: { mint: string; owner: string; amount: bigint; decimals: number } }

const toBigInt = (value: unknown): bigint | undefined =>
  typeof value === 'bigint' ? value : typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : typeof value === 'string' && /^\d+$/.test(value) ? BigInt(value) : undefined

/** An account as `jsonParsed` gives it: lamports, and a token account's mint, owner and amount; null when it does not exist. */
function readParsedAccount(value: unknown): ParsedAccount | null {
  if (value === null) return null
  const lamports = isObject(value) ? toBigInt(value.lamports) : undefined
  if (!isObject(value) || lamports === undefined) throw createWidgetError('RPC_REQUEST_FAILED', { details: `The node answered with ${toJson(value)}, not an account` })
  const parsed = isObject(value.data) && isObject(value.data.parsed) ? value.data.parsed : undefined
  const info = parsed?.type === 'account' && isObject(parsed.info) ? parsed.info : undefined
  const tokenAmount = info && isObject(info.tokenAmount) ? info.tokenAmount : undefined
  const amount = toBigInt(tokenAmount?.amount)
  if (info && typeof info.mint === 'string' && typeof info.owner === 'string' && amount !== undefined && typeof tokenAmount?.decimals === 'number') {
    return { lamports, tokenProgram: String(value.owner), token: { mint: info.mint, owner: info.owner, amount, decimals: tokenAmount.decimals } }
  }
  return { lamports }
}

function readParsedAccounts(value: unknown, count: number): (ParsedAccount | null)[] {
  if (!Array.isArray(value) || value.length !== count) throw createWidgetError('RPC_REQUEST_FAILED', { details: `The node answered with ${toJson(value)}, not ${count} accounts` })
  return value.map(readParsedAccount)
}

/** The owners' SOL and token changes from the accounts before and after; unchanged ones left out. */
function balanceChangesOf(addresses: readonly string[], owners: ReadonlySet<string>, before: readonly (ParsedAccount | null)[], after: readonly (ParsedAccount | null)[]): SolanaBalanceChange[] {
  return addresses.flatMap((address, index): SolanaBalanceChange[] => {
    const [pre, post] = [before[index] ?? null, after[index] ?? null]
    const changes: SolanaBalanceChange[] = []
    if (owners.has(address)) {
      const [lamportsBefore, lamportsAfter] = [pre?.lamports ?? 0n, post?.lamports ?? 0n]
      changes.push({ asset: { kind: 'native' }, address, before: lamportsBefore, after: lamportsAfter, amount: lamportsAfter - lamportsBefore })
    }
    const token = pre?.token ?? post?.token
    const tokenProgram = pre?.tokenProgram ?? post?.tokenProgram
    if (token && tokenProgram && owners.has(token.owner)) {
      const [amountBefore, amountAfter] = [pre?.token?.amount ?? 0n, post?.token?.amount ?? 0n]
      changes.push({
        asset: { kind: 'token', mint: token.mint, decimals: token.decimals, tokenProgram },
        address: token.owner,
        tokenAccount: address,
        before: amountBefore,
        after: amountAfter,
        amount: amountAfter - amountBefore,
      })
    }
    return changes.filter((change) => change.amount !== 0n)
  })
}

/** The instruction a simulation's `err` names (`{ InstructionError: [index, …] }`), if it names one. */
const failedInstruction = (err: unknown): number | undefined => {
  const detail = isObject(err) ? err.InstructionError : undefined
  return Array.isArray(detail) && typeof detail[0] === 'number' ? detail[0] : undefined
}

type Simulation =
  | { status: 'simulated'; balanceChanges: SolanaBalanceChange[]; unitsConsumed?: bigint }
  | { status: 'failed'; err: unknown; unitsConsumed?: bigint }
  | { status: 'notSimulated'; why: 'unsupported' | 'failed'; errorCode: WidgetError['code'] }

/**
 * Runs the transaction on the node (simulateTransaction, signatures not checked, the blockhash replaced unless it is
 * a durable nonce's) and reads the same accounts before (getMultipleAccounts), both `jsonParsed`: the owners' SOL and
 * token balance changes. A node without simulateTransaction gives 'notSimulated'.
 */
async function simulate({ read, wire, addresses, owners, usesDurableNonce, commitment }: {
  read: SolanaRpcRead
  wire: Uint8Array
  addresses: readonly string[]
  owners: ReadonlySet<string>
  usesDurableNonce: boolean
  commitment: string
}): Promise<Simulation> {
  try {
    const [before, simulation] = await Promise.all([
      read('getMultipleAccounts', [addresses, { encoding: 'jsonParsed', commitment }]),
      read('simulateTransaction', [
        getBase64Decoder().decode(wire),
        { encoding: 'base64', commitment, sigVerify: false, replaceRecentBlockhash: !usesDurableNonce, accounts: { addresses, encoding: 'jsonParsed' } },
      ]),
    ])
    const value = isObject(simulation) ? simulation.value : undefined
    if (!isObject(value) || !('err' in value)) throw createWidgetError('RPC_REQUEST_FAILED', { details: `The node answered simulateTransaction with ${toJson(simulation)}` })
    const unitsConsumed = toBigInt(value.unitsConsumed)
    const withUnits = unitsConsumed === undefined ? {} : { unitsConsumed }
    if (value.err !== null) return { status: 'failed', err: value.err, ...withUnits }
    const preAccounts = readParsedAccounts(isObject(before) ? before.value : undefined, addresses.length)
    const postAccounts = readParsedAccounts(value.accounts, addresses.length)
    return { status: 'simulated', balanceChanges: balanceChangesOf(addresses, owners, preAccounts, postAccounts), ...withUnits }
  } catch (error) {
    const errorCode = errorCodeOf(error)
    return { status: 'notSimulated', why: errorCode === 'METHOD_NOT_FOUND' || errorCode === 'METHOD_NOT_SUPPORTED' ? 'unsupported' : 'failed', errorCode }
  }
}

/** The fee in lamports (getFeeForMessage), or why there is none. */
async function readFee(read: SolanaRpcRead, messageBytes: Uint8Array, commitment: string): Promise<bigint | Extract<SolanaReviewWarning, { kind: 'feeUnknown' }>> {
  try {
    const answer = await read('getFeeForMessage', [getBase64Decoder().decode(messageBytes), { commitment }])
    const value = isObject(answer) ? answer.value : undefined
    if (value === null) return { kind: 'feeUnknown', why: 'blockhashNotFound' }
    const fee = toBigInt(value)
    if (fee === undefined) throw createWidgetError('RPC_REQUEST_FAILED', { details: `The node answered getFeeForMessage with ${toJson(answer)}` })
    return fee
  } catch (error) {
    return { kind: 'feeUnknown', why: 'failed', errorCode: errorCodeOf(error) }
  }
}

/**
 * What a Solana transaction will do, before the wallet is asked to sign or send it:
 * 1. the wire bytes decoded and checked (INVALID_PARAMS, field `transaction`, for anything that is not one);
 * 2. a v0 message's lookup tables read, so every account has its address;
 * 3. each instruction decoded (System, SPL Token, Token-2022, Associated Token, Compute Budget, Memo; the rest unknown);
 * 4. at once: the fee (getFeeForMessage) and a simulation with the signers' (and `account`'s) SOL and token accounts
 *    before and after;
 * 5. approvals, authority and owner changes, a failing simulation and what could not be checked, as warnings.
 * @example const review = await reviewSolanaTransaction({ read: client.read, caipNetworkId, transaction })
 */
export async function reviewSolanaTransaction({ read, caipNetworkId, transaction, account, commitment = 'confirmed' }: ReviewSolanaTransactionParameters): Promise<SolanaTransactionReview> {
  if (account !== undefined && (typeof account !== 'string' || !isSolanaAddress(account))) {
    throw createWidgetError('INVALID_ADDRESS', { field: 'account', details: `"${String(account).slice(0, 60)}" is not a Solana address` })
  }
  const wire = readWireBytes(transaction)
  const decoded = decodeWire(wire)
  const { compiled, signatures, instructions: compiledInstructions, messageBytes } = decoded
  const { accounts, unresolved } = await resolveAccounts(read, decoded, commitment)

  const warnings: SolanaReviewWarning[] = []
  const instructions: SolanaDecodedInstruction[] = compiledInstructions.map(({ programAddressIndex, accountIndices, data }, index) => {
    const program = accounts[programAddressIndex]
    const named = accountIndices.map((accountIndex) => accounts[accountIndex])
    if (!program || program.lookupTable !== undefined || named.some((meta) => meta === undefined)) {
      throw invalidTransaction(`Instruction ${index} names an account the message does not have`)
    }
    const result = decodeInstruction({ programAddress: program.address!, accounts: named as SolanaAccountMeta[], data, index })
    warnings.push(...result.warnings)
    return result.instruction
  })

  const signers = compiled.staticAccounts.slice(0, compiled.header.numSignerAccounts)
  const [first] = instructions
  // A durable-nonce transaction starts with the System program's AdvanceNonceAccount; its lifetime token is the nonce.
  const usesDurableNonce = first?.kind === 'instruction' && first.programAddress === SYSTEM_PROGRAM && first.instruction === 'advanceNonceAccount'
  const owners = new Set<string>([...signers, ...(account === undefined ? [] : [account])])
  const addresses = [...new Set([...owners, ...accounts.flatMap((meta) => (meta.isWritable && meta.address !== undefined ? [meta.address] : []))])].slice(0, MAX_SIMULATED_ACCOUNTS)

  const [fee, simulation] = await Promise.all([readFee(read, messageBytes, commitment), simulate({ read, wire, addresses, owners, usesDurableNonce, commitment })])
  if (typeof fee !== 'bigint') warnings.push(fee)
  if (simulation.status === 'failed') {
    const instructionIndex = failedInstruction(simulation.err)
    warnings.push({ kind: 'wouldFail', ...(instructionIndex !== undefined && { instructionIndex }), error: toJson(simulation.err) })
  }
  if (simulation.status === 'notSimulated') warnings.push({ kind: 'notSimulated', why: simulation.why, errorCode: simulation.errorCode })
  if (unresolved.length > 0) warnings.push({ kind: 'unresolvedLookupTables', tables: unresolved })

  return {
    kind: 'solanaTransaction',
    network: caipNetworkId,
    version: compiled.version,
    feePayer: signers[0]!,
    signers: signers.map((address) => ({ address, isSigned: Boolean(signatures[address]) })),
    lifetimeToken: compiled.lifetimeToken,
    usesDurableNonce,
    instructions,
    ...(typeof fee === 'bigint' && { fee }),
    ...(simulation.status !== 'notSimulated' && simulation.unitsConsumed !== undefined && { computeUnitsConsumed: simulation.unitsConsumed }),
    ...(simulation.status === 'simulated' && { balanceChanges: simulation.balanceChanges }),
    warnings,
  }
}
