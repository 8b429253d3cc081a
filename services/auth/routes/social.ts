import { createHash } from 'node:crypto'
import { Hono, type Context } from 'hono'
import * as z from 'zod/mini'
import { text, validate } from '../../api/routes/validate'
import { escapeForLog } from '../../api/config'
import { findOrCreateIdentityUser, userView } from '../accounts'
import type { AuthDeps, AuthEnv } from '../deps'
import { providerTitles, socialCallbackUrl, socialProviderNames, type SocialProviderName } from '../config'
import { AuthRefusal } from '../errors'
import { createOidcClient } from '../oidcClient'
import { OutboundError } from '../outbound'
import { escapeHtml, pageSecurityHeaders, renderPage } from '../renderPage'
import { randomToken } from '../secrets'
import { flowId } from './email'

/** The message the callback page posts to the window that opened the provider's popup (the host page). */
export const SOCIAL_CALLBACK_MESSAGE = 'tessera:social-callback'

// The callback page's only script: constant, so its hash is its CSP; what it posts comes from data attributes.
const callbackScript = `(function () {
  var result = document.getElementById('tessera-result').dataset;
  if (window.opener && result.origin) window.opener.postMessage({ type: '${SOCIAL_CALLBACK_MESSAGE}', resultUri: result.uri }, result.origin);
})();`
const callbackScriptHash = `sha256-${createHash('sha256').update(callbackScript).digest('base64')}`

/** An http(s) origin exactly as `URL.origin` writes it. */
const origin = text({ max: 256 }).check(
  z.refine((value) => {
    try {
      const url = new URL(value)
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value
    } catch {
      return false
    }
  }, 'Expected an http(s) origin such as https://app.example.org'),
)

type LoginFlowRow = { id: string; provider: string; project_id: string; origin: string; state: string; nonce: string; code_verifier: string | null; return_origin: string | null; channel_token: string | null; used: boolean; expires_at: number }

/** The login flow a frame request may finish: its own (origin, project), not used, not expired; else AUTH_FLOW_EXPIRED. */
export async function ownLoginFlow(deps: AuthDeps, c: Context<AuthEnv>, id: string, isProvider: (provider: string) => boolean) {
  const [flow] = await deps.config.db.query<LoginFlowRow>('select * from auth_login_flows where id = $1', [id])
  if (!flow || !isProvider(flow.provider) || flow.origin !== c.get('origin') || flow.project_id !== c.get('projectId') || flow.used || Number(flow.expires_at) <= deps.now()) {
    throw new AuthRefusal('AUTH_FLOW_EXPIRED')
  }
  return flow
}

/** Marks a flow used; only the first request to do so goes on (a sign-in finishes once). */
export async function useLoginFlow(deps: AuthDeps, id: string) {
  const used = await deps.config.db.query('update auth_login_flows set used = true where id = $1 and used = false returning id', [id])
  if (!used.length) throw new AuthRefusal('AUTH_FLOW_EXPIRED')
}

/**
 * Social sign-in by OpenID Connect (authorization code flow, PKCE S256, state and nonce): the frame gets the provider's
 * URL for a popup; the provider sends the popup back to our callback page, which hands the result URI to the page that
 * opened it (exact origin); the frame sends that URI here with its flow id, and gets a session.
 */
