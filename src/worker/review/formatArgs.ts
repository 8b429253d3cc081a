import { getAddress, isAddress, type AbiParameter, type Address, type Hex } from 'viem'
import type { ReviewRow, ReviewValue } from '../../shared/protocol/review'
import { isUnlimitedAmount } from './isUnlimitedAmount'

/**
 * How one argument is shown, in ERC-7730's terms: `tokenPath` says which token an amount is of, as a path (`path.[-1]`,
 * `@.to`, `details.[].token`, `$.metadata.constants.token`) or an address.
 */
export type FieldFormat =
  | { format: 'tokenAmount'; tokenPath?: string; threshold?: bigint }
  | { format: 'nativeAmount' }
  | { format: 'date' }
  /** ERC-7730's address with the kinds it may be: one of `token` is shown as a token (its symbol read from the chain). */
  | { format: 'addressName'; types?: readonly string[] }
  | { format: 'raw' }

/** A field of a descriptor or of the bundled table: a path into the arguments, its label and its format. */
export type FieldSpec = { path: string; label?: string } & FieldFormat

/**
 * Where paths resolve (ERC-7730): `#.a.b` or `a.b` in the arguments, `@.to`/`@.from`/`@.value` in the transaction,
 * `$.a.b` in the descriptor document. `.[n]` indexes an array, from its end when negative.
 */
export type PathRoots = {
  args: Record<string, unknown>
  envelope: { to?: Address; from?: Address; value?: bigint }
  document?: unknown
}

const INDEX = /^\[(-?\d+)\]$/

const rootOf = (path: string, roots: PathRoots): [unknown, string] => {
  if (path.startsWith('@.')) return [roots.envelope, path.slice(2)]
  if (path.startsWith('$.')) return [roots.document, path.slice(2)]
  return [roots.args, path.startsWith('#.') ? path.slice(2) : path]
}

const step = (value: unknown, segment: string): unknown => {
  if (value === null || typeof value !== 'object') return undefined
  const index = INDEX.exec(segment)
  if (index && Array.isArray(value)) {
    const n = Number(index[1])
    return value[n < 0 ? value.length + n : n]
  }
  return (value as Record<string, unknown>)[segment]
}

/** The value a path points at, or undefined. */
export function valueAt(path: string, roots: PathRoots): unknown {
  const [root, rest] = rootOf(path, roots)
  return rest === '' ? root : rest.split('.').reduce(step, root)
}

/** The argument paths a field path stands for: `[]` expanded to every index, `[-1]` to the last one. */
export function concretePaths(path: string, args: Record<string, unknown>): string[] {
  let found: { path: string[]; value: unknown }[] = [{ path: [], value: args }]
  for (const segment of (path.startsWith('#.') ? path.slice(2) : path).split('.')) {
    found = found.flatMap(({ path: at, value }) => {
      if (segment === '[]') return Array.isArray(value) ? value.map((item, i) => ({ path: [...at, `[${i}]`], value: item })) : []
      const index = INDEX.exec(segment)
      const n = Number(index?.[1])
      const resolved = index && Array.isArray(value) ? `[${n < 0 ? value.length + n : n}]` : segment
      const next = step(value, resolved)
      return next === undefined ? [] : [{ path: [...at, resolved], value: next }]
    })
  }
  return found.map(({ path: at }) => at.join('.'))
}

type Leaf = { path: string; type: string; value: unknown }

/** Nested tuples and arrays flattened to leaves, each with its path (`ops.[0].sender`). */
export function flattenArgs(params: readonly AbiParameter[], values: Record<string, unknown>, prefix = ''): Leaf[] {
  return params.flatMap((param, i) => {
    const name = param.name || String(i)
    return flattenValue(param, values[name], `${prefix}${name}`)
  })
}

function flattenValue(param: AbiParameter, value: unknown, path: string): Leaf[] {
  const array = /\[\d*\]$/.exec(param.type)
  if (array) {
    const element = { ...param, type: param.type.slice(0, array.index) }
    return Array.isArray(value) ? value.flatMap((item, i) => flattenValue(element, item, `${path}.[${i}]`)) : []
  }
  if (param.type === 'tuple' && 'components' in param) {
    const fields = Array.isArray(value) ? Object.fromEntries(param.components.map((c, i) => [c.name || String(i), value[i]])) : (value as Record<string, unknown>)
    return flattenArgs(param.components, fields ?? {}, `${path}.`)
  }
  return [{ path, type: param.type, value }]
}

