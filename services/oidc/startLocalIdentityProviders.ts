import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { exportJWK, generateKeyPair } from 'jose'
import type Provider from 'oidc-provider'
import type { InteractionDetails } from 'oidc-provider'
import { escapeForLog } from '../api/config'
import { escapeHtml, pageSecurityHeaders, renderPage } from '../auth/renderPage'
import { devFarcasterAccounts, devSubject, devUsers, socialProviderNames, type DevFarcasterAccount, type DevUser, type SocialProviderName } from './devAccounts'
import { createBoundedAdapter } from './createBoundedAdapter'
import { readForm, sendHtml, sendJson } from './httpHelpers'
import { createLocalFarcasterRelay } from './localFarcasterRelay'

/** The OAuth client every local issuer knows: the auth service. */
export type LocalClient = { clientId: string; clientSecret: string; redirectUris: string[] }

export type LocalIdentityProvidersParameters = {
  host?: string
  /** 0: any free port. */
  port: number
  client: LocalClient
  /** Which stand-ins to run, one issuer each (default: all six). */
  providers?: readonly SocialProviderName[]
  users?: readonly DevUser[]
  farcasterAccounts?: readonly DevFarcasterAccount[]
  log?: (line: string) => void
}

export type LocalIdentityProviders = {
  /** `http://host:port`: issuers are `${url}/${provider}`, the Farcaster relay `${url}/farcaster`. */
  url: string
  issuers: Record<SocialProviderName, string>
  farcasterRelayUrl: string
  stop: () => Promise<void>
}

/**
 * Providers whose stand-ins put e-mail and name in the id_token itself, as Google, Apple and Facebook do; the others
 * (GitHub, X, Discord style) give them from userinfo only, so the auth service is tested on both paths.
 */
const claimsInIdToken = new Set<SocialProviderName>(['google', 'apple', 'facebook'])

/**
 * oidc-provider 9 warns on import that it wants Node 22; it runs on the Node 20 of our machines (shared/LOCAL-STACK.md),
 * so that one line is left out of `npm start`'s output. Imported on first start, not when the stack's modules load.
 */
async function importProvider(): Promise<typeof Provider> {
  const warn = console.warn
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].includes('oidc-provider WARNING: Unsupported runtime')) return
    warn(...args)
  }
  try {
    return (await import('oidc-provider')).default
  } finally {
    console.warn = warn
  }
}

const providerTitle: Record<SocialProviderName, string> = { google: 'Google', github: 'GitHub', apple: 'Apple', facebook: 'Facebook', x: 'X', discord: 'Discord' }

/**
 * Real OpenID Connect providers for development and tests, one issuer per social provider name on one port
 * (`/google`, `/github`, …), each an `oidc-provider` with its own keys, PKCE required, and login and consent pages of
 * its own that a person (or Playwright) fills in: the dev users' e-mails and passwords are shown on the login page.
 * The same server runs a local Farcaster Auth relay at `/farcaster`. Development only.
 * @example const idp = await startLocalIdentityProviders({ port: 0, client: { clientId: 'tessera', clientSecret, redirectUris } })
 */
