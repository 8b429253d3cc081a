import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FRAME_ORIGIN, OTHER_FRAME_ORIGIN, OTHER_PROJECT_ID, startAuthTestbed, type AuthTestbed } from './testing/startAuthTestbed'

let bed: AuthTestbed
let count = 0
const newAddress = () => `session${++count}-${Date.now()}@example.test`
/** An auth share as the frame would send it: random bytes, base64url. */
const newShare = (bytes = 64) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url')

beforeAll(async () => {
  bed = await startAuthTestbed({ withIdentityProviders: false, limits: { sessionsPerUser: 3 } })
}, 60_000)
afterAll(async () => {
  await bed?.stop()
})

describe('sessions', () => {
  it('are bound to the frame origin and the project they were opened for', async () => {
    const { token } = await bed.signUpByEmail(newAddress())
    expect((await bed.call('/v1/session', { token })).status).toBe(200)
    const elsewhere = await bed.call('/v1/session', { token, origin: OTHER_FRAME_ORIGIN })
    expect(elsewhere).toMatchObject({ status: 401, json: { error: { code: 'AUTH_SESSION_EXPIRED', message: 'Your session has ended. Please sign in again' } } })
    expect((await bed.call('/v1/session', { token, projectId: OTHER_PROJECT_ID })).status).toBe(401)
  })

  it('end on sign-out, and sign-out is idempotent', async () => {
    const { token } = await bed.signUpByEmail(newAddress())
    expect((await bed.call('/v1/session/sign-out', { token, method: 'POST' })).status).toBe(204)
    expect((await bed.call('/v1/session', { token })).status).toBe(401)
    expect((await bed.call('/v1/session/sign-out', { token, method: 'POST' })).status).toBe(204)
    expect((await bed.call('/v1/session/sign-out', { method: 'POST' })).status).toBe(204)
  })

  it('end after their lifetime (30 days)', async () => {
    const { token } = await bed.signUpByEmail(newAddress())
    bed.advance(30 * 24 * 3_600_000)
    expect((await bed.call('/v1/session', { token })).json.error).toMatchObject({ code: 'AUTH_SESSION_EXPIRED' })
  })

  it('are at most a few per user: the oldest ends first', async () => {
    const email = newAddress()
    const first = await bed.signUpByEmail(email)
    const tokens = [first.token]
    for (let i = 0; i < 3; i++) {
      bed.advance(30_000)
      const start = await bed.call('/v1/email/start', { body: { email }, device: first.device })
      tokens.push((await bed.call('/v1/email/verify', { body: { flowId: start.json.flowId, otp: await bed.latestCode(email) }, device: first.device })).json.token as string)
    }
    const live = await Promise.all(tokens.map(async (token) => (await bed.call('/v1/session', { token })).status))
    expect(live).toEqual([401, 200, 200, 200])
  })

  it('refuse a malformed or unknown bearer token the same way', async () => {
    for (const authorization of ['Bearer nope', `Bearer ${'A'.repeat(43)}`, 'Basic abc', `Bearer ${'A'.repeat(43)} extra`]) {
      expect((await bed.call('/v1/session', { headers: { authorization } })).json.error).toMatchObject({ code: 'AUTH_SESSION_EXPIRED' })
    }
  })
})

