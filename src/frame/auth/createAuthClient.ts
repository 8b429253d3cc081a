import * as z from 'zod/mini'
import { createWidgetError, type WidgetError } from '../../shared/protocol/errors'
import type { ErrorCode } from '../../shared/protocol/errorTable'
import { safeParse } from '../../shared/protocol/schemas/parse'

/** The refusals of the auth service a person can read (services/auth/errors.ts); any other code is the integrator's. */
const personCodes = new Set<ErrorCode>([
  'EMAIL_LOGIN_THROTTLED',
  'AUTH_RATE_LIMITED',
  'AUTH_CODE_INVALID',
  'AUTH_CODE_EXPIRED',
  'AUTH_CODE_ATTEMPTS_EXCEEDED',
  'AUTH_FLOW_EXPIRED',
  'AUTH_SESSION_EXPIRED',
  'AUTH_SHARE_EXISTS',
  'AUTH_EMAIL_UNCHANGED',
  'AUTH_EMAIL_TAKEN',
  'AUTH_EMAIL_NOT_SENT',
  'AUTH_SOCIAL_UNAVAILABLE',
  'AUTH_SOCIAL_FAILED',
  'AUTH_SOCIAL_CANCELLED',
  'AUTH_FARCASTER_FAILED',
])

const errorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.optional(z.string()), params: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))) }),
})
export const authUserSchema = z.object({
  id: z.string().check(z.minLength(1)),
  email: z.nullable(z.string()),
  userName: z.nullable(z.string()),
  authProvider: z.string(),
})
export type AuthUser = z.infer<typeof authUserSchema>
const sessionOpened = z.object({ token: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/)), expiresAt: z.number(), user: authUserSchema })
export type OpenedSession = z.infer<typeof sessionOpened>
const flowAnswer = <T extends readonly [string, ...string[]]>(actions: T) => z.object({ action: z.enum(actions), flowId: z.optional(z.string()) })

export type CreateAuthClientParameters = {
  /** The auth service's base URL (frame config `authUrl`). */
  authUrl: string
  projectId: string
  /** This frame's device id (X-Tessera-Device): random, kept in the frame's own storage. */
  deviceId: () => string
  fetch?: typeof fetch
  /** A call gives up after this; the service's long polls answer within 25 s. */
  timeoutMs?: number
}

export type AuthClient = ReturnType<typeof createAuthClient>

/**
 * The frame's calls to the auth service (services/auth): JSON over fetch from the frame's own origin, the session as a
 * bearer token. A refusal a person can read becomes the WidgetError of its code (with its params, e.g. the throttle's
 * seconds); anything else is SERVICE_UNREACHABLE, SERVICE_TIMEOUT or SERVICE_BAD_RESPONSE, its text kept as details only.
 * @example const auth = createAuthClient({ authUrl, projectId, deviceId }); await auth.emailStart('me@example.com')
 */
