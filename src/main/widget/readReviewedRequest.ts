import type { Address, Hex } from 'viem'
import type { CallToReview, ReviewRow, ReviewValue, TransactionToReview } from '../../shared/protocol/review'
import { readPermissionRequest } from './readPermissionRequest'
import { ADDRESS, count, invalid, jsonLength } from './reviewInput'
import { PERMISSION_METHODS, type PermissionMethod, type ReviewedMethod } from './reviewedMethods'

// The requests the review reads (issue #36), loaded with the first one: a page whose site never asks the wallet for
// anything holds none of this.

const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/
const DATA = /^0x(?:[0-9a-fA-F]{2})*$/

/**
 * The longest typed data reviewed, in characters of JSON: real orders (Permit2, Seaport) are a few thousand, so this
 * only stops a payload too big to read before the page and the worker parse it.
 */
export const MAX_TYPED_DATA_CHARS = 100_000

/** The longest personal_sign message (or eth_sign data) reviewed, in characters (hex or text): a sign-in message is a few hundred. */
export const MAX_MESSAGE_CHARS = 100_000

const tooLong = (method: string, length: number) => invalid(`${method}: the typed data is ${count(length)} characters; at most ${count(MAX_TYPED_DATA_CHARS)} are reviewed.`)

/** personal_sign's message (hex bytes, or text as some sites send it), at most MAX_MESSAGE_CHARS long (-32602 past it). */
export function readMessage(params: unknown): string {
  const message = Array.isArray(params) ? params[0] : undefined
  if (typeof message !== 'string') throw invalid('personal_sign takes [message, address]: the message must be hex bytes or text.')
  if (message.length > MAX_MESSAGE_CHARS) throw invalid(`personal_sign: the message is ${count(message.length)} characters; at most ${count(MAX_MESSAGE_CHARS)} are reviewed.`)
  return message
}

/** eth_sign's data: [address, data], the data hex bytes at most MAX_MESSAGE_CHARS long (-32602 otherwise). */
export function readBlindSignature(params: unknown): Hex {
  const method = 'eth_sign'
  if (!Array.isArray(params)) throw invalid(`${method} takes [address, data]: the data must be hex bytes.`)
  readAddress(method, 'address', params[0], true)
  const data: unknown = params[1]
  if (typeof data === 'string' && data.length > MAX_MESSAGE_CHARS) throw invalid(`${method}: the data is ${count(data.length)} characters; at most ${count(MAX_MESSAGE_CHARS)} are reviewed.`)
  if (typeof data !== 'string' || !DATA.test(data)) throw invalid(`${method} takes [address, data]: the data must be hex bytes.`)
  return data as Hex
}

function readAddress(method: string, field: string, value: unknown, required: boolean): Address | undefined {
  if (value === undefined || value === null) {
    if (required) throw invalid(`${method}: "${field}" is missing; it must be a 20-byte hex address.`)
    return undefined
  }
  if (typeof value !== 'string' || !ADDRESS.test(value)) throw invalid(`${method}: "${field}" must be a 20-byte hex address.`)
  return value as Address
}

function readQuantity(method: string, field: string, value: unknown): bigint | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' || !QUANTITY.test(value)) throw invalid(`${method}: "${field}" must be a hex quantity such as 0x1.`)
  return BigInt(value)
}

function readData(method: string, field: string, value: unknown): Hex | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' || !DATA.test(value)) throw invalid(`${method}: "${field}" must be hex bytes starting with 0x.`)
  return value as Hex
}