describe('the auth share', () => {
  it('is written once, and given back to a live session of its user only', async () => {
    const owner = await bed.signUpByEmail(newAddress())
    const share = newShare()
    expect(await bed.call('/v1/auth-share', { token: owner.token })).toMatchObject({ status: 200, json: { share: null, createdAt: null } })
    const stored = await bed.call('/v1/auth-share', { token: owner.token, method: 'PUT', body: { share } })
    expect(stored).toMatchObject({ status: 201, json: { createdAt: expect.any(Number) } })
    const again = await bed.call('/v1/auth-share', { token: owner.token, method: 'PUT', body: { share: newShare() } })
    expect(again).toMatchObject({ status: 409, json: { error: { code: 'AUTH_SHARE_EXISTS', message: 'This account already has its key share' } } })
    expect((await bed.call('/v1/auth-share', { token: owner.token })).json).toMatchObject({ share })

    // Without a session, with another user's session, or after sign-out: never the share.
    expect((await bed.call('/v1/auth-share')).status).toBe(401)
    const other = await bed.signUpByEmail(newAddress())
    expect((await bed.call('/v1/auth-share', { token: other.token })).json).toMatchObject({ share: null })
    expect((await bed.call('/v1/auth-share', { token: owner.token, origin: OTHER_FRAME_ORIGIN })).status).toBe(401)
    await bed.call('/v1/session/sign-out', { token: owner.token, method: 'POST' })
    expect((await bed.call('/v1/auth-share', { token: owner.token })).status).toBe(401)
  })

  it('is bounded: at most 8 KiB once decoded, base64url only', async () => {
    const { token } = await bed.signUpByEmail(newAddress())
    const tooBig = await bed.call('/v1/auth-share', { token, method: 'PUT', body: { share: newShare(8 * 1024 + 1) } })
    expect(tooBig).toMatchObject({ status: 400, json: { error: { code: 'INVALID_INPUT', field: 'share' } } })
    for (const share of ['', 'not base64!', 'A', { nested: true }]) {
      expect((await bed.call('/v1/auth-share', { token, method: 'PUT', body: { share } })).json.error).toMatchObject({ field: 'share' })
    }
    expect((await bed.call('/v1/auth-share', { token, method: 'PUT', body: { share: newShare(8 * 1024) } })).status).toBe(201)
  })
})

describe('CORS: the frame’s exact origins only', () => {
  it('answers a preflight from the frame with its exact origin, and refuses any other', async () => {
    const preflight = (origin: string) => fetch(`${bed.auth.url}/v1/email/start?projectId=auth-test-project`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-tessera-device' } })
    const allowed = await preflight(FRAME_ORIGIN)
    expect(allowed.status).toBe(204)
    expect(Object.fromEntries(['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers'].map((h) => [h, allowed.headers.get(h)]))).toEqual({
      'access-control-allow-origin': FRAME_ORIGIN,
      'access-control-allow-methods': 'GET, POST, PUT',
      'access-control-allow-headers': 'content-type, authorization, x-tessera-device',
    })
    expect(allowed.headers.get('access-control-allow-credentials')).toBeNull()
    for (const origin of ['http://127.0.0.1:3000', 'http://127.0.0.1:51740', `${FRAME_ORIGIN}.evil.example`, 'null', FRAME_ORIGIN.replace('http:', 'https:')]) {
      const refused = await preflight(origin)
      expect(refused.status).toBe(403)
      expect(refused.headers.get('access-control-allow-origin')).toBeNull()
    }
  })

  it('refuses calls from any other page, or with no Origin, and lets the frame read its refusals', async () => {
    const foreign = await bed.call('/v1/email/start', { body: { email: newAddress() }, origin: 'http://127.0.0.1:3000', device: 'A'.repeat(43) })
    expect(foreign).toMatchObject({ status: 403, json: { error: { code: 'ORIGIN_NOT_ALLOWED', field: 'origin' } } })
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull()
    expect((await bed.call('/v1/session', { origin: null })).json.error).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' })
    // A refusal to the frame carries the frame's origin, so the frame can show why.
    const refused = await bed.call('/v1/session')
    expect(refused.status).toBe(401)
    expect(refused.headers.get('access-control-allow-origin')).toBe(FRAME_ORIGIN)
    expect(refused.headers.get('vary')).toBe('origin')
    expect(refused.headers.get('cache-control')).toBe('no-store')
  })

  it('needs a known project', async () => {
    expect((await bed.call('/v1/session', { projectId: null })).json.error).toMatchObject({ code: 'PROJECT_ID_MISSING', field: 'projectId' })
    expect((await bed.call('/v1/session', { projectId: 'someone-else' })).json.error).toMatchObject({ code: 'UNKNOWN_PROJECT', field: 'projectId' })
  })
})

describe('the auth tables', () => {
  it('share the data service’s database under names of their own', async () => {
    const tables = (await bed.db.query<{ table_name: string }>("select table_name from information_schema.tables where table_schema = 'public' order by table_name")).map((r) => r.table_name)
    const auth = tables.filter((t) => t.startsWith('auth_'))
    expect(auth).toEqual(['auth_devices', 'auth_email_flows', 'auth_email_sends', 'auth_identities', 'auth_login_flows', 'auth_rate_windows', 'auth_schema_migrations', 'auth_secrets', 'auth_sessions', 'auth_shares', 'auth_users'])
    expect(tables).toEqual(expect.arrayContaining(['schema_migrations', 'sessions', 'names']))
  })
})