export function createAuthClient({ authUrl, projectId, deviceId, fetch: fetchFn = fetch, timeoutMs = 30_000 }: CreateAuthClientParameters) {
  const base = authUrl.replace(/\/$/, '')

  async function call<S extends z.ZodMiniType>(path: string, schema: S, { method = 'POST', body, token }: { method?: string; body?: unknown; token?: string } = {}): Promise<z.infer<S>> {
    const url = `${base}${path}?projectId=${encodeURIComponent(projectId)}`
    let response: Response
    try {
      response = await fetchFn(url, {
        method,
        headers: {
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...(token && { authorization: `Bearer ${token}` }),
          'x-tessera-device': deviceId(),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        credentials: 'omit',
        cache: 'no-store',
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (error) {
      const isTimeout = (error as Error)?.name === 'TimeoutError'
      throw createWidgetError(isTimeout ? 'SERVICE_TIMEOUT' : 'SERVICE_UNREACHABLE', { details: `${method} ${path}`, cause: error })
    }
    const json: unknown = response.status === 204 ? {} : await response.json().catch(() => undefined)
    if (!response.ok) throw toAuthError(json, response.status, `${method} ${path}`)
    const parsed = safeParse(schema, json)
    if (!parsed.success) throw createWidgetError('SERVICE_BAD_RESPONSE', { status: response.status, details: `${method} ${path}: ${parsed.error.issues[0]?.message ?? 'unexpected body'}` })
    return parsed.data
  }

  return {
    /** POST /v1/email/start: VERIFY_DEVICE (a link was mailed), VERIFY_OTP (a code was mailed) or CONNECT (already signed in). */
    emailStart: (email: string, token?: string) => call('/v1/email/start', flowAnswer(['VERIFY_DEVICE', 'VERIFY_OTP', 'CONNECT']), { body: { email }, token }),
    /** POST /v1/email/device/wait: a long poll until the device is approved from the mail (VERIFY_OTP), else VERIFY_DEVICE. */
    deviceWait: (flowId: string) => call('/v1/email/device/wait', flowAnswer(['VERIFY_OTP', 'VERIFY_DEVICE']), { body: { flowId } }),
    /** POST /v1/email/verify: the code opens a session. */
    emailVerify: (flowId: string, otp: string) => call('/v1/email/verify', sessionOpened, { body: { flowId, otp } }),
    emailUpdate: (email: string, token: string) => call('/v1/email/update', flowAnswer(['VERIFY_PRIMARY_OTP', 'VERIFY_SECONDARY_OTP']), { body: { email }, token }),
    emailUpdatePrimary: (flowId: string, otp: string, token: string) => call('/v1/email/update/primary', flowAnswer(['VERIFY_SECONDARY_OTP']), { body: { flowId, otp }, token }),
    emailUpdateSecondary: (flowId: string, otp: string, token: string) => call('/v1/email/update/secondary', z.object({ newEmail: z.string() }), { body: { flowId, otp }, token }),
    /** POST /v1/social/start: the provider's URL for the popup; the result comes back to `returnOrigin` (the page). */
    socialStart: (provider: string, returnOrigin: string) => call('/v1/social/start', z.object({ uri: z.string(), flowId: z.string() }), { body: { provider, returnOrigin } }),
    socialComplete: (flowId: string, uri: string) => call('/v1/social/complete', sessionOpened, { body: { flowId, uri } }),
    farcasterStart: () => call('/v1/farcaster/start', z.object({ url: z.string(), flowId: z.string() })),
    /** A long poll: pending, or the session once the person signed in their Farcaster client. */
    farcasterComplete: (flowId: string) =>
      call('/v1/farcaster/complete', z.union([z.object({ state: z.literal('pending') }), z.extend(sessionOpened, { state: z.literal('completed') })]), { body: { flowId } }),
    session: (token: string) => call('/v1/session', z.object({ user: authUserSchema, expiresAt: z.number() }), { method: 'GET', token }),
    signOut: (token: string) => call('/v1/session/sign-out', z.unknown(), { token }),
    /** The account's auth share, or undefined when it has none yet. */
    getAuthShare: async (token: string): Promise<string | undefined> => (await call('/v1/auth-share', z.object({ share: z.nullable(z.string()) }), { method: 'GET', token })).share ?? undefined,
    putAuthShare: (share: string, token: string) => call('/v1/auth-share', z.unknown(), { method: 'PUT', body: { share }, token }),
  }
}

/** The auth service's refusal as a WidgetError: its code when a person can read it, else SERVICE_BAD_RESPONSE. */
function toAuthError(json: unknown, status: number, what: string): WidgetError {
  const parsed = safeParse(errorBodySchema, json)
  if (parsed.success && personCodes.has(parsed.data.error.code as ErrorCode)) {
    return createWidgetError(parsed.data.error.code as ErrorCode, { params: parsed.data.error.params, status, details: what })
  }
  const message = parsed.success ? `${parsed.data.error.code}: ${parsed.data.error.message ?? ''}` : `HTTP ${status}`
  return createWidgetError('SERVICE_BAD_RESPONSE', { status, details: `${what}: ${message.slice(0, 300)}` })
}