/** eth_sendTransaction's (or eth_signTransaction's) transaction, checked field by field (-32602 naming the field). */
export function readTransaction(params: unknown, method: 'eth_sendTransaction' | 'eth_signTransaction' = 'eth_sendTransaction'): TransactionToReview & { chainId?: bigint } {
  const tx = Array.isArray(params) ? (params[0] as Record<string, unknown> | undefined) : undefined
  if (typeof tx !== 'object' || tx === null) throw invalid(`${method} takes [transaction], a transaction object.`)
  const data = readData(method, 'data', tx.data ?? tx.input)
  const value = readQuantity(method, 'value', tx.value)
  const gas = readQuantity(method, 'gas', tx.gas)
  const gasPrice = readQuantity(method, 'gasPrice', tx.gasPrice)
  const maxFeePerGas = readQuantity(method, 'maxFeePerGas', tx.maxFeePerGas)
  const chainId = readQuantity(method, 'chainId', tx.chainId)
  const to = readAddress(method, 'to', tx.to, false)
  return {
    from: readAddress(method, 'from', tx.from, true)!,
    ...(to && { to }),
    ...(data && { data }),
    ...(value !== undefined && { value }),
    ...(gas !== undefined && { gas }),
    ...(gasPrice !== undefined && { gasPrice }),
    ...(maxFeePerGas !== undefined && { maxFeePerGas }),
    ...(chainId !== undefined && { chainId }),
  }
}

/** wallet_sendCalls' batch: its chain, sender and calls (EIP-5792's shape, already checked by createEip5792 for the provider). */
export function readCalls(params: unknown): { chainId: bigint; from?: Address; calls: CallToReview[] } {
  const method = 'wallet_sendCalls'
  const request = Array.isArray(params) ? (params[0] as Record<string, unknown> | undefined) : undefined
  if (typeof request !== 'object' || request === null || !Array.isArray(request.calls)) throw invalid(`${method} takes [{ chainId, calls }].`)
  const chainId = readQuantity(method, 'chainId', request.chainId)
  if (chainId === undefined) throw invalid(`${method}: "chainId" is missing; it must be a hex chain id.`)
  const calls = (request.calls as unknown[]).map((call, index) => {
    if (typeof call !== 'object' || call === null) throw invalid(`${method}: calls[${index}] must be an object.`)
    const { to, data, value } = call as Record<string, unknown>
    const address = readAddress(method, `calls[${index}].to`, to, false)
    const bytes = readData(method, `calls[${index}].data`, data)
    const amount = readQuantity(method, `calls[${index}].value`, value)
    return { ...(address && { to: address }), ...(bytes && { data: bytes }), ...(amount !== undefined && { value: amount }) }
  })
  const from = readAddress(method, 'from', request.from, false)
  return { chainId, ...(from && { from }), calls }
}

/** eth_signTypedData_v4's typed data (the JSON string or the object), at most MAX_TYPED_DATA_CHARS long (-32602 past it). */
export function readTypedData(method: string, params: unknown): unknown {
  const typedData = Array.isArray(params) ? params[1] : undefined
  if (typeof typedData === 'string') {
    if (typedData.length > MAX_TYPED_DATA_CHARS) throw tooLong(method, typedData.length)
    try {
      return JSON.parse(typedData)
    } catch {
      throw invalid(`${method}: the typed data is not valid JSON.`)
    }
  }
  if (typeof typedData !== 'object' || typedData === null) throw invalid(`${method} takes [address, typedData].`)
  const length = jsonLength(typedData)
  if (length === undefined) throw invalid(`${method}: the typed data is not valid JSON.`)
  if (length > MAX_TYPED_DATA_CHARS) throw tooLong(method, length)
  return typedData
}

/** The most fields legacy typed data may have: real ones have a handful; past it the request is refused (-32602). */
export const MAX_LEGACY_FIELDS = 100

const UINT_OR_INT = /^u?int(\d*)$/
const FIXED_BYTES = /^bytes([1-9]|[12]\d|3[0-2])$/

/** A legacy field's value as the review shows it, checked against its Solidity type (-32602 naming the field when it does not fit). */
function legacyValue(method: string, field: string, type: string, value: unknown): ReviewValue {
  const wrong = (what: string) => invalid(`${method}: ${field}.value must be ${what} for its type ${type.slice(0, 40)}.`)
  if (type === 'address') {
    if (typeof value !== 'string' || !ADDRESS.test(value)) throw wrong('a 20-byte hex address')
    return { kind: 'address', address: value as Address }
  }
  if (type === 'bool') {
    if (typeof value !== 'boolean') throw wrong('true or false')
    return { kind: 'bool', value }
  }
  if (type === 'string') {
    if (typeof value !== 'string') throw wrong('text')
    return { kind: 'text', value }
  }
  if (type === 'bytes' || FIXED_BYTES.test(type)) {
    if (typeof value !== 'string' || !DATA.test(value)) throw wrong('hex bytes starting with 0x')
    return { kind: 'bytes', value: value as Hex }
  }
  if (UINT_OR_INT.test(type)) {
    const isInteger = (typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'string' && /^-?\d{1,78}$|^0x[0-9a-fA-F]{1,64}$/.test(value))
    if (!isInteger) throw wrong('an integer (a number, or its digits or hex in a string)')
    return { kind: 'number', value: BigInt(value as number | string) }
  }
  // Arrays and other Solidity types: as the site wrote them.
  return { kind: 'text', value: JSON.stringify(value) ?? String(value) }
}

