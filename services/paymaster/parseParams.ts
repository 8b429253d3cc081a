import { getAddress, type Address, type Hex } from 'viem'

/** The fields of an ERC-4337 v0.7/v0.8 UserOperation the paymaster reads, as numbers. Others (signature, paymaster*) it sets or ignores. */
export type SponsoredUserOperation = {
  sender: Address
  nonce: bigint
  /** An address, or '0x7702' for an EIP-7702 account's first operation. */
  factory?: Hex
  factoryData?: Hex
  callData: Hex
  callGasLimit: bigint
  verificationGasLimit: bigint
  preVerificationGas: bigint
  /** Absent only in a stub request (fees are not signed there). */
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
}

/** ERC-7677's params: [userOperation, entryPoint, chainId (hex), context]. */
export type SponsorshipParams = {
  userOperation: SponsoredUserOperation
  entryPoint: Address
  chainId: number
  projectId: string
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; message: string }

const UINT128_MAX = (1n << 128n) - 1n
const UINT256_MAX = (1n << 256n) - 1n
/** JSON's own limit on an id we compare against configured ones (project ids are at most 200 characters). */
const MAX_PROJECT_ID_LENGTH = 200

class FieldError extends Error {}
const fail = (field: string, what: string): never => {
  throw new FieldError(`${field} ${what}`)
}
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A hex quantity (0x and 1 to 64 hex digits, leading zeros allowed) at most `max`. */
const quantity = (value: unknown, field: string, max: bigint, maxName: string): bigint => {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) return fail(field, 'must be a hex quantity (0x and 1 to 64 hex digits)')
  const number = BigInt(value)
  if (number > max) fail(field, `must be at most ${maxName}`)
  return number
}
const bytes = (value: unknown, field: string): Hex => {
  if (typeof value !== 'string' || !/^0x(?:[0-9a-fA-F]{2})*$/.test(value)) return fail(field, 'must be hex bytes (0x and an even number of hex digits)')
  return value.toLowerCase() as Hex
}
const address = (value: unknown, field: string): Address => {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) return fail(field, 'must be an address (0x and 40 hex digits)')
  return getAddress(value)
}
const isAbsent = (value: unknown) => value === undefined || value === null

function userOperation(value: unknown, field: string): SponsoredUserOperation {
  if (!isObject(value)) return fail(field, 'must be a UserOperation object')
  const gas = (name: string) => quantity(value[name], `${field}.${name}`, UINT128_MAX, '2^128 - 1')
  const optionalFee = (name: string) => (isAbsent(value[name]) ? undefined : gas(name))
  let factory: Hex | undefined
  if (!isAbsent(value.factory)) factory = value.factory === '0x7702' ? '0x7702' : address(value.factory, `${field}.factory`)
  const factoryData = isAbsent(value.factoryData) ? undefined : bytes(value.factoryData, `${field}.factoryData`)
  if (factoryData !== undefined && factoryData !== '0x' && factory === undefined) fail(`${field}.factoryData`, 'needs a factory')
  const maxFeePerGas = optionalFee('maxFeePerGas')
  const maxPriorityFeePerGas = optionalFee('maxPriorityFeePerGas')
  return {
    sender: address(value.sender, `${field}.sender`),
    nonce: quantity(value.nonce, `${field}.nonce`, UINT256_MAX, '2^256 - 1'),
    ...(factory !== undefined ? { factory, factoryData: factoryData ?? '0x' } : {}),
    callData: bytes(value.callData, `${field}.callData`),
    callGasLimit: gas('callGasLimit'),
    verificationGasLimit: gas('verificationGasLimit'),
    preVerificationGas: gas('preVerificationGas'),
    ...(maxFeePerGas !== undefined ? { maxFeePerGas } : {}),
    ...(maxPriorityFeePerGas !== undefined ? { maxPriorityFeePerGas } : {}),
  }
}

/**
 * Checks ERC-7677 params as viem's paymaster client sends them, `[userOperation, entryPoint, chainId, { projectId }]`,
 * and reads them into numbers. Every field is checked for its type, form and range (gas and fees fit uint128, as the
 * packed operation holds them); the first one at fault is named, e.g. "params[0].callGasLimit must be a hex quantity
 * (0x and 1 to 64 hex digits)". Fields the paymaster does not read are ignored.
 * @example parseSponsorshipParams(request.params) // { ok: true, value: { userOperation, entryPoint, chainId, projectId } }
 */
export function parseSponsorshipParams(params: unknown): ParseResult<SponsorshipParams> {
  try {
    if (!Array.isArray(params)) return fail('params', 'must be an array: [userOperation, entryPoint, chainId, context]')
    if (params.length !== 4) fail('params', `must hold 4 entries, [userOperation, entryPoint, chainId, context], not ${params.length}`)
    const operation = userOperation(params[0], 'params[0]')
    const entryPoint = address(params[1], 'params[1]')
    const chainIdValue = params[2]
    const chainId = typeof chainIdValue === 'string' && /^0x[0-9a-fA-F]{1,13}$/.test(chainIdValue) ? Number(chainIdValue) : 0
    if (chainId < 1 || !Number.isSafeInteger(chainId)) fail('params[2]', 'must be the chain id as a hex quantity, like 0x7a69')
    const context = params[3]
    if (!isObject(context)) return fail('params[3]', 'must be the paymaster context, { projectId }')
    const { projectId } = context
    if (typeof projectId !== 'string' || projectId.length === 0 || projectId.length > MAX_PROJECT_ID_LENGTH) {
      return fail('params[3].projectId', `must be the project id, a string of 1 to ${MAX_PROJECT_ID_LENGTH} characters`)
    }
    return { ok: true, value: { userOperation: operation, entryPoint, chainId, projectId } }
  } catch (error) {
    if (error instanceof FieldError) return { ok: false, message: `${error.message}.` }
    throw error
  }
}
