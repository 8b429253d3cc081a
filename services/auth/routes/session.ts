import { Hono } from 'hono'
import * as z from 'zod/mini'
import { text, validate } from '../../api/routes/validate'
import { findSession, userView } from '../accounts'
import type { AuthDeps, AuthEnv } from '../deps'
import { AuthRefusal } from '../errors'
import { hashToken } from '../secrets'

/**
 * The session and what it unlocks: who is signed in, sign-out, and the auth share (one opaque blob per user, written
 * once by the frame at sign-up, given back only to a live session of that user).
 */
export function sessionRoutes(deps: AuthDeps) {
  const { config, limits, now } = deps
  const { db } = config
  const app = new Hono<AuthEnv>()
  // base64url of at most authShareBytes bytes.
  const share = text({ max: Math.ceil((limits.authShareBytes * 4) / 3), min: 1, pattern: /^[A-Za-z0-9_-]+$/, patternMessage: 'Expected base64url' }).check(
    z.refine((value) => value.length % 4 !== 1, 'is not valid base64url'),
    z.refine((value) => Buffer.from(value, 'base64url').length <= limits.authShareBytes, `must decode to at most ${limits.authShareBytes} bytes`),
  )

  app.get('/v1/session', async (c) => {
    const session = await deps.requireSession(c)
    return c.json({ user: await userView(db, session.user_id, session.auth_provider), projectId: session.project_id, expiresAt: Number(session.expires_at) })
  })

  // Always 204: signing out twice, or with a token that already ended, is not an error.
  app.post('/v1/session/sign-out', async (c) => {
    const token = /^Bearer ([A-Za-z0-9_-]{43})$/.exec(c.req.header('authorization') ?? '')?.[1]
    if (token && (await findSession(db, { token, origin: c.get('origin'), projectId: c.get('projectId'), nowMs: now() }))) {
      await db.query('delete from auth_sessions where token_hash = $1', [hashToken(token)])
    }
    return c.body(null, 204)
  })

  app.put('/v1/auth-share', async (c) => {
    const body = await validate(c, 'json', z.object({ share }))
    if (!body.ok) return body.response
    const session = await deps.requireSession(c)
    const nowMs = now()
    const stored = await db.query('insert into auth_shares (user_id, share, created_at) values ($1, $2, $3) on conflict (user_id) do nothing returning user_id', [session.user_id, body.data.share, nowMs])
    if (!stored.length) throw new AuthRefusal('AUTH_SHARE_EXISTS')
    return c.json({ createdAt: nowMs }, 201)
  })

  app.get('/v1/auth-share', async (c) => {
    const session = await deps.requireSession(c)
    const [row] = await db.query<{ share: string; created_at: number }>('select share, created_at from auth_shares where user_id = $1', [session.user_id])
    // A new account has none yet: an answer, not an error (the frame then offers to create the wallet).
    if (!row) return c.json({ share: null, createdAt: null })
    return c.json({ share: row.share, createdAt: Number(row.created_at) })
  })

  return app
}
