import { Hono, type Context } from 'hono'
import * as z from 'zod/mini'
import { isEmail } from '../../../src/shared/protocol/rules'
import { text, validate } from '../../api/routes/validate'
import { findOrCreateEmailUser, findUserIdByEmail, isKnownDevice, rememberDevice, userView } from '../accounts'
import type { AuthDeps, AuthEnv } from '../deps'
import { developerError } from '../errors'
import { AuthRefusal } from '../errors'
import { mailTexts } from '../mailer'
import { escapeHtml, pageSecurityHeaders, renderPage } from '../renderPage'
import { hashToken, randomCode, randomToken } from '../secrets'

/** The same rule as the frame's schema (SPEC §5: e-mail must be valid), compared lowercased. */
export const emailAddress = text({ max: 254 }).check(z.refine(isEmail, 'must be a valid e-mail address'))
const normalizeEmail = (email: string) => email.trim().toLowerCase()
const otp = text({ max: 6, pattern: /^\d{6}$/, patternMessage: 'Expected a 6-digit code' })
export const flowId = text({ max: 43, pattern: /^[A-Za-z0-9_-]{43}$/, patternMessage: 'Expected a flow id' })

/** The frame's device: a random id it keeps in its storage, sent as X-Tessera-Device; kept only as a hash. */
const DEVICE_HEADER = 'x-tessera-device'
const deviceId = /^[A-Za-z0-9_-]{22,128}$/

type FlowKind = 'login' | 'change'
type Step = 'device' | 'otp' | 'primary' | 'secondary' | 'done' | 'dead'
type FlowRow = { id: string; kind: FlowKind; email: string; user_id: string | null; device_hash: string | null; step: Step; code_hash: string | null; attempts: number; expires_at: number; ip: string; created_at: number }

/**
 * E-mail sign-in and e-mail change (README, "Auth service"). Sign-in: a device this address has not signed in on gets
 * a link to approve it first (VERIFY_DEVICE), then a six-digit code (VERIFY_OTP); the answer depends only on the
 * requesting device, so it tells nobody whether an address has an account. Change: a code to the current address
 * (primary), then one to the new address (secondary).
 */
