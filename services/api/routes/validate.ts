import type { Context } from 'hono'
import * as z from 'zod/mini'
import { errorBody } from '../config'

/** Parses query or JSON body with a schema; on failure answers 400 naming the field. */
export async function validate<S extends z.ZodMiniType>(c: Context, source: 'query' | 'json', schema: S): Promise<{ ok: true; data: z.infer<S> } | { ok: false; response: Response }> {
  let input: unknown
  if (source === 'query') input = c.req.query()
  else {
    try {
      input = await c.req.json()
    } catch {
      return { ok: false, response: c.json(errorBody('INVALID_JSON', 'The request body is not valid JSON', 'body'), 400) }
    }
  }
  const parsed = schema.safeParse(input)
  if (parsed.success) return { ok: true, data: parsed.data }
  const issue = parsed.error.issues[0]!
  const field = issue.path.map(String).join('.') || source
  return { ok: false, response: c.json(errorBody('INVALID_INPUT', `${field}: ${issue.message}`, field), 400) }
}

export const evmAddress = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'Expected a 0x address of 40 hex digits'))
export const eip155ChainId = z.string().check(z.regex(/^eip155:\d+$/, 'Expected an eip155 CAIP-2 network id'))