export function socialRoutes(deps: AuthDeps) {
  const { config, limits, now, log } = deps
  const { db } = config
  const providers = config.social ?? {}
  const redirectUri = socialCallbackUrl(config.publicUrl)
  const oidc = createOidcClient({ providers, redirectUri, timeoutMs: limits.outboundTimeoutMs, now })
  const app = new Hono<AuthEnv>()
  const isSocial = (provider: string): provider is SocialProviderName => (socialProviderNames as readonly string[]).includes(provider)

  app.post('/v1/social/start', async (c) => {
    const body = await validate(c, 'json', z.object({ provider: z.enum(socialProviderNames), returnOrigin: origin }))
    if (!body.ok) return body.response
    const { provider, returnOrigin } = body.data
    if (!providers[provider]) throw new AuthRefusal('AUTH_SOCIAL_UNAVAILABLE', { provider: providerTitles[provider] })
    await deps.countAttempt(c, 'loginStart')
    const flow = { id: randomToken(), state: randomToken(), nonce: randomToken(), codeVerifier: randomToken() }
    let uri: string
    try {
      uri = await oidc.authorizationUrl(provider, flow)
    } catch (error) {
      log(escapeForLog(`auth service: social sign-in with ${provider} could not start: ${(error as Error).message}`))
      throw new AuthRefusal('AUTH_SOCIAL_UNAVAILABLE', { provider: providerTitles[provider] })
    }
    const nowMs = now()
    await db.query(
      'insert into auth_login_flows (id, provider, project_id, origin, state, nonce, code_verifier, return_origin, created_at, expires_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)',
      [flow.id, provider, c.get('projectId'), c.get('origin'), flow.state, flow.nonce, flow.codeVerifier, returnOrigin, nowMs, nowMs + limits.loginFlowTtlMs],
    )
    return c.json({ uri, flowId: flow.id })
  })

  // The provider's redirect (GET, or POST for response_mode=form_post) lands here, in the popup.
  const callback = async (c: Context<AuthEnv>) => {
    let params: Record<string, unknown>
    try {
      params = c.req.method === 'POST' ? await c.req.parseBody() : c.req.query()
    } catch {
      params = {}
    }
    const kept = new URLSearchParams()
    for (const key of ['code', 'state', 'error', 'error_description', 'iss']) {
      const value = params[key]
      if (typeof value === 'string' && value.length > 0 && value.length <= 2_048) kept.set(key, value)
    }
    const state = kept.get('state')
    const [flow] = state ? await db.query<LoginFlowRow>('select * from auth_login_flows where state = $1 and used = false and expires_at > $2', [state, now()]) : []
    if (!flow?.return_origin || !isSocial(flow.provider)) {
      return c.html(renderPage({ title: 'Sign-in expired', body: '<p class="error" role="alert">This sign-in has expired or was already finished. Close this window and start again from the app.</p>' }), 400, pageSecurityHeaders())
    }
    const resultUri = `${redirectUri}?${kept.toString()}`
    return c.html(
      renderPage({
        title: `Signing in with ${providerTitles[flow.provider]}`,
        body: `<p>Finishing your sign-in: you can close this window if it stays open.</p>
<div id="tessera-result" data-origin="${escapeHtml(flow.return_origin)}" data-uri="${escapeHtml(resultUri)}"></div>
<script>${callbackScript}</script>`,
      }),
      200,
      pageSecurityHeaders({ scriptHashes: [callbackScriptHash] }),
    )
  }
  app.get('/v1/social/callback', callback)
  app.post('/v1/social/callback', callback)

  app.post('/v1/social/complete', async (c) => {
    const body = await validate(c, 'json', z.object({ flowId, uri: text({ max: 8_192, min: 1 }) }))
    if (!body.ok) return body.response
    const flow = await ownLoginFlow(deps, c, body.data.flowId, isSocial)
    const provider = flow.provider as SocialProviderName
    const refuse = (code: 'AUTH_SOCIAL_FAILED' | 'AUTH_SOCIAL_CANCELLED', reason: string) => {
      if (code === 'AUTH_SOCIAL_FAILED') log(escapeForLog(`auth service: social sign-in with ${provider} refused: ${reason}`))
      return new AuthRefusal(code, { provider: providerTitles[provider] })
    }
    let result: URL
    try {
      result = new URL(body.data.uri)
    } catch {
      throw refuse('AUTH_SOCIAL_FAILED', 'the result URI is not a URL')
    }
    if (`${result.origin}${result.pathname}` !== redirectUri) throw refuse('AUTH_SOCIAL_FAILED', 'the result URI is not our callback')
    if (result.searchParams.get('state') !== flow.state) throw refuse('AUTH_SOCIAL_FAILED', 'state does not match the sign-in')
    await useLoginFlow(deps, flow.id)
    const error = result.searchParams.get('error')
    if (error === 'access_denied') throw refuse('AUTH_SOCIAL_CANCELLED', 'cancelled')
    if (error) throw refuse('AUTH_SOCIAL_FAILED', `the provider answered ${error.slice(0, 100)}`)
    // RFC 9207: a provider that names itself must name the issuer this sign-in went to (mix-up defence).
    const iss = result.searchParams.get('iss')
    if (iss !== null && iss !== providers[provider]!.issuer) throw refuse('AUTH_SOCIAL_FAILED', `iss ${iss.slice(0, 200)} is not the provider's`)
    const code = result.searchParams.get('code')
    if (!code) throw refuse('AUTH_SOCIAL_FAILED', 'the result has no code')
    let claims
    try {
      claims = await oidc.finish(provider, { code, codeVerifier: flow.code_verifier!, nonce: flow.nonce })
    } catch (error) {
      if (error instanceof OutboundError) throw refuse('AUTH_SOCIAL_FAILED', error.message)
      throw error
    }
    const { userId, isNew } = await findOrCreateIdentityUser(db, { provider, subject: claims.subject, email: claims.email, userName: claims.userName, nowMs: now() })
    const session = await deps.openSession(c, userId, provider)
    return c.json({ ...session, isNewUser: isNew, user: await userView(db, userId, provider) })
  })

  return app
}
