import { getAddress, isAddress, maxUint256, type AbiParameter, type Address, type Hex } from 'viem'
import * as z from 'zod/mini'
import { createWidgetError } from '../../shared/protocol/errors'
import type { ReviewRow, TypedDataReview } from '../../shared/protocol/review'
import { parseOrThrow } from '../../shared/protocol/schemas/parse'
import { formatArgs, type FieldSpec } from './formatArgs'
import { amounts, dates, permit2Approvals, type Approval } from './knownFunctions'

/** Structs nest at most this deep here (EIP-712 allows a type to contain itself). */
const MAX_STRUCT_DEPTH = 8

const typedDataSchema = z.looseObject({
  domain: z.optional(
    z.looseObject({
      name: z.optional(z.string()),
      version: z.optional(z.string()),
      chainId: z.optional(z.union([z.int(), z.string().check(z.regex(/^(0x[\da-fA-F]+|\d+)$/, 'Expected a chain id')), z.bigint()])),
      verifyingContract: z.optional(z.string().check(z.refine((value) => isAddress(value, { strict: false }), 'Expected an address'))),
      salt: z.optional(z.string()),
    }),
  ),
  types: z.record(z.string(), z.array(z.looseObject({ name: z.string(), type: z.string() }))),
  primaryType: z.string(),
  message: z.record(z.string(), z.unknown()),
})

type Types = z.infer<typeof typedDataSchema>['types']
type Message = Record<string, unknown>

/** EIP-712 struct fields as ABI parameters (structs as tuples), so they flatten like calldata. */
function toAbiParameters(types: Types, fields: Types[string], depth = 0): AbiParameter[] {
  return fields.map(({ name, type }) => {
    const [, base = type, arraySuffix = ''] = /^(.*?)((\[\d*\])*)$/.exec(type) ?? []
    const struct = types[base]
    if (!struct || depth >= MAX_STRUCT_DEPTH) return { name, type: struct ? 'string' : type }
    return { name, type: `tuple${arraySuffix}`, components: toAbiParameters(types, struct, depth + 1) }
  })
}

/** A DAI-style permit (holder, spender, nonce, expiry, allowed) grants all or nothing. */
const eip2612Approvals = (message: Message, token: Address | undefined): Approval[] => {
  if (!token) return []
  const amount = message.value !== undefined ? BigInt(message.value as string) : message.allowed === true ? maxUint256 : 0n
  const deadline = message.deadline ?? message.expiry
  return [{ kind: 'allowance', via: 'eip2612', token, spender: message.spender as Address, amount, amountType: 'uint256', ...(deadline !== undefined && { deadline: BigInt(deadline as string) }) }]
}

/** The permits called out as approvals: Permit2's PermitSingle and PermitBatch, EIP-2612's Permit. */
const permits: Record<string, { fields: FieldSpec[]; approvals: (message: Message, verifyingContract: Address | undefined) => Approval[] }> = {
  PermitSingle: {
    fields: [...amounts('details.token', 'details.amount'), ...dates('details.expiration', 'sigDeadline')],
    approvals: (message) => permit2Approvals(message as Parameters<typeof permit2Approvals>[0]),
  },
  PermitBatch: {
    fields: [...amounts('details.[].token', 'details.[].amount'), ...dates('details.[].expiration', 'sigDeadline')],
    approvals: (message) => permit2Approvals(message as Parameters<typeof permit2Approvals>[0]),
  },
  Permit: { fields: [...amounts('@.to', 'value'), ...dates('deadline', 'expiry')], approvals: eip2612Approvals },
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    throw createWidgetError('INVALID_MESSAGE', { details: 'typed data: not JSON' })
  }
}

export type TypedDataLayout = Omit<TypedDataReview, 'kind' | 'network' | 'warnings'> & { approvals: Approval[] }

/**
 * Lays typed data out for review: its domain, and its message field by field (nested structs flattened to rows with
 * their paths), permit amounts as token amounts and deadlines as dates; a permit's allowances come back as approvals.
 * Malformed typed data is a ValidationError naming the field.
 * @example layoutTypedData(permitSingle).approvals // [{ kind: 'allowance', via: 'permit2', … }]
 */
export function layoutTypedData(value: unknown): TypedDataLayout {
  const { domain = {}, types, primaryType, message } = parseOrThrow(typedDataSchema, typeof value === 'string' ? parseJson(value) : value, 'typed data')
  const primary = types[primaryType]
  if (!primary) throw createWidgetError('INVALID_MESSAGE', { field: 'primaryType', details: `typed data: primaryType: no type ${primaryType} in types` })
  const verifyingContract = domain.verifyingContract ? getAddress(domain.verifyingContract) : undefined
  const permit = permits[primaryType]
  const rows: ReviewRow[] = formatArgs({
    params: toAbiParameters(types, primary),
    roots: { args: message, envelope: { to: verifyingContract } },
    fields: permit?.fields,
  })
  let approvals: Approval[] = []
  try {
    approvals = permit?.approvals(message, verifyingContract) ?? []
  } catch {
    // A message named like a permit but not shaped like one: its rows still show it as it is.
  }
  return {
    primaryType,
    domain: {
      ...(domain.name !== undefined && { name: domain.name }),
      ...(domain.version !== undefined && { version: domain.version }),
      ...(domain.chainId !== undefined && { chainId: Number(BigInt(domain.chainId)) }),
      ...(verifyingContract && { verifyingContract }),
      ...(domain.salt !== undefined && { salt: domain.salt as Hex }),
    },
    message: rows,
    approvals,
  }
}