export function emailRoutes(deps: AuthDeps) {
  const { config, limits, now, hasher } = deps
  const { db } = config
  const app = new Hono<AuthEnv>()

  const deviceHashOf = (c: Context<AuthEnv>) => {
    const value = c.req.header(DEVICE_HEADER)
    return value && deviceId.test(value) ? hashToken(value) : undefined
  }
  const missingDevice = (c: Context<AuthEnv>) => developerError(c, 400, 'INVALID_INPUT', `${DEVICE_HEADER}: expected the frame's device id (22 to 128 base64url characters)`, DEVICE_HEADER)

  /** Sends a mail for a flow; a mail that could not go kills the flow and gives the address's throttle slot back. */
  const sendForFlow = async (flow: string, mail: Parameters<AuthDeps['sendMail']>[0], release?: () => Promise<void>) => {
    try {
      await deps.sendMail(mail)
    } catch (error) {
      await db.query("update auth_email_flows set step = 'dead' where id = $1", [flow])
      await release?.()
      throw error
    }
  }

  /**
   * Checks a code of a flow at `step`, then moves it on (`next`, with a fresh code for the secondary step):
   * 1. the flow exists, is of this kind and owner, and is at `step` (else the code is expired or used);
   * 2. it has not expired;
   * 3. one attempt is counted, unless the attempts are used up;
   * 4. the code matches in constant time (else attemptsLeft is said);
   * 5. the move happens only if no other request moved it first (a code works once).
   */
  async function useCode({ id, code, kind, step, deviceHash, userId, next }: { id: string; code: string; kind: FlowKind; step: Step; deviceHash?: string; userId?: string; next: { step: Step; codeHash?: string } }) {
    const [flow] = await db.query<FlowRow>('select * from auth_email_flows where id = $1', [id])
    if (!flow || flow.kind !== kind || flow.step !== step || (deviceHash && flow.device_hash !== deviceHash) || (userId && flow.user_id !== userId) || !flow.code_hash) throw new AuthRefusal('AUTH_CODE_EXPIRED')
    if (Number(flow.expires_at) <= now()) throw new AuthRefusal('AUTH_CODE_EXPIRED')
    const [counted] = await db.query<{ attempts: number }>('update auth_email_flows set attempts = attempts + 1 where id = $1 and step = $2 and attempts < $3 returning attempts', [id, step, limits.codeMaxAttempts])
    if (!counted) throw new AuthRefusal('AUTH_CODE_ATTEMPTS_EXCEEDED')
    if (!hasher.matches(id, code, flow.code_hash)) {
      const attemptsLeft = limits.codeMaxAttempts - Number(counted.attempts)
      if (attemptsLeft <= 0) throw new AuthRefusal('AUTH_CODE_ATTEMPTS_EXCEEDED')
      throw new AuthRefusal('AUTH_CODE_INVALID', { attemptsLeft })
    }
    const moved = await db.query(
      'update auth_email_flows set step = $3, code_hash = $4, attempts = 0, expires_at = $5 where id = $1 and step = $2 returning id',
      [id, step, next.step, next.codeHash ?? null, next.codeHash ? now() + limits.codeTtlMs : Number(flow.expires_at)],
    )
    if (!moved.length) throw new AuthRefusal('AUTH_CODE_EXPIRED')
    return flow
  }

  app.post('/v1/email/start', async (c) => {
    const body = await validate(c, 'json', z.object({ email: emailAddress }))
    if (!body.ok) return body.response
    const deviceHash = deviceHashOf(c)
    if (!deviceHash) return missingDevice(c)
    const email = normalizeEmail(body.data.email)

    // This frame is already signed in with this very address: nothing to send.
    const session = await deps.optionalSession(c)
    if (session?.auth_provider === 'email' && (await userView(db, session.user_id, 'email')).email === email) return c.json({ action: 'CONNECT' })

    const release = await deps.throttleEmail(c, email, 'login')
    const userId = await findUserIdByEmail(db, email)
    const isKnown = userId !== undefined && (await isKnownDevice(db, userId, deviceHash))
    // A new request from the same device replaces its earlier ones: only the newest code or link works.
    await db.query("update auth_email_flows set step = 'dead' where kind = 'login' and email = $1 and device_hash = $2 and step in ('device', 'otp')", [email, deviceHash])
    const id = randomToken()
    const nowMs = now()
    if (isKnown) {
      const code = randomCode()
      await db.query(
        "insert into auth_email_flows (id, kind, project_id, email, device_hash, step, code_hash, ip, created_at, expires_at) values ($1, 'login', $2, $3, $4, 'otp', $5, $6, $7, $8)",
        [id, c.get('projectId'), email, deviceHash, hasher.hash(id, code), c.get('ip'), nowMs, nowMs + limits.codeTtlMs],
      )
      await sendForFlow(id, { to: email, ...mailTexts.code({ code, ttlMs: limits.codeTtlMs }) }, release)
      return c.json({ action: 'VERIFY_OTP', flowId: id })
    }
    const approveToken = randomToken()
    await db.query(
      "insert into auth_email_flows (id, kind, project_id, email, device_hash, step, approve_hash, ip, created_at, expires_at) values ($1, 'login', $2, $3, $4, 'device', $5, $6, $7, $8)",
      [id, c.get('projectId'), email, deviceHash, hashToken(approveToken), c.get('ip'), nowMs, nowMs + limits.codeTtlMs],
    )
    const link = `${config.publicUrl.replace(/\/$/, '')}/v1/email/device/approve?token=${approveToken}`
    await sendForFlow(id, { to: email, ...mailTexts.device({ link, ttlMs: limits.codeTtlMs }) }, release)
    return c.json({ action: 'VERIFY_DEVICE', flowId: id })
  })

  // The frame waits here while the person approves the device from the mail: VERIFY_OTP once approved (the code is
  // then on its way), VERIFY_DEVICE when the wait ended first (ask again).
  app.post('/v1/email/device/wait', async (c) => {
    const body = await validate(c, 'json', z.object({ flowId }))
    if (!body.ok) return body.response
    const deviceHash = deviceHashOf(c)
    if (!deviceHash) return missingDevice(c)
    const outcome = await deps.longPoll(c, async () => {
      const [flow] = await db.query<FlowRow>('select * from auth_email_flows where id = $1', [body.data.flowId])
      if (!flow || flow.kind !== 'login' || flow.device_hash !== deviceHash || Number(flow.expires_at) <= now() || (flow.step !== 'device' && flow.step !== 'otp')) return { done: true, value: 'expired' as const }
      return flow.step === 'otp' ? { done: true, value: 'approved' as const } : { done: false }
    })
    if (outcome === 'expired') throw new AuthRefusal('AUTH_FLOW_EXPIRED')
    return c.json({ action: outcome === 'approved' ? 'VERIFY_OTP' : 'VERIFY_DEVICE' })
  })

  const approvalToken = (value: unknown) => (typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined)
  const pendingApproval = async (token: string | undefined) => {
    if (!token) return undefined
    const [flow] = await db.query<FlowRow>("select * from auth_email_flows where approve_hash = $1 and step = 'device'", [hashToken(token)])
    return flow && Number(flow.expires_at) > now() ? flow : undefined
  }
  const expiredLink = () => renderPage({ title: 'Link expired', body: '<p class="error" role="alert">This link has expired or was already used. Ask for a new one in the app.</p>' })

  // GET only shows the page (mail scanners open links); the button's POST approves.
  app.get('/v1/email/device/approve', async (c) => {
    const token = approvalToken(c.req.query('token'))
    const flow = await pendingApproval(token)
    if (!flow) return c.html(expiredLink(), 410, pageSecurityHeaders())
    const asked = new Date(Number(flow.created_at)).toUTCString()
    return c.html(
      renderPage({
        title: 'Approve this device?',
        body: `<p>A sign-in to <strong>${escapeHtml(flow.email)}</strong> was asked for on ${escapeHtml(asked)} from IP address ${escapeHtml(flow.ip)}.</p>
<p>Approve it only if it was you. A sign-in code is then sent to this address: enter it in the app.</p>
<form method="post" action="/v1/email/device/approve"><input type="hidden" name="token" value="${escapeHtml(token!)}"><button type="submit">Approve this device</button></form>`,
      }),
      200,
      pageSecurityHeaders(),
    )
  })

  app.post('/v1/email/device/approve', async (c) => {
    let token: string | undefined
    try {
      token = approvalToken((await c.req.parseBody()).token)
    } catch {
      token = undefined
    }
    const flow = await pendingApproval(token)
    if (!flow) return c.html(expiredLink(), 410, pageSecurityHeaders())
    const code = randomCode()
    const moved = await db.query("update auth_email_flows set step = 'otp', code_hash = $2, attempts = 0, expires_at = $3 where id = $1 and step = 'device' returning id", [flow.id, hasher.hash(flow.id, code), now() + limits.codeTtlMs])
    if (!moved.length) return c.html(expiredLink(), 410, pageSecurityHeaders())
    try {
      await deps.sendMail({ to: flow.email, ...mailTexts.code({ code, ttlMs: limits.codeTtlMs }) })
    } catch {
      // Back to waiting for approval: the person can press the button again.
      await db.query("update auth_email_flows set step = 'device', code_hash = null where id = $1 and step = 'otp'", [flow.id])
      return c.html(renderPage({ title: 'Approve this device?', body: '<p class="error" role="alert">The sign-in code could not be sent. Go back and try again in a moment.</p>' }), 502, pageSecurityHeaders())
    }
    return c.html(renderPage({ title: 'Device approved', body: `<p>We sent a sign-in code to <strong>${escapeHtml(flow.email)}</strong>. Enter it in the app to finish signing in. You can close this page.</p>` }), 200, pageSecurityHeaders())
  })

  app.post('/v1/email/verify', async (c) => {
    const body = await validate(c, 'json', z.object({ flowId, otp }))
    if (!body.ok) return body.response
    const deviceHash = deviceHashOf(c)
    if (!deviceHash) return missingDevice(c)
    await deps.countAttempt(c, 'verify')
    const flow = await useCode({ id: body.data.flowId, code: body.data.otp, kind: 'login', step: 'otp', deviceHash, next: { step: 'done' } })
    const { userId, isNew } = await findOrCreateEmailUser(db, flow.email, now())
    await rememberDevice(db, userId, deviceHash, now())
    const session = await deps.openSession(c, userId, 'email')
    return c.json({ ...session, isNewUser: isNew, user: await userView(db, userId, 'email') })
  })

  app.post('/v1/email/update', async (c) => {
    const body = await validate(c, 'json', z.object({ email: emailAddress }))
    if (!body.ok) return body.response
    const session = await deps.requireSession(c)
    const newEmail = normalizeEmail(body.data.email)
    const [user] = await db.query<{ email: string | null }>('select email from auth_users where id = $1', [session.user_id])
    if (user?.email === newEmail) throw new AuthRefusal('AUTH_EMAIL_UNCHANGED')
    // With a current address, it confirms first (primary); an account without one (social) confirms the new one only.
    const step: Step = user?.email ? 'primary' : 'secondary'
    const to = user?.email ?? newEmail
    const release = await deps.throttleEmail(c, to, 'change')
    await db.query("update auth_email_flows set step = 'dead' where kind = 'change' and user_id = $1 and step in ('primary', 'secondary')", [session.user_id])
    const id = randomToken()
    const code = randomCode()
    const nowMs = now()
    await db.query(
      "insert into auth_email_flows (id, kind, project_id, email, user_id, step, code_hash, ip, created_at, expires_at) values ($1, 'change', $2, $3, $4, $5, $6, $7, $8, $9)",
      [id, c.get('projectId'), newEmail, session.user_id, step, hasher.hash(id, code), c.get('ip'), nowMs, nowMs + limits.codeTtlMs],
    )
    const mail = step === 'primary' ? mailTexts.changePrimary({ code, newEmail, ttlMs: limits.codeTtlMs }) : mailTexts.changeSecondary({ code, ttlMs: limits.codeTtlMs })
    await sendForFlow(id, { to, ...mail }, release)
    return c.json({ action: step === 'primary' ? 'VERIFY_PRIMARY_OTP' : 'VERIFY_SECONDARY_OTP', flowId: id })
  })

  app.post('/v1/email/update/primary', async (c) => {
    const body = await validate(c, 'json', z.object({ flowId, otp }))
    if (!body.ok) return body.response
    const session = await deps.requireSession(c)
    await deps.countAttempt(c, 'verify')
    const code = randomCode()
    const flow = await useCode({ id: body.data.flowId, code: body.data.otp, kind: 'change', step: 'primary', userId: session.user_id, next: { step: 'secondary', codeHash: hasher.hash(body.data.flowId, code) } })
    await sendForFlow(flow.id, { to: flow.email, ...mailTexts.changeSecondary({ code, ttlMs: limits.codeTtlMs }) })
    return c.json({ action: 'VERIFY_SECONDARY_OTP' })
  })

  app.post('/v1/email/update/secondary', async (c) => {
    const body = await validate(c, 'json', z.object({ flowId, otp }))
    if (!body.ok) return body.response
    const session = await deps.requireSession(c)
    await deps.countAttempt(c, 'verify')
    const flow = await useCode({ id: body.data.flowId, code: body.data.otp, kind: 'change', step: 'secondary', userId: session.user_id, next: { step: 'done' } })
    // Said only now, to someone who has just proved they hold the new address.
    const taken = await db.query('select 1 from auth_users where email = $1 and id <> $2', [flow.email, session.user_id])
    if (taken.length) throw new AuthRefusal('AUTH_EMAIL_TAKEN')
    try {
      await db.query('update auth_users set email = $2 where id = $1', [session.user_id, flow.email])
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new AuthRefusal('AUTH_EMAIL_TAKEN')
      throw error
    }
    return c.json({ newEmail: flow.email, user: await userView(db, session.user_id, session.auth_provider) })
  })

  return app
}
