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

type Issue = { readonly code?: string; readonly path: readonly PropertyKey[]; readonly message: string; readonly errors?: readonly (readonly Issue[])[] }

/**
 * A failed parse's issues as `path` and `message`. A union that no option took is narrowed to the one option whose
 * top-level literals matched, so a network with `chainNamespace: 'eip155'` is told what is wrong as an EVM network:
 * `networks.0.blockTime: Invalid input…` rather than `networks.0: Invalid input`.
 */
export function issuesOf(error: { readonly issues: readonly Issue[] }, pathPrefix: readonly PropertyKey[] = []): { path: string; message: string }[] {
  return error.issues.flatMap((issue) => {
    const path = [...pathPrefix, ...issue.path]
    const matching = issue.code === 'invalid_union' ? (issue.errors ?? []).filter((option) => !option.some((i) => i.code === 'invalid_value' && i.path.length === 1)) : []
    if (matching.length === 1 && matching[0]!.length > 0) return issuesOf({ issues: matching[0]! }, path)
    return [{ path: path.map(String).join('.'), message: issue.message }]
  })
}

/**
 * Parses `value` at a trust boundary. A failure is a ValidationError ('INVALID_MESSAGE') whose `field` and
 * details name the failing field, e.g. `payload.email: Invalid email address`.
 */
export function parseOrThrow<S extends z.ZodMiniType>(schema: S, value: unknown, what: string, pathPrefix: readonly string[] = []): z.infer<S> {
  const result = safeParse(schema, value)
  if (result.success) return result.data
  const issues = issuesOf(result.error, pathPrefix).map(({ path, message }) => ({ path: path || '(root)', message }))
  throw createWidgetError('INVALID_MESSAGE', {
    field: issues[0]?.path,
    details: `${what}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
  }) as ValidationError
}
