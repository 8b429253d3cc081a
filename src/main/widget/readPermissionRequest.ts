import type { Address } from 'viem'
import type { PermissionGrant, PermissionPart, PermissionsReview, ReviewRow, ReviewValue } from '../../shared/protocol/review'
import { ADDRESS, count, invalid, jsonLength } from './reviewInput'
import type { PermissionMethod } from './reviewedMethods'

// ERC-7715: a site asks the wallet for standing permissions over the account (a session key, a subscription), which it
// then uses without asking again. Two method names are in use: the ERC's draft `wallet_grantPermissions` (viem's
// experimental action) and its revision `wallet_requestExecutionPermissions` (MetaMask's Advanced Permissions).
// Both carry a list of requests: a chain, an account, who may act (`signer`), what they may do (`permission`, or a list
// of `permissions`), and limits (`policies`, or `rules`, the revision's, where the expiry is a rule).

/** The most requests one call may carry, and rows one request may show: real ones have one or two, and a handful of rows. */
export const MAX_PERMISSION_REQUESTS = 10
export const MAX_PERMISSION_ROWS = 100
/** The longest request reviewed, in characters of JSON. */
export const MAX_PERMISSION_CHARS = 100_000

const INTEGER = /^(?:0x[0-9a-fA-F]{1,64}|\d{1,78})$/
const TIME_KEY = /^(?:start|startTime|end|endTime|expiry|timestamp|validAfter|validUntil)$/i
const AMOUNT_KEY = /allowance|amount|limit|spend/i
const COUNT_KEY = /count|interval|period|duration/i
/** At least 2^255: an allowance meant as unlimited. */
const UNLIMITED = 2n ** 255n

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function integerOf(value: unknown): bigint | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string' && INTEGER.test(value)) return BigInt(value)
  return undefined
}

/**
 * A value of a permission's or a limit's data as the review shows it: addresses, dates by their key, amounts and counts
 * by their path (an ERC-1155 grant's `allowances.7` is an amount).
 */
function valueOf(path: string, value: unknown, partType: string, token: Address | undefined): ReviewValue {
  const key = path.slice(path.lastIndexOf('.') + 1)
  if (typeof value === 'string' && ADDRESS.test(value)) return { kind: 'address', address: value as Address }
  if (typeof value === 'boolean') return { kind: 'bool', value }
  const integer = integerOf(value)
  if (integer !== undefined && TIME_KEY.test(key)) return { kind: 'date', timestamp: integer }
  if (integer !== undefined && AMOUNT_KEY.test(path)) {
    if (partType.startsWith('native-token')) return { kind: 'nativeAmount', amount: integer }
    if (token) return { kind: 'tokenAmount', token: { address: token }, amount: integer, isUnlimited: integer >= UNLIMITED }
  }
  if (integer !== undefined && (typeof value === 'number' || AMOUNT_KEY.test(path) || COUNT_KEY.test(key))) return { kind: 'number', value: integer }
  return { kind: 'text', value: typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)) }
}

/** Every leaf of `data` as a row, nested objects and lists flattened into the path (`allowances.[0]`), three levels deep. */
function rowsOf(data: Record<string, unknown>, partType: string, path = '', depth = 0, outerToken?: Address): ReviewRow[] {
  const token = tokenOf(data) ?? outerToken
  return Object.entries(data).flatMap(([key, value]) => {
    const at = path ? `${path}.${key}` : key
    if (depth < 3 && isObject(value)) return rowsOf(value, partType, at, depth + 1, token)
    if (depth < 3 && Array.isArray(value)) return value.flatMap((item, index) => (isObject(item) ? rowsOf(item, partType, `${at}.[${index}]`, depth + 1, token) : [{ path: `${at}.[${index}]`, value: valueOf(`${at}.[${index}]`, item, partType, token) }]))
    return [{ path: at, value: valueOf(at, value, partType, token) }]
  })
}

const tokenOf = (data: unknown) => (isObject(data) ? [data.address, data.tokenAddress, data.token].find((value): value is Address => typeof value === 'string' && ADDRESS.test(value)) : undefined)

/**
 * A permission, policy or rule: `{ type, data }`, its data laid out in rows. A policy of a permission (viem's shape)
 * counts its amounts as its permission does (`owner`): a native token's, or the permission's token's.
 */
function partOf(method: string, field: string, part: unknown, owner?: { type: string; data?: unknown }): PermissionPart {
  if (!isObject(part) || typeof part.type !== 'string' || part.type.length === 0 || part.type.length > 100) throw invalid(`${method}: ${field} must be { type, data } with the type as text.`)
  if (part.data !== undefined && !isObject(part.data)) throw invalid(`${method}: ${field}.data must be an object.`)
  return { type: part.type, rows: part.data ? rowsOf(part.data, owner?.type ?? part.type, '', 0, tokenOf(owner?.data)) : [] }
}

