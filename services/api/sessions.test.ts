import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { createSiweMessage, type CreateSiweMessageParameters } from 'viem/siwe'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSolanaSignInMessage, type SolanaSignInMessageFields } from '../../src/shared/families/solana/signInMessage'
import { createApiApp } from './app'
import { openDatabase, type Database } from './db/createDatabase'

// anvil's well-known dev keys (accounts 1 and 4).
const alice = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const mallory = privateKeyToAccount('0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a')
/** A Solana key as a wallet holds it: its base58 address, and ed25519 signatures over UTF-8 text, sent in base58. */
const solanaKey = () => {
  const secret = ed25519.utils.randomPrivateKey()
  return {
    address: base58.encode(ed25519.getPublicKey(secret)),
    signMessage: ({ message }: { message: string }) => base58.encode(ed25519.sign(new TextEncoder().encode(message), secret)),
  }
}
const solAlice = solanaKey()
const solMallory = solanaKey()
/** The local Solana chain's CAIP-2 reference, as startStack passes it. */
const LOCALNET = 'CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3'
const MAINNET = '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
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
        { id: 'pair', allowedOrigins: [SITE, OTHER_SITE] },
      ],
      now: () => clock,
      solanaLocalnetReference: LOCALNET,
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
    // A page the project does not list is refused before its message is read.
    expect(await signIn(await message(), { origin: OTHER_SITE })).toMatchObject({ status: 403, body: { error: { code: 'ORIGIN_NOT_ALLOWED', field: 'origin' } } })
    // One the project lists is still refused a sign-in to its other site.
    expect(await signIn(await message({}, 'pair'), { project: 'pair', origin: OTHER_SITE })).toMatchObject({ status: 403, body: { error: { code: 'DOMAIN_NOT_ALLOWED', field: 'origin' } } })
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

  it('lets the session’s holder revoke it with its own sign-in signature, and nobody with the id alone or another signature', async () => {
    const text = await message()
    const holderProof = await alice.signMessage({ message: text })
    const { body: held } = await signIn(text)
    const other = await signIn(await message())
    const strangers = await signIn(await message({ address: mallory.address }), { signer: mallory })
    const revoke = (body: unknown, project = 'site') => call(`/v1/sessions/${held.id}/revoke`, { project, body })
    const state = async () => ((await (await call(`/v1/sessions/${held.id}`)).json()) as { revoked: boolean }).revoked

    // The id is all GET needs, so it proves nothing.
    expect(await revoke({ pci: held.id })).toMatchObject({ status: 400 })
    expect(await revoke({ pci: held.id, signature: '' })).toMatchObject({ status: 400 })
    expect(await (await revoke({ pci: held.id, signature: held.id })).json()).toMatchObject({ error: { code: 'INVALID_INPUT', field: 'signature' } })
    // A well-formed signature that is not this session's: made up, a stranger's session's, the same account's other session's.
    for (const signature of [`0x${'ab'.repeat(65)}`, (await db.query<{ signature: string }>('select signature from sessions where id = $1', [strangers.body.id]))[0]!.signature, await alice.signMessage({ message: 'x' })]) {
      const refused = await revoke({ pci: held.id, signature })
      expect(refused.status).toBe(401)
      expect(await refused.json()).toMatchObject({ error: { code: 'INVALID_SIGNATURE', field: 'signature' } })
    }
    expect((await call(`/v1/sessions/${other.body.id}/revoke`, { body: { pci: other.body.id, signature: holderProof } })).status).toBe(401)
    // The right proof under another project, or naming another session in pci.
    expect((await revoke({ pci: held.id, signature: holderProof }, 'twin')).status).toBe(404)
    expect((await revoke({ pci: other.body.id, signature: holderProof })).status).toBe(400)
    expect(await state()).toBe(false)

    expect(await revoke({ pci: held.id, signature: holderProof })).toMatchObject({ status: 200 })
    expect(await state()).toBe(true)
    // Revoking again changes nothing; the other sessions are untouched.
    expect((await revoke({ pci: held.id, signature: holderProof })).status).toBe(200)
    expect(await (await call(`/v1/sessions/${other.body.id}`)).json()).toMatchObject({ revoked: false })
    expect(await (await call(`/v1/sessions/${strangers.body.id}`)).json()).toMatchObject({ revoked: false })
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

  describe('with Sign In With Solana', () => {
    const solanaMessage = async (fields: Partial<SolanaSignInMessageFields> = {}, project = 'site') =>
      createSolanaSignInMessage({
        domain: 'dapp.test',
        address: solAlice.address,
        uri: SITE,
        version: '1',
        chainId: 'mainnet',
        nonce: await issueNonce(project),
        issuedAt: new Date(clock),
        expirationTime: new Date(clock + 60 * MINUTE),
        ...fields,
      })
    const solanaSignIn = async (text: string, { signer = solAlice, project = 'site', origin, signed = text }: { signer?: typeof solAlice; project?: string; origin?: string; signed?: string } = {}) => {
      const response = await call('/v1/sessions', { project, origin, body: { message: text, signature: signer.signMessage({ message: signed }) } })
      return { status: response.status, body: (await response.json()) as { id: string; caipAddress: string; expiresAt: number; error: { code: string; message: string; field: string } } }
    }

    it('makes a session from a message signed with ed25519, for solana:{cluster’s CAIP-2 reference}:{address}', async () => {
      const created = await solanaSignIn(await solanaMessage({ statement: 'Sign in to Dapp.' }), { origin: SITE })
      expect(created.status).toBe(201)
      expect(created.body).toMatchObject({ caipAddress: `solana:${MAINNET}:${solAlice.address}`, expiresAt: clock + 60 * MINUTE, revoked: false })
      expect(await (await call(`/v1/sessions/${created.body.id}`)).json()).toMatchObject({ id: created.body.id, caipAddress: `solana:${MAINNET}:${solAlice.address}`, revoked: false })
    })

    it.each([
      ['mainnet', MAINNET],
      ['devnet', 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1'],
      ['testnet', '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z'],
      ['solana:devnet', 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1'],
      ['localnet', LOCALNET],
    ] as const)('maps Chain ID %s to the CAIP-2 reference %s', async (chainId, reference) => {
      expect(await solanaSignIn(await solanaMessage({ chainId }))).toMatchObject({ status: 201, body: { caipAddress: `solana:${reference}:${solAlice.address}` } })
    })

    it('refuses Chain ID localnet when the service was given no localnet reference', async () => {
      const bare = createApiApp({ db, chains: [], projects: [{ id: 'site', allowedOrigins: [SITE] }], now: () => clock })
      const nonce = ((await (await bare.request('/v1/sessions/nonce?projectId=site', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).json()) as { nonce: string }).nonce
      const text = await solanaMessage({ chainId: 'localnet', nonce })
      const response = await bare.request('/v1/sessions?projectId=site', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: text, signature: solAlice.signMessage({ message: text }) }) })
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ error: { code: 'INVALID_INPUT', field: 'message.chainId' } })
    })

    it('gives every session an end: 24 hours without an Expiration Time, never more than 7 days', async () => {
      expect((await solanaSignIn(await solanaMessage({ expirationTime: undefined }))).body.expiresAt).toBe(clock + 24 * 60 * MINUTE)
      expect((await solanaSignIn(await solanaMessage({ expirationTime: new Date(clock + 365 * 24 * 60 * MINUTE) }))).body.expiresAt).toBe(clock + 7 * 24 * 60 * MINUTE)
    })

    it.each([
      ['a message for another domain', { domain: 'evil.test', uri: 'https://evil.test' }, 403, 'DOMAIN_NOT_ALLOWED', 'message.uri'],
      ['a domain that is not the URI’s host', { domain: 'evil.test' }, 403, 'DOMAIN_NOT_ALLOWED', 'message.domain'],
      ['a Not Before in the future', { notBefore: new Date(Date.parse('2030-01-01T00:00:00Z')) }, 400, 'NOT_YET_VALID', 'message.notBefore'],
      ['an Issued At a year old', { issuedAt: new Date(Date.parse('2025-11-23T12:00:00Z')), expirationTime: undefined }, 400, 'STALE_MESSAGE', 'message.issuedAt'],
      ['an Issued At in the future', { issuedAt: new Date(Date.parse('2030-01-01T00:00:00Z')) }, 400, 'NOT_YET_VALID', 'message.issuedAt'],
      ['an expired Expiration Time', { expirationTime: new Date(Date.parse('2026-01-01T00:00:00Z')) }, 400, 'STALE_MESSAGE', 'message.expirationTime'],
      ['a made-up nonce', { nonce: 'a'.repeat(76) }, 400, 'NONCE_NOT_ISSUED', 'message.nonce'],
    ] as const)('refuses %s', async (_name, fields, status, code, field) => {
      const refused = await solanaSignIn(await solanaMessage(fields as Partial<SolanaSignInMessageFields>))
      expect(refused).toMatchObject({ status, body: { error: { code, field } } })
      expect(refused.body.error.message).toMatch(new RegExp(`^${field.replace('.', '\\.')}: `))
    })

    it.each([
      ['a line added after the fields', (m: string) => `${m}\nAdmin: true`, 'message'],
      ['text before the message', (m: string) => `Ignore this.\n${m}`, 'message'],
      ['a trailing newline', (m: string) => `${m}\n`, 'message'],
      ['an EVM address', (m: string) => m.replace(solAlice.address, alice.address), 'message.address'],
      ['an address of 31 bytes', (m: string) => m.replace(solAlice.address, base58.encode(new Uint8Array(31).fill(9))), 'message.address'],
      ['version 2', (m: string) => m.replace('Version: 1', 'Version: 2'), 'message.version'],
      ['no Issued At', (m: string) => m.replace(/\nIssued At: .*/, ''), 'message.issuedAt'],
      ['an unknown chain id', (m: string) => m.replace('Chain ID: mainnet', 'Chain ID: mainnet-beta'), 'message.chainId'],
      ['a CAIP-2 reference as chain id', (m: string) => m.replace('Chain ID: mainnet', `Chain ID: ${MAINNET}`), 'message.chainId'],
      ['a date that is not as toISOString writes it', (m: string) => m.replace(/(Issued At: .*)\.000Z/, '$1Z'), 'message.issuedAt'],
    ])('refuses a message with %s, naming what is wrong', async (_name, tamper, field) => {
      const refused = await solanaSignIn(tamper(await solanaMessage()))
      expect(refused).toMatchObject({ status: 400, body: { error: { code: 'INVALID_INPUT', field } } })
    })

    it('refuses a page whose Origin is not the message’s URI', async () => {
      expect(await solanaSignIn(await solanaMessage(), { origin: OTHER_SITE })).toMatchObject({ status: 403, body: { error: { code: 'ORIGIN_NOT_ALLOWED', field: 'origin' } } })
    })

    it('uses a nonce once: a replayed message is refused, and so is a second message with the same nonce, and one of five simultaneous uses wins', async () => {
      const nonce = await issueNonce()
      const first = await solanaMessage({ nonce })
      expect((await solanaSignIn(first)).status).toBe(201)
      expect(await solanaSignIn(first)).toMatchObject({ status: 409, body: { error: { code: 'NONCE_USED', field: 'message.nonce' } } })
      expect(await solanaSignIn(await solanaMessage({ nonce, statement: 'Again.' }))).toMatchObject({ status: 409, body: { error: { code: 'NONCE_USED' } } })
      // The same nonce in an EIP-4361 message: nonces are one pool, whatever the family.
      expect(await signIn(await message({ nonce }))).toMatchObject({ status: 409, body: { error: { code: 'NONCE_USED' } } })
      const text = await solanaMessage()
      const results = await Promise.all(Array.from({ length: 5 }, () => solanaSignIn(text)))
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409])
    })

    it('refuses another project’s nonce', async () => {
      expect(await solanaSignIn(await solanaMessage({}, 'twin'))).toMatchObject({ status: 400, body: { error: { code: 'NONCE_NOT_ISSUED', field: 'message.nonce' } } })
    })

    it('refuses someone else’s signature and a signature over other text, without spending the nonce', async () => {
      const text = await solanaMessage()
      expect(await solanaSignIn(text, { signer: solMallory })).toMatchObject({ status: 401, body: { error: { code: 'INVALID_SIGNATURE', field: 'signature' } } })
      expect(await solanaSignIn(text, { signed: text.replace('Version: 1', 'Version: 1 ') })).toMatchObject({ status: 401, body: { error: { code: 'INVALID_SIGNATURE' } } })
      expect((await solanaSignIn(text)).status).toBe(201)
    })

    it('refuses a signature anyone can make for a small-order public key (the all-zero System Program address)', async () => {
      const text = await solanaMessage({ address: '11111111111111111111111111111111' })
      // R = the identity point, s = 0: valid for every message under the lenient (ZIP-215) rules, not RFC 8032's.
      const forged = base58.encode(new Uint8Array([1, ...new Array<number>(63).fill(0)]))
      expect((await call('/v1/sessions', { body: { message: text, signature: forged } })).status).toBe(401)
    })

    it.each([
      ['a hex signature', () => '0x' + 'ab'.repeat(64)],
      ['a base58 signature of 63 bytes', () => base58.encode(new Uint8Array(63).fill(5))],
      ['an EVM signature', () => alice.signMessage({ message: 'x' })],
    ])('refuses %s for a Solana message, naming the signature', async (_name, signature) => {
      const response = await call('/v1/sessions', { body: { message: await solanaMessage(), signature: await signature() } })
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ error: { code: 'INVALID_INPUT', field: 'signature' } })
    })

    it('revokes a session with the owner’s base58 signature over revoke:{id}, and nobody else’s', async () => {
      const { body } = await solanaSignIn(await solanaMessage())
      const revoke = (signature: string, project = 'site') => call(`/v1/sessions/${body.id}/revoke`, { project, body: { pci: body.id, signature } })
      expect((await revoke(solMallory.signMessage({ message: `revoke:${body.id}` }))).status).toBe(401)
      expect((await revoke(solAlice.signMessage({ message: `revoke:${body.id}x` }))).status).toBe(401)
      expect((await revoke(await alice.signMessage({ message: `revoke:${body.id}` }))).status).toBe(400)
      expect((await revoke(solAlice.signMessage({ message: `revoke:${body.id}` }), 'twin')).status).toBe(404)
      expect(await (await call(`/v1/sessions/${body.id}`)).json()).toMatchObject({ revoked: false })
      expect((await revoke(solAlice.signMessage({ message: `revoke:${body.id}` }))).status).toBe(200)
      expect(await (await call(`/v1/sessions/${body.id}`)).json()).toMatchObject({ revoked: true })
    })

    it('lets the holder revoke a Solana session with its own base58 sign-in signature, and not with another session’s', async () => {
      const text = await solanaMessage()
      const proof = solAlice.signMessage({ message: text })
      const { body } = await solanaSignIn(text)
      const stranger = await solanaSignIn(await solanaMessage({ address: solMallory.address }), { signer: solMallory })
      const [{ signature: strangerProof }] = (await db.query<{ signature: string }>('select signature from sessions where id = $1', [stranger.body.id])) as [{ signature: string }]
      const revoke = (signature: string) => call(`/v1/sessions/${body.id}/revoke`, { body: { pci: body.id, signature } })
      expect((await revoke(strangerProof)).status).toBe(401)
      expect(await (await call(`/v1/sessions/${body.id}`)).json()).toMatchObject({ revoked: false })
      expect((await revoke(proof)).status).toBe(200)
      expect(await (await call(`/v1/sessions/${body.id}`)).json()).toMatchObject({ revoked: true })
    })

    it('keeps 10 sessions per Solana address', async () => {
      for (let i = 0; i < 12; i++) expect((await solanaSignIn(await solanaMessage({ chainId: 'testnet' }))).status).toBe(201)
      const caipAddress = `solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z:${solAlice.address}`
      expect(Number((await db.query<{ n: string }>('select count(*) as n from sessions where caip_address = $1', [caipAddress]))[0]!.n)).toBe(10)
    })
  })
})
