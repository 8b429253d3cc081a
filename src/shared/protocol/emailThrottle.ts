import { EMAIL_LOGIN_COOLDOWN_MS } from './constants'
import { createWidgetError } from './errors'

/**
 * The e-mail login throttle (SPEC §5): a second login within 30 s fails with 'Please try again after {n} seconds',
 * n the seconds remaining, rounded up. Throws that error, or returns when a login may go ahead.
 */
export function checkEmailLoginThrottle({ lastLoginAtMs, nowMs }: { lastLoginAtMs: number | undefined; nowMs: number }) {
  if (lastLoginAtMs === undefined) return
  const remainingMs = lastLoginAtMs + EMAIL_LOGIN_COOLDOWN_MS - nowMs
  if (remainingMs > 0) throw createWidgetError('EMAIL_LOGIN_THROTTLED', { params: { n: Math.ceil(remainingMs / 1_000) } })
}
