import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { errorTable } from '../../src/shared/protocol/errorTable'

/**
 * The errors a person can meet through the frame, with their HTTP status. Their sentences are the shared error table's
 * (English there, French in src/main/ui/i18n/frErrors.ts), so the frame shows `code` in the person's language.
 */
export const userFacingStatus = {
  EMAIL_LOGIN_THROTTLED: 429,
  AUTH_RATE_LIMITED: 429,
  AUTH_CODE_INVALID: 400,
  AUTH_CODE_EXPIRED: 400,
  AUTH_CODE_ATTEMPTS_EXCEEDED: 400,
  AUTH_FLOW_EXPIRED: 400,
  AUTH_SESSION_EXPIRED: 401,
  AUTH_SHARE_EXISTS: 409,
  AUTH_EMAIL_UNCHANGED: 400,
  AUTH_EMAIL_TAKEN: 409,
  AUTH_EMAIL_NOT_SENT: 502,
  AUTH_SOCIAL_UNAVAILABLE: 503,
  AUTH_SOCIAL_FAILED: 400,
  AUTH_SOCIAL_CANCELLED: 400,
  AUTH_FARCASTER_FAILED: 400,
} as const satisfies Partial<Record<keyof typeof errorTable, number>>

export type UserFacingCode = keyof typeof userFacingStatus

const fill = (template: string, params: Record<string, string | number>) => template.replace(/\{(\w+)\}/g, (match, name: string) => (name in params ? String(params[name]) : match))

/** A refusal the frame shows a person: `{ error: { code, message, params } }` with the table's sentence. */
export function userError(c: Context, code: UserFacingCode, params: Record<string, string | number> = {}, headers: Record<string, string> = {}) {
  const message = fill(errorTable[code].message, params)
  return c.json({ error: { code, message, ...(Object.keys(params).length ? { params } : {}) } }, userFacingStatus[code], headers)
}

/**
 * A refusal meant for whoever deploys or integrates (bad input, unknown project, wrong origin): English, with the field.
 * The frame never shows these sentences; it shows 'An error occurred' for any code it does not know.
 */
export function developerError(c: Context, status: ContentfulStatusCode, code: string, message: string, field?: string) {
  return c.json({ error: { code, message, ...(field ? { field } : {}) } }, status)
}

/** A refusal raised deep in a route and answered by the app's error handler. */
export class AuthRefusal extends Error {
  constructor(
    readonly code: UserFacingCode,
    readonly params: Record<string, string | number> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(code)
  }
}