const listOf = (method: string, field: string, value: unknown): unknown[] => {
  if (value === undefined) return []
  if (!Array.isArray(value)) throw invalid(`${method}: ${field} must be a list.`)
  return value
}

function grantOf(method: PermissionMethod, field: string, request: unknown): PermissionGrant {
  if (!isObject(request)) throw invalid(`${method}: ${field} must be a permission request object.`)
  // viem's action sends no chain: the wallet's is meant.
  const chainId = request.chainId === undefined ? undefined : integerOf(request.chainId)
  if (chainId === 0n || (request.chainId !== undefined && chainId === undefined)) throw invalid(`${method}: ${field}.chainId must be a chain id (a hex quantity such as 0x1, or a number).`)
  if (request.address !== undefined && (typeof request.address !== 'string' || !ADDRESS.test(request.address))) throw invalid(`${method}: ${field}.address must be a 20-byte hex address.`)
  const parts = (name: string, value: unknown, owner?: { type: string; data?: unknown }) => listOf(method, `${field}.${name}`, value).map((part, index) => partOf(method, `${field}.${name}[${index}]`, part, owner))
  const listed = listOf(method, `${field}.permissions`, request.permissions)
  const permissions = [...(request.permission !== undefined ? [partOf(method, `${field}.permission`, request.permission)] : []), ...parts('permissions', listed)]
  if (permissions.length === 0) throw invalid(`${method}: ${field} asks for no permission: it needs "permission" or "permissions".`)
  // viem's draft puts each permission's own policies in it.
  const ownPolicies = listed.flatMap((permission, index) => (isObject(permission) ? parts(`permissions[${index}].policies`, permission.policies, permission as { type: string; data?: unknown }) : []))
  const limits = [...parts('policies', request.policies), ...ownPolicies, ...parts('rules', request.rules)]
  // The revision's expiry is a rule; the draft's a field of the request.
  const expiryRule = limits.find((limit) => limit.type === 'expiry')?.rows.find((row) => row.value.kind === 'date')
  if (request.expiry !== undefined && integerOf(request.expiry) === undefined) throw invalid(`${method}: ${field}.expiry must be a Unix time in seconds.`)
  const expiry = integerOf(request.expiry) ?? (expiryRule?.value.kind === 'date' ? expiryRule.value.timestamp : undefined)
  const signer = request.signer === undefined ? undefined : partOf(method, `${field}.signer`, request.signer)
  if (permissions.concat(limits, signer ? [signer] : []).reduce((sum, part) => sum + part.rows.length, 0) > MAX_PERMISSION_ROWS) throw invalid(`${method}: ${field} has more than ${MAX_PERMISSION_ROWS} values; at most ${MAX_PERMISSION_ROWS} are reviewed.`)
  return {
    ...(chainId !== undefined && { caipNetworkId: `eip155:${chainId}` as const }),
    ...(request.address !== undefined && { account: request.address as Address }),
    ...(expiry !== undefined && { expiry }),
    ...(signer && { signer }),
    permissions,
    limits: limits.filter((limit) => limit.type !== 'expiry'),
  }
}

/**
 * An ERC-7715 permission request read for review: each request's network, account, expiry, who may act, what they may
 * do and within which limits. A malformed one is refused (-32602) naming the field, before anything shows.
 * @example readPermissionRequest('wallet_grantPermissions', [{ chainId: '0x1', expiry: 1_900_000_000, signer: { type: 'account', data: { address } }, permission: { type: 'native-token-transfer', data: { allowance: '0x1' } } }])
 */
export function readPermissionRequest(method: PermissionMethod, params: unknown): PermissionsReview {
  if (!Array.isArray(params) || params.length === 0) throw invalid(`${method} takes a list of permission requests.`)
  if (params.length > MAX_PERMISSION_REQUESTS) throw invalid(`${method}: ${params.length} permission requests; at most ${MAX_PERMISSION_REQUESTS} are reviewed.`)
  const length = jsonLength(params)
  if (length === undefined) throw invalid(`${method}: the permission requests are not valid JSON.`)
  if (length > MAX_PERMISSION_CHARS) throw invalid(`${method}: the permission requests are ${count(length)} characters; at most ${count(MAX_PERMISSION_CHARS)} are reviewed.`)
  return { kind: 'permissions', grants: params.map((request, index) => grantOf(method, `requests[${index}]`, request)) }
}
