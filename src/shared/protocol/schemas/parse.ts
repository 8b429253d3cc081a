import type * as z from 'zod/mini'
import { createWidgetError, type ValidationError } from '../errors'

/**
 * Parses `value` at a trust boundary. A failure is a ValidationError ('INVALID_MESSAGE') whose `field` and
 * details name the failing field, e.g. `payload.email: Invalid email address`.
 */
export function parseOrThrow<S extends z.ZodMiniType>(schema: S, value: unknown, what: string, pathPrefix: readonly string[] = []): z.infer<S> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issues = result.error.issues.map((issue) => ({ path: [...pathPrefix, ...issue.path.map(String)].join('.') || '(root)', message: issue.message }))
  throw createWidgetError('INVALID_MESSAGE', {
    field: issues[0]?.path,
    details: `${what}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
  }) as ValidationError
}
