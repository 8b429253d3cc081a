import type { Context } from 'hono'
import * as z from 'zod/mini'
import { errorBody } from '../config'

/** PostgreSQL's `integer` and `bigint` ranges: a number outside them is refused here, never by the database. */
export const PG_INTEGER_MAX = 2_147_483_647
export const PG_BIGINT_MAX = 9_223_372_036_854_775_807n
/** The latest instant a JavaScript Date can hold, in ms (the database's timestamps reach further). */
export const MAX_TIMESTAMP_MS = 8_640_000_000_000_000
/** Deepest JSON any request may send; a route's own schema may allow less. */
export const MAX_JSON_DEPTH = 16

const hasNul = (value: string) => value.includes('\u0000')
// With the u flag a paired surrogate is one code point, so \p{Cs} matches only the lone halves.
const LONE_SURROGATE = /\p{Cs}/u

/** A field path as shown in errors: plain keys as they are, any other key quoted and cut, so no hostile key is echoed raw. */
export const fieldPath = (path: readonly PropertyKey[]) =>
  path.map((key) => (typeof key === 'number' || /^[\w$-]{1,64}$/.test(String(key)) ? String(key) : JSON.stringify(String(key).slice(0, 32)))).join('.')

/** Why a string cannot be stored (PostgreSQL refuses NUL in text and jsonb, and lone surrogates in jsonb), or undefined. */
export const unstorableText = (value: string) =>
  hasNul(value) ? 'must not contain NUL characters' : LONE_SURROGATE.test(value) ? 'must not contain lone UTF-16 surrogates' : undefined

/**
 * Walks parsed input (query, path params or JSON) and finds the first value no route may accept: a string or key that
 * cannot be stored, a number JSON parsed to ±Infinity (1e400), or nesting deeper than {@link MAX_JSON_DEPTH}.
 * Every route that goes through {@link validate} gets this check whatever its schema says.
 * @example findUnsafeInput({ a: 1e400 }) // { path: ['a'], message: 'must be a finite number' }
 */
export function findUnsafeInput(value: unknown, path: PropertyKey[] = []): { path: PropertyKey[]; message: string } | undefined {
  if (typeof value === 'string') {
    const problem = unstorableText(value)
    return problem ? { path, message: problem } : undefined
  }
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : { path, message: 'must be a finite number' }
  if (typeof value !== 'object' || value === null) return undefined
  if (path.length >= MAX_JSON_DEPTH) return { path, message: `nests deeper than ${MAX_JSON_DEPTH} levels` }
  for (const [key, item] of Object.entries(value)) {
    const keyProblem = Array.isArray(value) ? undefined : unstorableText(key)
    if (keyProblem) return { path, message: `a key ${keyProblem}` }
    const found = findUnsafeInput(item, [...path, Array.isArray(value) ? Number(key) : key])
    if (found) return found
  }
  return undefined
}

/** The 400 answer naming a field: `fallback` when the path is empty (the whole body, query or params). */
export const invalidInput = (c: Context, path: readonly PropertyKey[], message: string, fallback = 'body') => {
  const field = fieldPath(path) || fallback
  return c.json(errorBody('INVALID_INPUT', `${field}: ${message}`, field), 400)
}

/**
 * Parses query, path params or JSON body with a schema; on failure answers 400 naming the field. Before the schema,
 * {@link findUnsafeInput} refuses what no route can store, so a new route is safe from NUL, lone surrogates, ±Infinity
 * and deep nesting by default.
 * @example const query = await validate(c, 'query', z.object({ chainId: eip155ChainId })); if (!query.ok) return query.response
 */
export async function validate<S extends z.ZodMiniType>(c: Context, source: 'query' | 'param' | 'json', schema: S): Promise<{ ok: true; data: z.infer<S> } | { ok: false; response: Response }> {
  let input: unknown
  if (source === 'query') input = c.req.query()
  else if (source === 'param') input = c.req.param()
  else {
    try {
      input = await c.req.json()
    } catch {
      return { ok: false, response: c.json(errorBody('INVALID_JSON', 'The request body is not valid JSON', 'body'), 400) }
    }
  }
  const fallback = source === 'json' ? 'body' : source
  const unsafe = findUnsafeInput(input)
  if (unsafe) return { ok: false, response: invalidInput(c, unsafe.path, unsafe.message, fallback) }
  const parsed = schema.safeParse(input)
  if (parsed.success) return { ok: true, data: parsed.data }
  const issue = parsed.error.issues[0]!
  return { ok: false, response: invalidInput(c, issue.path, issue.message, fallback) }
}

/**
 * Checks a request's URL before any route sees it: every path segment and query key and value must be valid
 * percent-encoded UTF-8 without NUL, and the project id at most 128 characters. Answers the problem, or undefined.
 */
export function findUnsafeUrl(url: string): { field: string; message: string } | undefined {
  const { pathname, search } = new URL(url)
  for (const segment of pathname.split('/')) {
    let decoded: string
    try {
      decoded = decodeURIComponent(segment)
    } catch {
      return { field: 'path', message: 'is not valid percent-encoded UTF-8' }
    }
    const problem = unstorableText(decoded)
    if (problem) return { field: 'path', message: problem }
  }
  for (const pair of search.slice(1).split('&')) {
    if (!pair) continue
    const [rawKey = '', rawValue = ''] = pair.replace(/\+/g, ' ').split(/=(.*)/s)
    let key: string
    let value: string
    try {
      key = decodeURIComponent(rawKey)
    } catch {
      return { field: 'query', message: 'a parameter name is not valid percent-encoded UTF-8' }
    }
    const keyProblem = unstorableText(key)
    if (keyProblem) return { field: 'query', message: `a parameter name ${keyProblem}` }
    const field = fieldPath([key])
    try {
      value = decodeURIComponent(rawValue)
    } catch {
      return { field, message: 'is not valid percent-encoded UTF-8' }
    }
    const problem = unstorableText(value)
    if (problem) return { field, message: problem }
    if (key === 'projectId' && value.length > 128) return { field, message: 'must be at most 128 characters' }
  }
  return undefined
}

