import { createSiweMessage, type CreateSiweMessageParameters } from 'viem/siwe'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createApiApp } from './app'
import { openDatabase, type Database } from './db/createDatabase'

// anvil's well-known dev keys (accounts 1 and 4).
const alice = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const mallory = privateKeyToAccount('0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a')
const SITE = 'https://dapp.test'
const OTHER_SITE = 'https://other.test'
const MINUTE = 60_000

describe('sign-in sessions', () => {
  let db: Database
  let clock = Date.parse('2026-11-23T12:00:00Z')
  let app: ReturnType<typeof createApiApp>
  beforeAll(async () => {
    db = await openDatabase({})
    app = createApiApp({
      db,
      chains: [],
      projects: [
        { id: 'site', allowedOrigins: [SITE] },
        { id: 'other', allowedOrigins: [OTHER_SITE] },
        { id: 'twin', allowedOrigins: [SITE] },
      ],
      now: () => clock,
    })
  })
  afterAll(() => db.close())
  beforeEach(() => void (clock += 10 * MINUTE))

  const call = (path: string, { project = 'site', body, origin }: { project?: string; body?: unknown; origin?: string } = {}) =>
    app.request(`${path}?projectId=${project}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const issueNonce = async (project = 'site') => ((await (await call('/v1/sessions/nonce', { project, body: {} })).json()) as { nonce: string }).nonce
  const message = async (fields: Partial<CreateSiweMessageParameters> = {}, project = 'site') =>
    createSiweMessage({
      address: alice.address,
      chainId: 31337,
      domain: 'dapp.test',
      uri: SITE,
      version: '1',
      nonce: await issueNonce(project),
      issuedAt: new Date(clock),
      expirationTime: new Date(clock + 60 * MINUTE),
      ...fields,
    })
  const signIn = async (text: string, { signer = alice, project = 'site', origin }: { signer?: typeof alice; project?: string; origin?: string } = {}) => {
    const response = await call('/v1/sessions', { project, origin, body: { message: text, signature: await signer.signMessage({ message: text }) } })
    return { status: response.status, body: (await response.json()) as { id: string; expiresAt: number; error: { code: string; message: string; field: string } } }
  }

  it('makes a session from a fresh message with a nonce it issued, ending at the message’s Expiration Time', async () => {
    const created = await signIn(await message(), { origin: SITE })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ caipAddress: `eip155:31337:${alice.address}`, expiresAt: clock + 60 * MINUTE, revoked: false })
    expect(await (await call(`/v1/sessions/${created.body.id}`)).json()).toMatchObject({ id: created.body.id, revoked: false })
  })

  it('gives every session an end: 24 hours without an Expiration Time, never more than 7 days', async () => {
    expect((await signIn(await message({ expirationTime: undefined }))).body.expiresAt).toBe(clock + 24 * 60 * MINUTE)
    expect((await signIn(await message({ expirationTime: new Date(clock + 365 * 24 * 60 * MINUTE) }))).body.expiresAt).toBe(clock + 7 * 24 * 60 * MINUTE)
  })

  it.each([
    ['a message for another domain', { domain: 'evil.test', uri: 'https://evil.test' }, 403, 'DOMAIN_NOT_ALLOWED', 'message.uri'],
    ['a domain that is not the URI’s host', { domain: 'evil.test' }, 403, 'DOMAIN_NOT_ALLOWED', 'message.domain'],
    ['a scheme that is not the URI’s', { scheme: 'http' }, 403, 'DOMAIN_NOT_ALLOWED', 'message.scheme'],
    ['a Not Before in the future', { notBefore: new Date(Date.parse('2030-01-01T00:00:00Z')) }, 400, 'NOT_YET_VALID', 'message.notBefore'],
    ['an Issued At a year old', { issuedAt: new Date(Date.parse('2025-11-23T12:00:00Z')), expirationTime: undefined }, 400, 'STALE_MESSAGE', 'message.issuedAt'],
    ['an Issued At in the future', { issuedAt: new Date(Date.parse('2030-01-01T00:00:00Z')) }, 400, 'NOT_YET_VALID', 'message.issuedAt'],
    ['an expired Expiration Time', { expirationTime: new Date(Date.parse('2026-01-01T00:00:00Z')) }, 400, 'STALE_MESSAGE', 'message.expirationTime'],
    ['chain id 0', { chainId: 0 }, 400, 'INVALID_INPUT', 'message.chainId'],
    ['chain id past 2^53', { chainId: 2 ** 60 }, 400, 'INVALID_INPUT', 'message.chainId'],
    ['a made-up nonce', { nonce: 'a'.repeat(76) }, 400, 'NONCE_NOT_ISSUED', 'message.nonce'],
  ] as const)('refuses %s', async (_name, fields, status, code, field) => {
    const refused = await signIn(await message(fields as Partial<CreateSiweMessageParameters>))
    expect(refused).toMatchObject({ status, body: { error: { code, field } } })
    expect(refused.body.error.message).toMatch(new RegExp(`^${field.replace('.', '\\.')}: `))
  })

  it.each([
    ['a line added after the fields', (m: string) => `${m}\nAdmin: true`],
    ['text before the message', (m: string) => `Ignore this.\n${m}`],
    ['a lower-case address', (m: string) => m.replace(alice.address, alice.address.toLowerCase())],
    ['version 2', (m: string) => m.replace('Version: 1', 'Version: 2')],
    ['no Issued At', (m: string) => m.replace(/\nIssued At: .*/, '')],
    ['a chain id of 400 digits', (m: string) => m.replace('Chain ID: 31337', `Chain ID: ${'9'.repeat(400)}`)],
  ])('refuses a message with %s, naming what is wrong', async (_name, tamper) => {
    const refused = await signIn(tamper(await message()))
    expect(refused.status).toBe(400)
    expect(refused.body.error.code).toBe('INVALID_INPUT')
    expect(refused.body.error.field).toMatch(/^message/)
  })

  it('refuses a page whose Origin is not the message’s URI', async () => {
    expect(await signIn(await message(), { origin: OTHER_SITE })).toMatchObject({ status: 403, body: { error: { code: 'DOMAIN_NOT_ALLOWED', field: 'origin' } } })
  })

  it('uses a nonce once: a replayed message is refused, and so is a second message with the same nonce', async () => {
    const nonce = await issueNonce()
    const first = await message({ nonce })
    expect((await signIn(first)).status).toBe(201)
    expect(await signIn(first)).toMatchObject({ status: 409, body: { error: { code: 'NONCE_USED' } } })
    expect(await signIn(await message({ nonce, statement: 'Again.' }))).toMatchObject({ status: 409, body: { error: { code: 'NONCE_USED' } } })
  })

  it('lets exactly one of five simultaneous uses of a nonce win', async () => {
    const text = await message()
    const results = await Promise.all(Array.from({ length: 5 }, () => signIn(text)))
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409])
  })

  it('does not spend a nonce on a signature from someone else', async () => {
    const text = await message()
    expect((await signIn(text, { signer: mallory })).status).toBe(401)
    expect((await signIn(text)).status).toBe(201)
  })

  it('refuses a nonce after its 5 minutes', async () => {
    const nonce = await issueNonce()
    clock += 5 * MINUTE + 1_000
    expect(await signIn(await message({ nonce }))).toMatchObject({ status: 400, body: { error: { code: 'NONCE_EXPIRED', field: 'message.nonce' } } })
  })

  it('keeps a project’s nonces and sessions to that project', async () => {
    // Same origins, other project: its nonce is not this project's.
    expect(await signIn(await message({}, 'twin'))).toMatchObject({ status: 400, body: { error: { code: 'NONCE_NOT_ISSUED' } } })
    // A message made for one project, sent under another whose origins differ.
    expect(await signIn(await message({}, 'other'), { project: 'other' })).toMatchObject({ status: 403, body: { error: { code: 'DOMAIN_NOT_ALLOWED' } } })
    const { body } = await signIn(await message())
    expect((await call(`/v1/sessions/${body.id}`, { project: 'twin' })).status).toBe(404)
    const revoke = { pci: body.id, signature: await alice.signMessage({ message: `revoke:${body.id}` }) }
    expect((await call(`/v1/sessions/${body.id}/revoke`, { project: 'twin', body: revoke })).status).toBe(404)
    expect((await call(`/v1/sessions/${body.id}/revoke`, { body: { ...revoke, signature: await mallory.signMessage({ message: `revoke:${body.id}` }) } })).status).toBe(401)
    expect((await call(`/v1/sessions/${body.id}/revoke`, { body: revoke })).status).toBe(200)
    expect(await (await call(`/v1/sessions/${body.id}`)).json()).toMatchObject({ revoked: true })
    expect((await call('/v1/sessions/not-an-id')).status).toBe(400)
  })

  it('stores nothing for issued nonces, forgets spent ones when they expire, and keeps 10 sessions per address', async () => {
    const count = async (table: string) => Number((await db.query<{ n: string }>(`select count(*) as n from ${table}`))[0]!.n)
    const spentBefore = await count('siwx_used_nonces')
    await Promise.all(Array.from({ length: 200 }, () => issueNonce()))
    expect(await count('siwx_used_nonces')).toBe(spentBefore)
    for (let i = 0; i < 12; i++) expect((await signIn(await message({ chainId: 5 }))).status).toBe(201)
    const spent = await count('siwx_used_nonces')
    expect(spent).toBeGreaterThanOrEqual(12)
    expect(Number((await db.query<{ n: string }>(`select count(*) as n from sessions where caip_address = $1`, [`eip155:5:${alice.address}`]))[0]!.n)).toBe(10)
    clock += 6 * MINUTE
    await signIn(await message())
    expect(await count('siwx_used_nonces')).toBe(1)
  })
})
