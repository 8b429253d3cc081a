import { Hono } from 'hono'
import * as z from 'zod/mini'
import { validate } from '../../api/routes/validate'
import type { AuthDeps, AuthEnv } from '../deps'
import { emailAddress } from './email'

/**
 * TEST-ONLY routes of the local stack (AuthConfig `testRoutes`; never on a deployed service): what an end-to-end test
 * cannot wait for in real time.
 * `POST /testing/expire-codes` { email }: the codes of the address's open e-mail flows (a sign-in's code, an e-mail
 * change's codes, whose flows carry the new address) expire now, as they would after their 10 minutes; answers how many.
 * `POST /testing/end-email-cooldown` { email }: the address may be sent a code again now, as after its 30 s (SPEC §9);
 * answers how many cooldowns (one per purpose: sign-in, e-mail change) ended.
 */
export function testingRoutes(deps: AuthDeps) {
  const app = new Hono<AuthEnv>()
  app.post('/testing/expire-codes', async (c) => {
    const body = await validate(c, 'json', z.object({ email: emailAddress }))
    if (!body.ok) return body.response
    const expired = await deps.config.db.query(
      "update auth_email_flows set expires_at = $2 where email = $1 and step in ('otp', 'primary', 'secondary') and expires_at > $2 returning id",
      [body.data.email.trim().toLowerCase(), deps.now()],
    )
    return c.json({ expired: expired.length })
  })
  app.post('/testing/end-email-cooldown', async (c) => {
    const body = await validate(c, 'json', z.object({ email: emailAddress }))
    if (!body.ok) return body.response
    const email = body.data.email.trim().toLowerCase()
    const ended = await deps.config.db.query('delete from auth_email_sends where key in ($1, $2) returning key', [`login:${email}`, `change:${email}`])
    return c.json({ ended: ended.length })
  })
  return app
}