/**
 * Legacy typed data (eth_signTypedData_v1, MetaMask's eth_signTypedData): [fields, address], each field
 * `{ type, name, value }`. Read field by field into the rows the review shows (-32602 naming what is wrong).
 */
export function readLegacyTypedData(method: string, params: unknown): ReviewRow[] {
  const fields = Array.isArray(params) ? params[0] : undefined
  if (!Array.isArray(fields) || fields.length === 0) throw invalid(`${method} takes [typedData, address]: typedData must be a list of { type, name, value }.`)
  if (fields.length > MAX_LEGACY_FIELDS) throw invalid(`${method}: the typed data has ${count(fields.length)} fields; at most ${MAX_LEGACY_FIELDS} are reviewed.`)
  const length = jsonLength(fields)
  if (length === undefined) throw invalid(`${method}: the typed data is not valid JSON.`)
  if (length > MAX_TYPED_DATA_CHARS) throw tooLong(method, length)
  readAddress(method, 'address', (params as unknown[])[1], true)
  return fields.map((field: unknown, index) => {
    const { type, name, value } = (typeof field === 'object' && field !== null ? field : {}) as Record<string, unknown>
    if (typeof type !== 'string' || typeof name !== 'string') throw invalid(`${method}: typedData[${index}] must be { type, name, value } with type and name as text.`)
    return { path: `[${index}]`, label: name, value: legacyValue(method, `typedData[${index}]`, type, value) }
  })
}

/** eth_signTypedData is legacy typed data as MetaMask takes it ([fields, address]), or EIP-712's as the EIP names it ([address, typedData]). */
const isLegacyTypedData = (method: string, params: unknown) => method === 'eth_signTypedData_v1' || (method === 'eth_signTypedData' && Array.isArray(params) && Array.isArray(params[0]))

/**
 * A request read for its review: what to review and on which network. A malformed one fails here (-32602 naming its
 * field), before the visitor sees anything. `walletNetwork` and `from` are the connected wallet's.
 */
export function readReviewedRequest(method: ReviewedMethod, params: unknown, walletNetwork: string | undefined, from: Address) {
  if (method === 'eth_sendTransaction' || method === 'eth_signTransaction') {
    const { chainId, ...request } = readTransaction(params, method)
    return { caipNetworkId: chainId === undefined ? walletNetwork : `eip155:${chainId}`, query: { kind: 'transaction', request } as const }
  }
  if (method === 'wallet_sendCalls') {
    const { chainId, calls, from: sender } = readCalls(params)
    return { caipNetworkId: `eip155:${chainId}`, query: { kind: 'calls', from: sender ?? from, calls } as const }
  }
  if (method === 'personal_sign') return { caipNetworkId: walletNetwork, query: { kind: 'message', message: readMessage(params) } as const }
  if (method === 'eth_sign') return { caipNetworkId: walletNetwork, query: { kind: 'blindSignature', data: readBlindSignature(params) } as const }
  if ((PERMISSION_METHODS as readonly string[]).includes(method)) {
    const review = readPermissionRequest(method as PermissionMethod, params)
    return { caipNetworkId: review.grants[0]!.caipNetworkId ?? walletNetwork, query: { kind: 'permissions', review } as const }
  }
  if (isLegacyTypedData(method, params)) return { caipNetworkId: walletNetwork, query: { kind: 'legacyTypedData', fields: readLegacyTypedData(method, params) } as const }
  return { caipNetworkId: walletNetwork, query: { kind: 'typedData', typedData: readTypedData(method, params) } as const }
}

export type ReviewQuery = ReturnType<typeof readReviewedRequest>
