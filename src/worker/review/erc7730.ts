import { getAddress, isAddress, parseAbiItem, toFunctionSelector, type AbiFunction, type Address, type Hex } from 'viem'
import * as z from 'zod/mini'
import { parseOrThrow } from '../../shared/protocol/schemas/parse'
import { valueAt, type FieldSpec } from './formatArgs'

// The subset of ERC-7730 (v1) that Tessera renders: calldata descriptors whose `display.formats` are keyed by function
// signature, with an `intent` and ordered `fields` formatted as tokenAmount, addressName, date (timestamps) or raw.
// Anything else (EIP-712 contexts, includes, $ref definitions, nested field groups, other formats) is refused by name,
// so a site learns at once that its descriptor will not be shown rather than seeing it half applied.

const addressString = z.string().check(z.refine((value) => isAddress(value, { strict: false }), 'Expected an address'))
/** An argument path: `#.a.b`, `a.[0].b` or `a.[-1]`; `[]` for every element. */
const argPath = z.string().check(z.regex(/^(#\.)?\w+(\.(\w+|\[-?\d*\]))*$/, 'Expected a path into the arguments, like #.amount or #.path.[-1]'))

/** An object whose other keys (nested `fields`, `$ref`, `includes` …) are refused by name. */
const strict = <Shape extends z.core.$ZodLooseShape>(shape: Shape) =>
  z.strictObject(shape, { error: (issue) => (issue.code === 'unrecognized_keys' ? `Not supported: ${issue.keys.join(', ')}` : undefined) })

const labelled = { path: argPath, label: z.string() }
const tokenAmountParams = strict({
  tokenPath: z.optional(z.string()),
  token: z.optional(z.string()),
  threshold: z.optional(z.string().check(z.regex(/^(0x[\da-fA-F]+|\d+|\$\..+)$/, 'Expected a number or a $. path'))),
}).check(z.refine((params) => (params.token === undefined) !== (params.tokenPath === undefined), 'Expected exactly one of token and tokenPath'))

const fieldSchema = z.discriminatedUnion(
  'format',
  [
    strict({ ...labelled, format: z.literal('tokenAmount'), params: tokenAmountParams }),
    strict({ ...labelled, format: z.literal('addressName'), params: z.optional(strict({ types: z.optional(z.array(z.string())), sources: z.optional(z.array(z.string())) })) }),
    strict({ ...labelled, format: z.literal('date'), params: strict({ encoding: z.literal('timestamp', 'Only timestamp dates are supported') }) }),
    strict({ ...labelled, format: z.literal('raw') }),
  ],
  'Expected a format of tokenAmount, addressName, date or raw',
)

const isFunctionSignature = (key: string) => {
  try {
    return parseAbiItem(`function ${key}`).type === 'function'
  } catch {
    return false
  }
}

const descriptorSchema = strict({
  $schema: z.optional(z.string()),
  context: z.looseObject({
    // `abi` may be given but is not fetched: the format keys' signatures are the ABI.
    contract: z.looseObject(
      {
        deployments: z.array(strict({ chainId: z.int().check(z.positive()), address: addressString })).check(z.minLength(1, 'Expected a deployment at least')),
        abi: z.optional(z.union([z.string(), z.array(z.unknown())])),
      },
      'Expected a contract context (EIP-712 descriptors are not supported)',
    ),
  }),
  metadata: z.optional(z.looseObject({ constants: z.optional(z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))) })),
  display: strict({
    formats: z.record(
      z.string().check(z.refine(isFunctionSignature)),
      strict({
        $id: z.optional(z.string()),
        intent: z.string('Expected the intent as a string'),
        fields: z.array(fieldSchema),
        required: z.optional(z.array(z.string())),
        excluded: z.optional(z.array(z.string())),
      }),
      { error: (issue) => (issue.code === 'invalid_key' ? 'Expected a function signature, like transfer(address to,uint256 amount)' : undefined) },
    ),
  }),
})

/** A function's display as a descriptor gives it. */
export type DescriptorFormat = { abi: AbiFunction; intent: string; fields: FieldSpec[]; document: unknown }

/** A validated descriptor, ready to label calls. */
export type Erc7730Descriptor = { deployments: { chainId: number; address: Address }[]; formats: ReadonlyMap<Hex, DescriptorFormat> }

function toFieldSpec(field: z.infer<typeof fieldSchema>, document: unknown): FieldSpec {
  const { path, label } = field
  if (field.format === 'addressName') return { path, label, format: 'addressName', ...(field.params?.types && { types: field.params.types }) }
  if (field.format !== 'tokenAmount') return { path, label, format: field.format }
  const { token, tokenPath, threshold } = field.params
  const limit = threshold?.startsWith('$.') ? valueAt(threshold, { args: {}, envelope: {}, document }) : threshold
  return {
    path,
    label,
    format: 'tokenAmount',
    tokenPath: token ?? tokenPath,
    ...(typeof limit === 'string' || typeof limit === 'number' ? { threshold: BigInt(limit) } : {}),
  }
}

/**
 * Validates an ERC-7730 calldata descriptor a site provides; a descriptor outside the supported subset is a
 * ValidationError ('INVALID_MESSAGE') whose `field` names the first bad field, e.g.
 * `display.formats.transfer(address to,uint256 amount).fields.1.format`.
 * @example const descriptor = parseErc7730Descriptor(json)
 */
export function parseErc7730Descriptor(value: unknown): Erc7730Descriptor {
  const document = parseOrThrow(descriptorSchema, value, 'ERC-7730 descriptor')
  const formats = new Map<Hex, DescriptorFormat>()
  for (const [signature, format] of Object.entries(document.display.formats)) {
    const abi = parseAbiItem(`function ${signature}`) as AbiFunction
    formats.set(toFunctionSelector(abi), { abi, intent: format.intent, fields: format.fields.map((field) => toFieldSpec(field, document)), document })
  }
  const deployments = document.context.contract.deployments.map(({ chainId, address }) => ({ chainId, address: getAddress(address) }))
  return { deployments, formats }
}

/** The format a descriptor gives a call, when one is bound to this chain and contract. */
export function descriptorFormatFor(descriptors: readonly Erc7730Descriptor[], { chainId, to, selector }: { chainId: number; to: Address; selector: Hex }) {
  for (const descriptor of descriptors) {
    const isDeployedHere = descriptor.deployments.some((d) => d.chainId === chainId && d.address.toLowerCase() === to.toLowerCase())
    const format = isDeployedHere ? descriptor.formats.get(selector) : undefined
    if (format) return format
  }
  return undefined
}
