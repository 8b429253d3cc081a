import type { Context } from 'hono'
import type { SessionRow } from './accounts'
import type { AuthConfig, AuthLimits, AuthProvider } from './config'
import type { OutgoingMail } from './mailer'
import type { CodeHasher } from './secrets'

export type AuthEnv = { Variables: { ip: string; origin: string; projectId: string } }

/** What every route shares: configuration, database, clock, and the checks that refuse with a person's sentence. */
export type AuthDeps = {
  config: AuthConfig
  limits: AuthLimits
  now: () => number
  log: (line: string) => void
  hasher: CodeHasher
  /** The session the request's bearer token opens for its origin and project; refuses with AUTH_SESSION_EXPIRED. */
  requireSession: (c: Context<AuthEnv>) => Promise<SessionRow>
  optionalSession: (c: Context<AuthEnv>) => Promise<SessionRow | undefined>
  openSession: (c: Context<AuthEnv>, userId: string, authProvider: AuthProvider) => Promise<{ token: string; expiresAt: number }>
  /** The rate allowance, then the spec's 30 s throttle, for a code e-mail to `email`; answers the slot's release. */
  throttleEmail: (c: Context<AuthEnv>, email: string, purpose: 'login' | 'change') => Promise<() => Promise<void>>
  countAttempt: (c: Context<AuthEnv>, kind: 'verify' | 'loginStart') => Promise<void>
  /** Sends a mail or refuses with AUTH_EMAIL_NOT_SENT (the cause goes to the log). */
  sendMail: (mail: OutgoingMail) => Promise<void>
  /**
   * Calls `step` until it is done, every `pollIntervalMs`, for at most `longPollMs` (or until the client leaves):
   * undefined when it is still not done. At most `maxWaiters` polls wait at once; others get one step.
   */
  longPoll: <T>(c: Context<AuthEnv>, step: () => Promise<{ done: true; value: T } | { done: false }>) => Promise<T | undefined>
}
