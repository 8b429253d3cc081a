import { Hono } from 'hono'
import type { Hex } from 'viem'
import * as z from 'zod/mini'
import { escapeForLog } from '../../api/config'
import { validate } from '../../api/routes/validate'
import { findOrCreateIdentityUser, userView } from '../accounts'
import type { AuthDeps, AuthEnv } from '../deps'
import { providerTitles } from '../config'
import { AuthRefusal } from '../errors'
import { createCustodyResolver, createFarcasterRelayClient, verifySignInWithFarcaster } from '../farcaster'
import { OutboundError } from '../outbound'
import { randomAlphanumeric, randomToken } from '../secrets'
import { flowId } from './email'
import { ownLoginFlow, useLoginFlow } from './social'

/**
 * Sign In With Farcaster: the frame gets a URL (shown as a QR code or opened on the phone) for a relay channel that
 * carries our nonce and domain; it then waits on /complete while the person signs in their Farcaster client. The
 * signed message is checked here (domain, URI, nonce, times, fid, signature, custody address), never trusted from the
 * relay.
 */
export function farcasterRoutes(deps: AuthDeps) {
  const { config, limits, now, log } = deps
  const { db } = config
  const app = new Hono<AuthEnv>()
  const farcaster = config.farcaster
  const relay = farcaster && createFarcasterRelayClient(farcaster, { timeoutMs: limits.outboundTimeoutMs })
  const custodyOf = farcaster && createCustodyResolver(farcaster.custody, { timeoutMs: limits.outboundTimeoutMs })
  const unavailable = () => new AuthRefusal('AUTH_SOCIAL_UNAVAILABLE', { provider: providerTitles.farcaster })

  app.post('/v1/farcaster/start', async (c) => {
    if (!farcaster || !relay) throw unavailable()
    await deps.countAttempt(c, 'loginStart')
    const nonce = randomAlphanumeric(24)
    let channel
    try {
      channel = await relay.openChannel({ nonce })
    } catch (error) {
      log(escapeForLog(`auth service: farcaster sign-in could not start: ${(error as Error).message}`))
      throw unavailable()
    }
    const id = randomToken()
    const nowMs = now()
    await db.query(
      "insert into auth_login_flows (id, provider, project_id, origin, state, nonce, channel_token, created_at, expires_at) values ($1, 'farcaster', $2, $3, $4, $5, $6, $7, $8)",
      [id, c.get('projectId'), c.get('origin'), randomToken(), nonce, channel.channelToken, nowMs, nowMs + limits.loginFlowTtlMs],
    )
    return c.json({ url: channel.url, flowId: id })
  })

  // A long poll: { state: 'pending' } while the person has not signed (ask again), then the session.
  app.post('/v1/farcaster/complete', async (c) => {
    const body = await validate(c, 'json', z.object({ flowId }))
    if (!body.ok) return body.response
    if (!farcaster || !relay || !custodyOf) throw unavailable()
    const flow = await ownLoginFlow(deps, c, body.data.flowId, (provider) => provider === 'farcaster')
    const failed = (reason: string) => {
      log(escapeForLog(`auth service: farcaster sign-in refused: ${reason}`))
      return new AuthRefusal('AUTH_FARCASTER_FAILED')
    }
    let answer
    try {
      answer = await deps.longPoll(c, async () => {
        const status = await relay.status(flow.channel_token!)
        return status ? { done: true, value: status } : { done: false }
      })
    } catch (error) {
      if (error instanceof OutboundError) throw failed(error.message)
      throw error
    }
    if (!answer) return c.json({ state: 'pending' })
    await useLoginFlow(deps, flow.id)
    let verdict
    try {
      verdict = await verifySignInWithFarcaster({
        message: answer.message,
        signature: answer.signature as Hex,
        fid: answer.fid,
        expected: { domain: farcaster.domain, siweUri: farcaster.siweUri, nonce: flow.nonce },
        nowMs: now(),
        maxAgeMs: limits.loginFlowTtlMs,
        custodyOf,
      })
    } catch (error) {
      throw failed(`the custody address could not be read: ${(error as Error).message}`)
    }
    if (!verdict.ok) throw failed(verdict.reason)
    const { userId, isNew } = await findOrCreateIdentityUser(db, { provider: 'farcaster', subject: String(verdict.fid), email: null, userName: answer.username ?? null, nowMs: now() })
    const session = await deps.openSession(c, userId, 'farcaster')
    return c.json({ state: 'completed', ...session, isNewUser: isNew, fid: verdict.fid, user: await userView(db, userId, 'farcaster') })
  })

  return app
}
