import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devUsers } from '../oidc/devAccounts'
import { driveProviderLogin, type ProviderHandBack } from '../oidc/testing/driveProviderLogin'
import { socialProviderNames, type SocialProviderName } from './config'
import { FRAME_ORIGIN, HOST_ORIGIN, OTHER_FRAME_ORIGIN, startAuthTestbed, type AuthTestbed } from './testing/startAuthTestbed'

let bed: AuthTestbed
const [alice, bob] = devUsers as [(typeof devUsers)[0], (typeof devUsers)[0]]

beforeAll(async () => {
  bed = await startAuthTestbed()
}, 60_000)
afterAll(async () => {
  await bed?.stop()
})

const decode = (text: string) => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')

/** The popup lands on our callback page (GET, or the provider's auto-submitted POST): what it posts to its opener. */
async function landOnCallback(handBack: ProviderHandBack) {
  const response =
    handBack.kind === 'redirect'
      ? await fetch(handBack.url)
      : await fetch(handBack.action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(bed.idp!.url).origin }, body: new URLSearchParams(handBack.fields) })
  const html = await response.text()
  const result = /<div id="tessera-result" data-origin="([^"]*)" data-uri="([^"]*)"><\/div>/.exec(html)
  return { status: response.status, html, csp: response.headers.get('content-security-policy') ?? '', origin: result && decode(result[1]!), resultUri: result && decode(result[2]!) }
}

async function startSocial(provider: SocialProviderName, origin = FRAME_ORIGIN) {
  const start = await bed.call('/v1/social/start', { body: { provider, returnOrigin: HOST_ORIGIN }, origin })
  expect(start.status).toBe(200)
  return { uri: start.json.uri as string, flowId: start.json.flowId as string }
}

/** A whole social sign-in: the frame starts it, the person signs in at the provider, the frame finishes it. */
async function signIn(provider: SocialProviderName, user = alice) {
  const { uri, flowId } = await startSocial(provider)
  const landed = await landOnCallback(await driveProviderLogin(uri, { email: user.email, password: user.password }))
  return bed.call('/v1/social/complete', { body: { flowId, uri: landed.resultUri } })
}

describe('social sign-in through the local OpenID providers', () => {
  it.each(socialProviderNames)('signs in with %s: PKCE, state and nonce, its own issuer, the e-mail it verified', async (provider) => {
    const { uri, flowId } = await startSocial(provider)
    const authorization = new URL(uri)
    expect(`${authorization.origin}${authorization.pathname}`).toBe(`${bed.idp!.issuers[provider]}/auth`)
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'tessera-test',
      redirect_uri: `${bed.auth.url}/v1/social/callback`,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      state: expect.stringMatching(/^[\w-]{43}$/),
      nonce: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      ...(provider === 'apple' ? { response_mode: 'form_post' } : {}),
    })
    const pages: { url: string; status: number; html: string }[] = []
    const handBack = await driveProviderLogin(uri, { email: alice.email, password: alice.password, pages })
    expect(handBack.kind).toBe(provider === 'apple' ? 'form_post' : 'redirect')
    // The provider's own pages: a login form, then consent (then, for form_post, the form that posts to us).
    expect(pages.map((p) => /<title>([^<]*)<\/title>/.exec(p.html)?.[1])).toEqual([
      expect.stringMatching(/^Sign in to /),
      expect.stringMatching(/allow access\?$/),
      ...(provider === 'apple' ? ['Submitting Callback'] : []),
    ])

    const landed = await landOnCallback(handBack)
    expect(landed.status).toBe(200)
    expect(landed.origin).toBe(HOST_ORIGIN)
    expect(landed.resultUri).toMatch(new RegExp(`^${bed.auth.url}/v1/social/callback\\?code=`))
    // The page's one script is allowed by its hash, and nothing else is.
    const script = /<script>([\s\S]*?)<\/script>/.exec(landed.html)![1]!
    expect(landed.csp).toContain(`script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`)
    expect(script).toContain("window.opener.postMessage({ type: 'tessera:social-callback', resultUri: result.uri }, result.origin)")

    const complete = await bed.call('/v1/social/complete', { body: { flowId, uri: landed.resultUri } })
    expect(complete.status).toBe(200)
    expect(complete.json).toMatchObject({ token: expect.stringMatching(/^[\w-]{43}$/), isNewUser: true, user: { email: alice.email, userName: 'alice', authProvider: provider } })
    const session = await bed.call('/v1/session', { token: complete.json.token as string })
    expect(session.json).toMatchObject({ user: { authProvider: provider, email: alice.email } })
  })

  it('opens the same account on the next sign-in, and another account at another provider (no joining by e-mail)', async () => {
    const first = await signIn('google', bob)
    const again = await signIn('google', bob)
    expect(again.json).toMatchObject({ isNewUser: false, user: { id: (first.json.user as { id: string }).id } })
    const github = await signIn('github', bob)
    expect((github.json.user as { id: string }).id).not.toBe((first.json.user as { id: string }).id)
  })

  it('says the sign-in was cancelled when the person cancels at the provider', async () => {
    for (const where of ['login', 'consent'] as const) {
      const { uri, flowId } = await startSocial('discord')
      const handBack = await driveProviderLogin(uri, { email: alice.email, password: alice.password, cancelAtLogin: where === 'login', consent: where === 'consent' ? 'cancel' : 'allow' }, undefined)
      const landed = await landOnCallback(handBack)
      expect(landed.resultUri).toContain('error=access_denied')
      const complete = await bed.call('/v1/social/complete', { body: { flowId, uri: landed.resultUri } })
      expect(complete).toMatchObject({ status: 400, json: { error: { code: 'AUTH_SOCIAL_CANCELLED', message: 'Sign-in with Discord was cancelled' } } })
    }
  })

  it('shows the provider’s login page again with a clear line on a wrong password', async () => {
    const { uri } = await startSocial('x')
    const pages: { url: string; status: number; html: string }[] = []
    await expect(driveProviderLogin(uri, { email: alice.email, password: 'wrong', pages })).rejects.toThrow('refused the login')
    expect(pages.at(-1)).toMatchObject({ status: 401, html: expect.stringContaining('Wrong e-mail or password.') })
  })

  it('finishes a sign-in once, with its own state, from the frame that started it', async () => {
    const { uri, flowId } = await startSocial('facebook')
    const landed = await landOnCallback(await driveProviderLogin(uri, { email: alice.email, password: alice.password }))
    const tampered = landed.resultUri!.replace(/state=[^&]+/, 'state=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')
    expect((await bed.call('/v1/social/complete', { body: { flowId, uri: tampered } })).json.error).toEqual({ code: 'AUTH_SOCIAL_FAILED', message: 'Sign-in with Facebook failed. Please try again', params: { provider: 'Facebook' } })
    // Another frame origin (or project) cannot finish it.
    expect((await bed.call('/v1/social/complete', { body: { flowId, uri: landed.resultUri }, origin: OTHER_FRAME_ORIGIN })).json.error).toMatchObject({ code: 'AUTH_FLOW_EXPIRED' })
    expect((await bed.call('/v1/social/complete', { body: { flowId, uri: landed.resultUri }, projectId: 'auth-other-project' })).json.error).toMatchObject({ code: 'AUTH_FLOW_EXPIRED' })
    expect((await bed.call('/v1/social/complete', { body: { flowId, uri: landed.resultUri } })).status).toBe(200)
    expect((await bed.call('/v1/social/complete', { body: { flowId, uri: landed.resultUri } })).json.error).toEqual({ code: 'AUTH_FLOW_EXPIRED', message: 'This sign-in has expired. Please start again' })
    // The callback page of a finished sign-in says so.
    expect((await fetch(landed.resultUri!)).status).toBe(400)
  })

  it('binds the code to its sign-in by PKCE: a code from one sign-in cannot finish another', async () => {
    const a = await startSocial('google')
    const landedA = await landOnCallback(await driveProviderLogin(a.uri, { email: alice.email, password: alice.password }))
    const b = await startSocial('google')
    const stateB = new URL(b.uri).searchParams.get('state')!
    // B's state with A's code: state matches B, but the code was issued for A's challenge.
    const crossed = landedA.resultUri!.replace(/state=[^&]+/, `state=${stateB}`)
    const refused = await bed.call('/v1/social/complete', { body: { flowId: b.flowId, uri: crossed } })
    expect(refused.json.error).toMatchObject({ code: 'AUTH_SOCIAL_FAILED' })
    expect(bed.logLines.some((line) => /token endpoint answered 400.*invalid_grant/.test(line))).toBe(true)
  })

  it('refuses a result that names another issuer (RFC 9207), or is not our callback', async () => {
    const { uri, flowId } = await startSocial('google')
    const landed = await landOnCallback(await driveProviderLogin(uri, { email: alice.email, password: alice.password }))
    const withIss = new URL(landed.resultUri!)
    withIss.searchParams.set('iss', bed.idp!.issuers.github)
    expect((await bed.call('/v1/social/complete', { body: { flowId, uri: withIss.href } })).json.error).toMatchObject({ code: 'AUTH_SOCIAL_FAILED', params: { provider: 'Google' } })
    const next = await startSocial('google')
    const elsewhere = `https://evil.example/v1/social/callback?state=${new URL(next.uri).searchParams.get('state')}&code=x`
    expect((await bed.call('/v1/social/complete', { body: { flowId: next.flowId, uri: elsewhere } })).json.error).toMatchObject({ code: 'AUTH_SOCIAL_FAILED' })
  })

  it('says a provider is not available when it is not configured, or its issuer cannot be reached', async () => {
    const local = await startAuthTestbed({ withIdentityProviders: false, social: { google: { issuer: 'http://127.0.0.1:1/google', clientId: 'x' } } })
    try {
      const unconfigured = await local.call('/v1/social/start', { body: { provider: 'apple', returnOrigin: HOST_ORIGIN } })
      expect(unconfigured).toMatchObject({ status: 503, json: { error: { code: 'AUTH_SOCIAL_UNAVAILABLE', message: 'Sign-in with Apple is not available' } } })
      const unreachable = await local.call('/v1/social/start', { body: { provider: 'google', returnOrigin: HOST_ORIGIN } })
      expect(unreachable.json.error).toMatchObject({ code: 'AUTH_SOCIAL_UNAVAILABLE', params: { provider: 'Google' } })
      expect(local.logLines.some((line) => line.includes('could not be reached'))).toBe(true)
    } finally {
      await local.stop()
    }
  }, 60_000)

  it('answers an unknown or missing state on the callback page with an expired page, and no script', async () => {
    for (const query of ['', '?state=nope&code=1', `?state=${'A'.repeat(43)}&code=%3Cscript%3E`]) {
      const response = await fetch(`${bed.auth.url}/v1/social/callback${query}`)
      const html = await response.text()
      expect(response.status).toBe(400)
      expect(html).toContain('This sign-in has expired or was already finished.')
      expect(html).not.toContain('<script')
      expect(response.headers.get('content-security-policy')).toContain("script-src 'none'")
    }
  })
})