export async function startLocalIdentityProviders({
  host = '127.0.0.1',
  port,
  client,
  providers: names = socialProviderNames,
  users = devUsers,
  farcasterAccounts = devFarcasterAccounts,
  log = console.error,
}: LocalIdentityProvidersParameters): Promise<LocalIdentityProviders> {
  // The port is known only once listening, and issuers must name it: listen first, then build the providers.
  const handlers = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>()
  let relay: ReturnType<typeof createLocalFarcasterRelay> | undefined
  const providerByName = new Map<string, Provider>()

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!
    const [, first = '', ...rest] = path.split('/')
    const onFailure = (error: unknown) => {
      log(escapeForLog(`local identity providers: ${req.method} ${path}: ${(error as Error)?.message ?? String(error)}`))
      if (!res.headersSent) sendJson(res, 500, { error: 'The local identity provider failed to answer this request' })
      else res.destroy()
    }
    if (first === 'farcaster' && relay) return void relay(req, res, `/${rest.join('/')}`).catch(onFailure)
    if (path === '/health') return sendJson(res, 200, { status: 'ok', service: 'tessera-identity-providers', issuers: [...providerByName.keys()] })
    const provider = providerByName.get(first)
    if (!provider) return sendJson(res, 404, { error: `No provider at /${first}: use one of ${[...providerByName.keys()].map((n) => `/${n}`).join(', ')}` })
    if (rest[0] === 'interaction') return void interaction(first as SocialProviderName, provider, req, res, rest.slice(1)).catch(onFailure)
    // Mounted as express would: the provider sees its own path and finds its mount in originalUrl.
    ;(req as IncomingMessage & { originalUrl?: string }).originalUrl = req.url
    req.url = req.url!.slice(first.length + 1) || '/'
    handlers.get(first)!(req, res)
  })
  server.headersTimeout = 10_000
  server.requestTimeout = 30_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const url = `http://${host}:${(server.address() as { port: number }).port}`

  const interactionPath = (name: string, uid: string) => `/${name}/interaction/${uid}`

  const loginPage = (name: SocialProviderName, details: InteractionDetails, error?: string) =>
    renderPage({
      title: `Sign in to ${providerTitle[name]}`,
      body: `<p class="hint">Local ${escapeHtml(providerTitle[name])} stand-in for development. Dev users: ${users.map((u) => `<code>${escapeHtml(u.email)}</code> / <code>${escapeHtml(u.password)}</code>`).join(', ')}.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(`${interactionPath(name, details.uid)}/login`)}">
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
<form method="post" action="${escapeHtml(`${interactionPath(name, details.uid)}/abort`)}"><button type="submit" class="secondary">Cancel</button></form>`,
    })

  const consentPage = async (name: SocialProviderName, provider: Provider, details: InteractionDetails) => {
    const found = details.params.client_id ? await provider.Client.find(details.params.client_id) : undefined
    const scopes = String(details.params.scope ?? '').split(' ').filter((s) => s && s !== 'openid')
    return renderPage({
      title: `${providerTitle[name]}: allow access?`,
      body: `<p><strong>${escapeHtml(found?.clientName ?? details.params.client_id ?? 'An app')}</strong> wants to sign you in${scopes.length ? ` and read your ${scopes.map((s) => escapeHtml(s)).join(', ')}` : ''}.</p>
<form method="post" action="${escapeHtml(`${interactionPath(name, details.uid)}/confirm`)}"><button type="submit">Allow</button></form>
<form method="post" action="${escapeHtml(`${interactionPath(name, details.uid)}/abort`)}"><button type="submit" class="secondary">Cancel</button></form>`,
    })
  }

  const expiredPage = () => renderPage({ title: 'Sign-in expired', body: '<p class="error" role="alert">This sign-in has expired or was already used. Close this window and start again from the app.</p>' })

  /** The login and consent pages of one provider: GET shows, POST login/confirm/abort finishes the interaction. */
  async function interaction(name: SocialProviderName, provider: Provider, req: IncomingMessage, res: ServerResponse, parts: string[]) {
    const [uid, action] = parts
    let details: InteractionDetails
    try {
      details = await provider.interactionDetails(req, res)
    } catch {
      return sendHtml(res, 400, expiredPage(), pageSecurityHeaders())
    }
    if (details.uid !== uid) return sendHtml(res, 400, expiredPage(), pageSecurityHeaders())
    if (req.method === 'GET' && action === undefined) {
      const html = details.prompt.name === 'login' ? loginPage(name, details) : await consentPage(name, provider, details)
      return sendHtml(res, 200, html, pageSecurityHeaders())
    }
    if (req.method !== 'POST') return sendHtml(res, 405, expiredPage(), pageSecurityHeaders())
    if (action === 'abort') {
      return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The user cancelled the sign-in' }, { mergeWithLastSubmission: false })
    }
    if (action === 'login' && details.prompt.name === 'login') {
      const form = await readForm(req)
      const email = form.ok ? (form.value.get('email') ?? '').trim().toLowerCase() : ''
      const password = form.ok ? (form.value.get('password') ?? '') : ''
      const user = users.find((u) => u.email === email && u.password === password)
      if (!user) return sendHtml(res, 401, loginPage(name, details, 'Wrong e-mail or password.'), pageSecurityHeaders())
      return provider.interactionFinished(req, res, { login: { accountId: devSubject(name, user) } }, { mergeWithLastSubmission: false })
    }
    if (action === 'confirm' && details.prompt.name === 'consent') {
      const accountId = details.session?.accountId
      const clientId = details.params.client_id
      if (!accountId || !clientId) return sendHtml(res, 400, expiredPage(), pageSecurityHeaders())
      const grant = (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ?? new provider.Grant({ accountId, clientId })
      const missing = details.prompt.details
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '))
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims)
      for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '))
      const grantId = await grant.save()
      return provider.interactionFinished(req, res, { consent: details.grantId ? {} : { grantId } }, { mergeWithLastSubmission: true })
    }
    return sendHtml(res, 400, expiredPage(), pageSecurityHeaders())
  }

  const adapter = createBoundedAdapter()
  const Provider = await importProvider()
  try {
    // RS256 as the real providers sign; the keys are made on the thread pool, all at once.
    const keys = await Promise.all(names.map(() => generateKeyPair('RS256', { extractable: true })))
    for (const [index, name] of names.entries()) {
      const jwk = { ...(await exportJWK(keys[index]!.privateKey)), kid: `${name}-local-1`, alg: 'RS256', use: 'sig' }
      const subjects = new Map(users.map((user) => [devSubject(name, user), user]))
      const provider = new Provider(`${url}/${name}`, {
        clients: [{ client_id: client.clientId, client_secret: client.clientSecret, client_name: 'Tessera', redirect_uris: client.redirectUris, grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' }],
        adapter,
        jwks: { keys: [jwk] },
        cookies: {
          keys: [crypto.randomUUID() + crypto.randomUUID()],
          // Every issuer shares the host: each keeps cookies of its own names.
          names: { session: `_${name}_session`, interaction: `_${name}_interaction`, resume: `_${name}_resume` },
        },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
        conformIdTokenClaims: !claimsInIdToken.has(name),
        pkce: { required: () => true },
        // Seconds; short, as befits a stand-in (and set, so oidc-provider does not warn about its defaults).
        ttl: { AuthorizationCode: 60, Interaction: 600, Session: 86_400, Grant: 86_400, AccessToken: 600, IdToken: 600 },
        features: { devInteractions: { enabled: false } },
        interactions: { url: (_ctx: unknown, interaction: { uid: string }) => interactionPath(name, interaction.uid) },
        clientBasedCORS: () => false,
        async findAccount(_ctx: unknown, sub: string) {
          const user = subjects.get(sub)
          if (!user) return undefined
          return { accountId: sub, claims: () => ({ sub, email: user.email, email_verified: true, name: user.name, preferred_username: user.id }) }
        },
        async renderError(ctx: { type: string; body: string }, out: Record<string, string>) {
          ctx.type = 'html'
          ctx.body = renderPage({ title: 'Sign-in failed', body: `<p class="error" role="alert">${escapeHtml(out.error_description ?? out.error ?? 'The sign-in request is not valid.')}</p>` })
        },
        async logoutSource(ctx: { body: string }, form: string) {
          ctx.body = renderPage({ title: 'Sign out', body: `${form}<p>Sign out of the local ${escapeHtml(providerTitle[name])}?</p><button form="op.logoutForm" type="submit" name="logout" value="yes">Sign out</button>` })
        },
        async postLogoutSuccessSource(ctx: { body: string }) {
          ctx.body = renderPage({ title: 'Signed out', body: '<p>You are signed out.</p>' })
        },
      })
      provider.on('server_error', (_ctx, error) => log(escapeForLog(`local identity provider ${name}: ${(error as Error)?.message ?? String(error)}`)))
      providerByName.set(name, provider)
      handlers.set(name, provider.callback())
    }
    relay = createLocalFarcasterRelay({ baseUrl: `${url}/farcaster`, accounts: farcasterAccounts })
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()))
    throw error
  }

  return {
    url,
    issuers: Object.fromEntries(names.map((name) => [name, `${url}/${name}`])) as Record<SocialProviderName, string>,
    farcasterRelayUrl: `${url}/farcaster`,
    async stop() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