/** The arguments of a decoded call as named values: viem gives them as an array. */
export const argsByName = (params: readonly AbiParameter[], values: readonly unknown[]): Record<string, unknown> =>
  Object.fromEntries(params.map((param, i) => [param.name || String(i), values[i]]))

const toBigInt = (value: unknown) => {
  try {
    return BigInt(value as bigint | string | number)
  } catch {
    return undefined
  }
}

/** A value shown as its type says, with no format. */
export function plainValue(type: string, value: unknown): ReviewValue {
  if (type === 'address' && typeof value === 'string' && isAddress(value, { strict: false })) return { kind: 'address', address: getAddress(value) }
  if (type === 'bool') return { kind: 'bool', value: Boolean(value) }
  const number = /^u?int\d*$/.test(type) ? toBigInt(value) : undefined
  if (number !== undefined) return { kind: 'number', value: number }
  if (type.startsWith('bytes') && typeof value === 'string') return { kind: 'bytes', value: value as Hex }
  return { kind: 'text', value: String(value) }
}

function formattedValue(leaf: Leaf, field: FieldSpec, concreteField: string, roots: PathRoots): ReviewValue {
  if (field.format === 'addressName' && field.types?.includes('token') && leaf.type === 'address' && typeof leaf.value === 'string' && isAddress(leaf.value, { strict: false }))
    return { kind: 'token', token: { address: getAddress(leaf.value) } }
  const amount = toBigInt(leaf.value)
  if (amount === undefined || field.format === 'raw' || field.format === 'addressName') return plainValue(leaf.type, leaf.value)
  if (field.format === 'nativeAmount') return { kind: 'nativeAmount', amount }
  if (field.format === 'date') return { kind: 'date', timestamp: amount }
  // `[]` in the token's path stands for the indices the field's own `[]` took here.
  const generic = field.path.replace(/^#\./, '').split('.')
  const indices = concreteField.split('.').filter((_, i) => generic[i] === '[]')
  const tokenPath = field.tokenPath?.replace(/\[\]/g, () => indices.shift() ?? '[]')
  const token = tokenPath === undefined || isAddress(tokenPath, { strict: false }) ? tokenPath : valueAt(tokenPath, roots)
  if (typeof token !== 'string' || !isAddress(token, { strict: false })) return plainValue(leaf.type, leaf.value)
  const isUnlimited = field.threshold === undefined ? isUnlimitedAmount(amount, leaf.type) : amount >= field.threshold
  return { kind: 'tokenAmount', token: { address: getAddress(token) }, amount, isUnlimited }
}

export type FormatArgsParameters = {
  params: readonly AbiParameter[]
  roots: PathRoots
  fields?: readonly FieldSpec[]
  /** 'fields': the fields' order first (a descriptor's); 'abi': the ABI's order throughout (the bundled table's). */
  order?: 'abi' | 'fields'
  /** Values that replace a leaf, by path: bytes decoded as calls. */
  replacements?: ReadonlyMap<string, ReviewValue>
}

/**
 * Every argument as a labelled row: a field covers the leaves at or under its path, and gives them its label and
 * format; leaves no field covers are shown as their type says.
 * @example formatArgs({ params: transfer.inputs, roots, fields: [{ path: 'amount', format: 'tokenAmount', tokenPath: '@.to' }] })
 */
export function formatArgs({ params, roots, fields = [], order = 'abi', replacements }: FormatArgsParameters): ReviewRow[] {
  const byPath = new Map<string, { field: FieldSpec; rank: number }>()
  fields.forEach((field, rank) => {
    for (const path of concretePaths(field.path, roots.args)) if (!byPath.has(path)) byPath.set(path, { field, rank })
  })
  const coveringField = (path: string) => {
    for (let segments = path.split('.'); segments.length > 0; segments = segments.slice(0, -1)) {
      const found = byPath.get(segments.join('.'))
      if (found) return { ...found, concrete: segments.join('.') }
    }
    return undefined
  }
  const rows = flattenArgs(params, roots.args).map((leaf) => {
    const covered = coveringField(leaf.path)
    const value = replacements?.get(leaf.path) ?? (covered ? formattedValue(leaf, covered.field, covered.concrete, roots) : plainValue(leaf.type, leaf.value))
    const row: ReviewRow = covered?.field.label ? { path: leaf.path, label: covered.field.label, value } : { path: leaf.path, value }
    return { row, rank: covered?.rank ?? Infinity }
  })
  if (order === 'fields') rows.sort((a, b) => a.rank - b.rank)
  return rows.map(({ row }) => row)
}
