import {
  AbiDecodingZeroDataError,
  bytesToHex,
  decodeAbiParameters,
  decodeFunctionResult,
  encodeFunctionData,
  getContractError,
  hexToBytes,
  InvalidAddressError,
  isAddress,
  multicall3Abi,
  prepareEncodeFunctionData,
  RawContractError,
  type Abi,
  type AbiFunction,
  type Address,
  type BaseError,
  type Client,
  type Hex,
} from 'viem'
import { call } from 'viem/actions'
import type { ContractCall } from '../../../shared/protocol/core/coreApi'

/**
 * Many reads in Multicall3 `aggregate3` calls, with the results and errors viem's `multicall` gives (allowFailure: true).
 * What differs is the work per read, which decides how fast thousands of them go:
 * - each function's ABI item and selector are found once per ABI and function name, not hashed again for every read;
 * - the `aggregate3` call and its answer are laid out here (a fixed layout), so each read's answer is decoded from
 *   the answer's bytes without being copied to hex and back. An answer not laid out as expected is decoded by viem;
 * - a read that cannot be encoded fails alone with its own error, and is not sent.
 */
export async function multicall(
  client: Client,
  { contracts, multicallAddress, batchSize }: { contracts: readonly ContractCall[]; multicallAddress: Address; batchSize: number },
): Promise<MulticallOutcome[]> {
  const outcomes: MulticallOutcome[] = new Array(contracts.length)
  const chunks: { index: number; target: Address; callData: Hex }[][] = [[]]
  let chunkSize = 0
  // Thousands of reads usually share a few contracts: each address is checked (its checksum hashed) once.
  const checkedAddresses = new Map<string, boolean>()
  const isValid = (address: string) => {
    let valid = checkedAddresses.get(address)
    if (valid === undefined) checkedAddresses.set(address, (valid = isAddress(address)))
    return valid
  }
  contracts.forEach((contract, index) => {
    try {
      if (!isValid(contract.address)) throw new InvalidAddressError({ address: contract.address })
      const callData = encodeCall(contract)
      const size = (callData.length - 2) / 2
      chunkSize += size
      if (batchSize > 0 && chunkSize > batchSize && chunks.at(-1)!.length > 0) {
        chunks.push([])
        chunkSize = size
      }
      chunks.at(-1)!.push({ index, target: contract.address, callData })
    } catch (error) {
      outcomes[index] = { status: 'failure', error: contractError(error, contract) }
    }
  })

  await Promise.all(
    chunks
      .filter((chunk) => chunk.length > 0)
      .map(async (chunk) => {
        let answers: Aggregate3Answer[]
        try {
          const { data } = await call(client, { to: multicallAddress, data: encodeAggregate3(chunk) })
          answers = decodeAggregate3(data ?? '0x')
        } catch (error) {
          const failed = getContractError(error as BaseError, {
            abi: multicall3Abi,
            address: multicallAddress,
            args: [chunk.map(({ target, callData }) => ({ allowFailure: true, callData, target }))],
            docsPath: '/docs/contract/readContract',
            functionName: 'aggregate3',
          })
          for (const { index } of chunk) outcomes[index] = { status: 'failure', error: failed }
          return
        }
        chunk.forEach(({ index }, i) => {
          const contract = contracts[index]!
          try {
            const answer = answers[i]
            if (!answer) throw new AbiDecodingZeroDataError()
            if (!answer.success) throw new RawContractError({ data: bytesToHex(answer.returnData) })
            outcomes[index] = { status: 'success', result: decodeResult(contract, answer.returnData) }
          } catch (error) {
            outcomes[index] = { status: 'failure', error: contractError(error, contract) }
          }
        })
      }),
  )
  return outcomes
}

export type MulticallOutcome = { status: 'success'; result: unknown } | { status: 'failure'; error: Error }

type Aggregate3Answer = { success: boolean; returnData: Uint8Array }

const contractError = (error: unknown, { abi, address, args, functionName }: ContractCall) =>
  getContractError(error as BaseError, { abi, address, args, docsPath: '/docs/contract/multicall', functionName })

/** A function's ABI item and selector, by ABI and name; `null` when the name is overloaded (viem picks by the args). */
const preparedFunctions = new WeakMap<Abi, Map<string, { abiItem: AbiFunction; selector: Hex } | null>>()

