import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBoundedAdapter } from './createBoundedAdapter'
import { socialProviderNames } from './devAccounts'
import { startLocalIdentityProviders, type LocalIdentityProviders } from './startLocalIdentityProviders'

describe('local identity providers', () => {
  let idp: LocalIdentityProviders
  const logLines: string[] = []
  beforeAll(async () => {
    idp = await startLocalIdentityProviders({ port: 0, client: { clientId: 'c', clientSecret: 's', redirectUris: ['http://127.0.0.1:9/cb'] }, log: (line) => logLines.push(line) })
  }, 60_000)
  afterAll(async () => {
    await idp?.stop()
  })

  it('runs one issuer per social provider, each with discovery and keys of its own, PKCE S256 required', async () => {
    const kids = new Set<string>()
    for (const name of socialProviderNames) {
      const discovery = (await (await fetch(`${idp.issuers[name]}/.well-known/openid-configuration`)).json()) as Record<string, unknown>
      expect(discovery).toMatchObject({ issuer: `${idp.url}/${name}`, authorization_endpoint: `${idp.url}/${name}/auth`, token_endpoint: `${idp.url}/${name}/token`, code_challenge_methods_supported: ['S256'] })
      const { keys } = (await (await fetch(discovery.jwks_uri as string)).json()) as { keys: { kid: string; d?: string }[] }
      expect(keys).toHaveLength(1)
      expect(keys[0]!.d).toBeUndefined() // the public half only
      kids.add(keys[0]!.kid)
    }
    expect(kids.size).toBe(6)
  })

  it('refuses an authorization without PKCE, on its own error page (no remote font, escaped)', async () => {
    const url = new URL(`${idp.issuers.google}/auth`)
    for (const [key, value] of Object.entries({ response_type: 'code', client_id: 'c', redirect_uri: 'http://127.0.0.1:9/cb', scope: 'openid', state: '<b>x</b>' })) url.searchParams.set(key, value)
    const response = await fetch(url, { redirect: 'manual' })
    // The error goes back to the client (it is a registered redirect URI), saying PKCE is missing.
    const location = new URL(response.headers.get('location')!)
    expect(location.searchParams.get('error')).toBe('invalid_request')
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/)
    const unknownClient = await fetch(`${idp.issuers.google}/auth?client_id=nope&response_type=code&scope=openid`)
    const html = await unknownClient.text()
    expect(unknownClient.status).toBe(400)
    expect(html).not.toMatch(/googleapis|<script/)
  })

  it('answers an unknown path with the list of issuers', async () => {
    const response = await fetch(`${idp.url}/myspace/auth`)
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: 'No provider at /myspace: use one of /google, /github, /apple, /facebook, /x, /discord' })
  })

  it('refuses malformed relay calls, and bodies over 16 KiB', async () => {
    const channel = (body: string) => fetch(`${idp.farcasterRelayUrl}/v1/channel`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    expect((await channel('{"siweUri":')).status).toBe(400)
    expect((await channel(JSON.stringify({ siweUri: 'https://a.test', domain: 'a.test', nonce: 'short' }))).status).toBe(400)
    expect((await channel(JSON.stringify({ siweUri: 'https://a.test', domain: 'a.test', nonce: 'abcdefgh12', notBefore: 'yesterday' }))).status).toBe(400)
    expect((await channel(JSON.stringify({ siweUri: 'x'.repeat(20_000), domain: 'a.test', nonce: 'abcdefgh12' }))).status).toBe(400)
    const ok = await channel(JSON.stringify({ siweUri: 'https://a.test', domain: 'a.test', nonce: 'abcdefgh12' }))
    expect(ok.status).toBe(201)
    expect((await fetch(`${idp.farcasterRelayUrl}/v1/channel/status`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401)
    const connect = await fetch(`${idp.farcasterRelayUrl}/connect?channelToken=%3Cscript%3E`)
    expect(connect.status).toBe(404)
    expect(await connect.text()).not.toContain('<script')
    expect(logLines).toEqual([])
  })
})

describe('the bounded storage adapter', () => {
  it('keeps at most its count of entries, and none past its expiry', async () => {
    let clock = 1_000_000
    const Adapter = createBoundedAdapter({ maxEntries: 3, now: () => clock })
    const sessions = new Adapter('Session')
    for (let i = 1; i <= 5; i++) await sessions.upsert(`s${i}`, { uid: `u${i}` }, 60)
    expect(await Promise.all(['s1', 's2', 's3', 's4', 's5'].map(async (id) => (await sessions.find(id)) !== undefined))).toEqual([false, false, true, true, true])
    expect(await sessions.findByUid('u4')).toEqual({ uid: 'u4' })
    clock += 61_000
    expect(await sessions.find('s5')).toBeUndefined()
  })

  it('consumes, destroys and revokes by grant', async () => {
    const Adapter = createBoundedAdapter()
    const codes = new Adapter('AuthorizationCode')
    await codes.upsert('c1', { grantId: 'g1' }, 60)
    await codes.upsert('c2', { grantId: 'g2' }, 60)
    await codes.consume('c1')
    expect((await codes.find('c1'))?.consumed).toEqual(expect.any(Number))
    await codes.revokeByGrantId('g1')
    expect(await codes.find('c1')).toBeUndefined()
    await codes.destroy('c2')
    expect(await codes.find('c2')).toBeUndefined()
  })
})