/**
 * A string every route accepts only through this: at most `max` characters (required, so no string is unbounded),
 * no NUL and no lone surrogate, optionally at least `min` and matching `pattern`.
 * @example text({ max: 64, pattern: /^[a-z]+$/, patternMessage: 'Expected lowercase letters' })
 */
export const text = ({ max, min = 0, pattern, patternMessage = 'Invalid format' }: { max: number; min?: number; pattern?: RegExp; patternMessage?: string }) =>
  z.string().check(
    z.refine((value) => !hasNul(value), 'must not contain NUL characters'),
    z.refine((value) => !LONE_SURROGATE.test(value), 'must not contain lone UTF-16 surrogates'),
    z.maxLength(max, `must be at most ${max} characters`),
    ...(min > 0 ? [z.minLength(min, `must be at least ${min} character${min === 1 ? '' : 's'}`)] : []),
    ...(pattern ? [z.regex(pattern, patternMessage)] : []),
  )

/**
 * A JSON integer from `min` to `max`; the default range is PostgreSQL's `integer`, the column type it usually lands in.
 * @example boundedInt({ min: 0 }) // a coin type
 */
export const boundedInt = ({ min = -PG_INTEGER_MAX - 1, max = PG_INTEGER_MAX }: { min?: number; max?: number } = {}) =>
  z.number().check(z.int('must be an integer'), z.gte(min, `must be at least ${min}`), z.lte(max, `must be at most ${max}`))

/**
 * A query-string integer from `min` to `max` (at most 16 digits, so it never rounds), parsed to a number.
 * @example intText({ min: 1, max: 10_000 }) // a page number
 */
export const intText = ({ min, max }: { min: number; max: number }) =>
  z.pipe(text({ max: 17, pattern: /^-?\d{1,16}$/, patternMessage: 'Expected an integer' }), z.pipe(z.transform(Number), boundedInt({ min, max })))

/**
 * Any JSON value, bounded: serialized size in UTF-8 bytes, nesting depth (1 = a flat object) and the number of keys
 * and array items at every level together. Errors name the deepest field that broke a bound.
 * @example z.object({ props: boundedJson({ maxBytes: 8_192, maxDepth: 5, maxEntries: 64 }) })
 */
export const boundedJson = ({ maxBytes, maxDepth, maxEntries }: { maxBytes: number; maxDepth: number; maxEntries: number }) =>
  z.unknown().check(
    z.superRefine((value, ctx) => {
      let entries = 0
      const walk = (item: unknown, path: PropertyKey[]): boolean => {
        if (typeof item !== 'object' || item === null) return true
        if (path.length >= maxDepth) {
          ctx.addIssue({ code: 'custom', message: `nests deeper than ${maxDepth} levels`, path })
          return false
        }
        for (const [key, child] of Object.entries(item)) {
          if (++entries > maxEntries) {
            ctx.addIssue({ code: 'custom', message: `has more than ${maxEntries} keys and items in all`, path })
            return false
          }
          if (!walk(child, [...path, Array.isArray(item) ? Number(key) : key])) return false
        }
        return true
      }
      if (!walk(value, [])) return
      const bytes = Buffer.byteLength(JSON.stringify(value) ?? '')
      if (bytes > maxBytes) ctx.addIssue({ code: 'custom', message: `must serialize to at most ${maxBytes} bytes (got ${bytes})`, path: [] })
    }),
  )

/** A JSON object of at most `maxKeys` keys, each checked by `key` and `value`. */
export const boundedRecord = <V extends z.ZodMiniType>(key: z.ZodMiniString<string>, value: V, { maxKeys }: { maxKeys: number }) =>
  z.record(key, value).check(z.refine((record) => Object.keys(record).length <= maxKeys, `must have at most ${maxKeys} keys`))

export const evmAddress = text({ max: 42, pattern: /^0x[0-9a-fA-F]{40}$/, patternMessage: 'Expected a 0x address of 40 hex digits' })

/** A CAIP-2 eip155 network id whose reference fits PostgreSQL's `integer` (chain ids are stored as one). */
export const eip155ChainId = text({ max: 24, pattern: /^eip155:[1-9]\d{0,15}$/, patternMessage: 'Expected an eip155 CAIP-2 network id' }).check(
  z.refine((value) => Number(value.slice('eip155:'.length)) <= PG_INTEGER_MAX, `Expected a chain id from 1 to ${PG_INTEGER_MAX}`),
)

/** A hex signature: 0x plus hex digits, at most 16 KiB (room for ERC-6492 wrapped smart-account signatures). */
export const hexSignature = text({ max: 16_384, pattern: /^0x[0-9a-fA-F]+$/, patternMessage: 'Expected a hex signature' })

/** A session id as POST /v1/sessions issues them (crypto.randomUUID(), lowercase): for `/v1/sessions/:id` via validate(c, 'param', …). */
export const sessionId = text({ max: 36, pattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, patternMessage: 'Expected a session id' })
