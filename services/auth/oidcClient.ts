import { createHash } from 'node:crypto'
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose'
import * as z from 'zod/mini'
import type { SocialProviderConfig, SocialProviderName } from './config'
import { fetchJson, OutboundError } from './outbound'

const httpUrl = z.string().check(z.maxLength(2_048), z.refine((value) => /^https?:\/\//.test(value), 'must be an http(s) URL'))

const discoverySchema = z.object({
  issuer: z.string().check(z.maxLength(2_048)),
  authorization_endpoint: httpUrl,
  token_endpoint: httpUrl,
  jwks_uri: httpUrl,
  userinfo_endpoint: z.optional(httpUrl),
  id_token_signing_alg_values_supported: z.optional(z.array(z.string().check(z.maxLength(16))).check(z.maxLength(32))),
})
type Discovery = z.infer<typeof discoverySchema>

const tokenSchema = z.object({ id_token: z.string().check(z.minLength(1), z.maxLength(16_384)), access_token: z.optional(z.string().check(z.maxLength(16_384))) })

/** The claims the auth service uses, from the verified id_token and (for what it lacks) userinfo. */
export type SocialClaims = { subject: string; email: string | null; userName: string | null }

/** S256 PKCE challenge of a verifier (RFC 7636). */
export const pkceChallenge = (verifier: string) => createHash('sha256').update(verifier).digest('base64url')

/** How long discovery and keys are kept before they are read again. */
const DISCOVERY_TTL_MS = 3_600_000

/** Signature algorithms accepted on id_tokens whatever a provider announces ('none' and HMAC never). */
const ACCEPTED_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA']

const text = (value: unknown, max: number) => (typeof value === 'string' && value.length > 0 && value.length <= max && !value.includes('\u0000') ? value : null)

/**
 * The auth service's OpenID Connect client for every configured provider: discovery (kept an hour), the authorization
 * URL with PKCE S256, state and nonce, the code exchange, and id_token verification with jose against the issuer's
 * JWKS (issuer, audience, expiry, nonce). E-mail comes from the id_token, or from userinfo when the token has none.
 * Every failure throws OutboundError, whose message is for the log.
 */
export function createOidcClient({ providers, redirectUri, timeoutMs, now }: { providers: Partial<Record<SocialProviderName, SocialProviderConfig>>; redirectUri: string; timeoutMs: number; now: () => number }) {
  const cache = new Map<SocialProviderName, { discovery: Discovery; jwks: ReturnType<typeof createRemoteJWKSet>; at: number }>()

  async function discover(name: SocialProviderName) {
    const provider = providers[name]!
    const cached = cache.get(name)
    if (cached && now() - cached.at < DISCOVERY_TTL_MS) return cached
    const url = `${provider.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`
    const { status, json } = await fetchJson(url, { timeoutMs })
    if (status !== 200) throw new OutboundError(`${name}: discovery answered ${status}`)
    const parsed = discoverySchema.safeParse(json)
    if (!parsed.success) throw new OutboundError(`${name}: discovery is not valid: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`)
    // OpenID Connect Discovery 1.0 §4.3: the document must name exactly the issuer it was fetched for.
    if (parsed.data.issuer !== provider.issuer) throw new OutboundError(`${name}: discovery names issuer ${parsed.data.issuer}, expected ${provider.issuer}`)
    const entry = { discovery: parsed.data, jwks: createRemoteJWKSet(new URL(parsed.data.jwks_uri), { timeoutDuration: timeoutMs, cooldownDuration: 30_000 }), at: now() }
    cache.set(name, entry)
    return entry
  }

  return {
    /** The provider's authorization URL for one sign-in. */
    async authorizationUrl(name: SocialProviderName, { state, nonce, codeVerifier }: { state: string; nonce: string; codeVerifier: string }) {
      const provider = providers[name]!
      const { discovery } = await discover(name)
      const url = new URL(discovery.authorization_endpoint)
      url.searchParams.set('response_type', 'code')
      url.searchParams.set('client_id', provider.clientId)
      url.searchParams.set('redirect_uri', redirectUri)
      url.searchParams.set('scope', (provider.scopes ?? ['openid', 'email', 'profile']).join(' '))
      url.searchParams.set('state', state)
      url.searchParams.set('nonce', nonce)
      url.searchParams.set('code_challenge', pkceChallenge(codeVerifier))
      url.searchParams.set('code_challenge_method', 'S256')
      if (provider.responseMode === 'form_post') url.searchParams.set('response_mode', 'form_post')
      return url.href
    },

    /** Exchanges the code, verifies the id_token (and its nonce), and reads the claims the service keeps. */
    async finish(name: SocialProviderName, { code, codeVerifier, nonce }: { code: string; codeVerifier: string; nonce: string }): Promise<SocialClaims> {
      const provider = providers[name]!
      const { discovery, jwks } = await discover(name)
      const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: codeVerifier })
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }
      // RFC 6749 §2.3.1: id and secret are form-encoded before they are joined and base64-encoded.
      if (provider.clientSecret) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(provider.clientId)}:${encodeURIComponent(provider.clientSecret)}`).toString('base64')}`
      else form.set('client_id', provider.clientId)
      const { status, json } = await fetchJson(discovery.token_endpoint, { method: 'POST', headers, body: form.toString(), timeoutMs })
      if (status !== 200) throw new OutboundError(`${name}: token endpoint answered ${status}: ${JSON.stringify(json)?.slice(0, 300)}`)
      const tokens = tokenSchema.safeParse(json)
      if (!tokens.success) throw new OutboundError(`${name}: token answer has no valid id_token`)

      let payload: JWTPayload
      try {
        const algorithms = (discovery.id_token_signing_alg_values_supported ?? ['RS256']).filter((alg) => ACCEPTED_ALGORITHMS.includes(alg))
        ;({ payload } = await jwtVerify(tokens.data.id_token, jwks, { issuer: provider.issuer, audience: provider.clientId, algorithms, currentDate: new Date(now()), clockTolerance: 60 }))
      } catch (error) {
        throw new OutboundError(`${name}: id_token refused: ${(error as Error).message}`)
      }
      if (payload.nonce !== nonce) throw new OutboundError(`${name}: id_token nonce does not match the sign-in's`)
      if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== provider.clientId) throw new OutboundError(`${name}: id_token azp is not this client`)
      const subject = text(payload.sub, 255)
      if (!subject) throw new OutboundError(`${name}: id_token has no valid sub`)

      let claims: Record<string, unknown> = payload
      if (!text(payload.email, 254) && discovery.userinfo_endpoint && tokens.data.access_token) {
        const userinfo = await fetchJson(discovery.userinfo_endpoint, { headers: { authorization: `Bearer ${tokens.data.access_token}`, accept: 'application/json' }, timeoutMs })
        const body = userinfo.json as Record<string, unknown> | undefined
        // OpenID Connect Core §5.3.2: userinfo must be about the id_token's subject.
        if (userinfo.status === 200 && body && typeof body === 'object' && body.sub === subject) claims = { ...body, ...payload }
      }
      // Only an address the provider says it verified is kept.
      const email = claims.email_verified === true || claims.email_verified === 'true' ? text(claims.email, 254)?.toLowerCase() ?? null : null
      return { subject, email, userName: text(claims.preferred_username, 64) ?? text(claims.name, 64) }
    },
  }
}

export type OidcClient = ReturnType<typeof createOidcClient>
