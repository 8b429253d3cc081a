import { config } from 'zod/mini'
import type * as z from 'zod/mini'
import { createWidgetError, type ValidationError } from '../errors'

// Every parse of a Tessera schema, on the page and in the workers, goes through this module, so zod is set up here
// before the first one: jitless, zod never tries `new Function` (its JIT probe), which a strict CSP reports as a
// violation even when the error is caught.
config({ jitless: true })

/**
 * Parses `value` with `schema` without throwing, zod configured for strict CSPs. Use it (or parseOrThrow) rather than
 * `schema.safeParse`.
 * @example const parsed = safeParse(balanceResponseSchema, json); if (parsed.success) use(parsed.data)
 */
export function safeParse<S extends z.ZodMiniType>(schema: S, value: unknown) {
  return schema.safeParse(value)
}

/**
 * Parses `value` at a trust boundary. A failure is a ValidationError ('INVALID_MESSAGE') whose `field` and
 * details name the failing field, e.g. `payload.email: Invalid email address`.
 */
export function parseOrThrow<S extends z.ZodMiniType>(schema: S, value: unknown, what: string, pathPrefix: readonly string[] = []): z.infer<S> {
  const result = safeParse(schema, value)
  if (result.success) return result.data
  const issues = result.error.issues.map((issue) => ({ path: [...pathPrefix, ...issue.path.map(String)].join('.') || '(root)', message: issue.message }))
  throw createWidgetError('INVALID_MESSAGE', {
    field: issues[0]?.path,
    details: `${what}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
  }) as ValidationError
}
