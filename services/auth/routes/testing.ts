import { Hono } from 'hono'
import * as z from 'zod/mini'
import { validate } from '../../api/routes/validate'
import type { AuthDeps, AuthEnv } from '../app'
import { emailAddress } from './email'

/**
 * TEST-ONLY routes of the local stack (AuthConfig `testRoutes`; never on a deployed service): what an end-to-end test
 * cannot wait for in real time.
 * `POST /testing/expire-codes` { email }: the codes of the address's open e-mail flows (a sign-in's code, an e-mail
 * change's codes, whose flows carry the new address) expire now, as they would after their 10 minutes; answers how many.
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
  return app
}