function prepared({ abi, functionName }: ContractCall) {
  let byName = preparedFunctions.get(abi)
  if (!byName) preparedFunctions.set(abi, (byName = new Map()))
  if (!byName.has(functionName)) {
    const named = abi.filter((item) => item.type === 'function' && item.name === functionName)
    // Only the ABI's own names are kept (at most one entry per function): a name it lacks goes to viem, which says so.
    if (named.length === 0) return undefined
    byName.set(functionName, named.length === 1 ? toPrepared(prepareEncodeFunctionData({ abi, functionName })) : null)
  }
  return byName.get(functionName)
}

const toPrepared = ({ abi, functionName }: { abi: readonly unknown[]; functionName: Hex }) => ({ abiItem: abi[0] as AbiFunction, selector: functionName })

function encodeCall(contract: ContractCall): Hex {
  const known = prepared(contract)
  if (!known) return encodeFunctionData({ abi: contract.abi, functionName: contract.functionName, args: contract.args })
  return encodeFunctionData({ abi: [known.abiItem], functionName: known.selector, args: contract.args } as never)
}

function decodeResult(contract: ContractCall, returnData: Uint8Array): unknown {
  const known = prepared(contract)
  if (!known) return decodeFunctionResult({ abi: contract.abi, functionName: contract.functionName, args: contract.args, data: bytesToHex(returnData) })
  const values = decodeAbiParameters(known.abiItem.outputs, returnData)
  return values.length > 1 ? values : values[0]
}

const AGGREGATE3_SELECTOR = '82ad56cb'
const word = (value: number) => value.toString(16).padStart(64, '0')

/** `aggregate3((address target, bool allowFailure, bytes callData)[])`, every call allowed to fail. */
export function encodeAggregate3(calls: readonly { target: Address; callData: Hex }[]): Hex {
  const offsets: string[] = []
  const tails: string[] = []
  let offset = calls.length * 32
  for (const { target, callData } of calls) {
    const data = callData.slice(2)
    const tail = `${target.slice(2).toLowerCase().padStart(64, '0')}${word(1)}${word(0x60)}${word(data.length / 2)}${data.padEnd(Math.ceil(data.length / 64) * 64, '0')}`
    offsets.push(word(offset))
    tails.push(tail)
    offset += tail.length / 2
  }
  return `0x${AGGREGATE3_SELECTOR}${word(0x20)}${word(calls.length)}${offsets.join('')}${tails.join('')}`
}

/** The answer of `aggregate3`: `(bool success, bytes returnData)[]`, each returnData a view into the answer's bytes. */
export function decodeAggregate3(data: Hex): Aggregate3Answer[] {
  return readAggregate3(bytesOfHex(data)) ?? decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data }).map(({ success, returnData }) => ({ success, returnData: hexToBytes(returnData) }))
}

const fromHex = (Uint8Array as { fromHex?: (hex: string) => Uint8Array }).fromHex

/**
 * The answer's bytes, by the browser's own decoder where it has one (`Uint8Array.fromHex`: several times faster than
 * viem's loop in a fresh worker), else by viem's, which also names what is wrong with hex that is not.
 */
function bytesOfHex(hex: Hex): Uint8Array {
  if (fromHex) {
    try {
      return fromHex.call(Uint8Array, hex.slice(2))
    } catch {
      // Odd length or not hex: viem's decoder pads or says what is wrong.
    }
  }
  return hexToBytes(hex)
}

/** The fixed layout read with every offset and length checked; `undefined` for anything else (viem then decodes it, or names what is wrong). */
function readAggregate3(bytes: Uint8Array): Aggregate3Answer[] | undefined {
  const size = (at: number) => {
    if (!Number.isSafeInteger(at) || at < 0 || at + 32 > bytes.length) return undefined
    for (let i = at; i < at + 26; i++) if (bytes[i] !== 0) return undefined
    let value = 0
    for (let i = at + 26; i < at + 32; i++) value = value * 256 + bytes[i]!
    return value
  }
  const arrayAt = size(0)
  const count = arrayAt === undefined ? undefined : size(arrayAt)
  if (arrayAt === undefined || count === undefined || count > bytes.length / 32) return undefined
  const head = arrayAt + 32
  const answers: Aggregate3Answer[] = []
  for (let i = 0; i < count; i++) {
    const relative = size(head + i * 32)
    if (relative === undefined) return undefined
    const tuple = head + relative
    const success = size(tuple)
    const bytesAt = size(tuple + 32)
    if ((success !== 0 && success !== 1) || bytesAt === undefined) return undefined
    const length = size(tuple + bytesAt)
    const start = tuple + bytesAt + 32
    if (length === undefined || start + length > bytes.length) return undefined
    answers.push({ success: success === 1, returnData: bytes.subarray(start, start + length) })
  }
  return answers
}
