import { Keyring } from '@polkadot/keyring'
import type { KeyringPair } from '@polkadot/keyring/types'
import { cryptoWaitReady } from '@polkadot/util-crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSignInMessage } from '../../src/main/families/polkadot/signInMessage'
import type { SignInMessageFields } from '../../src/main/families/types'
import { encodeSs58, polkadotNetworks } from '../../src/shared/families/polkadot/address'
import { createApiApp } from './app'
import { openDatabase, type Database } from './db/createDatabase'

const SITE = 'https://dapp.test'
const MINUTE = 60_000
const LOCAL = polkadotNetworks.local
const toHex = (bytes: Uint8Array) => `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`
const utf8 = (text: string) => new TextEncoder().encode(text)
/** What an extension's signRaw signs for `type: 'bytes'`: the message wrapped in <Bytes>…</Bytes>. */
const wrapped = (text: string) => utf8(`<Bytes>${text}</Bytes>`)

type Created = { id: string; caipAddress: string; expiresAt: number; revoked: boolean; error: { code: string; message: string; field: string } }

describe('sign-in sessions with Polkadot (CAIP-122 on polkadot, signRaw signatures)', () => {
  let db: Database
  let clock = Date.parse('2026-11-23T12:00:00Z')
  let app: ReturnType<typeof createApiApp>
  let alice: KeyringPair
  let mallory: KeyringPair
  let edward: KeyringPair
  const address = (pair: KeyringPair, prefix: number = LOCAL.ss58Prefix) => encodeSs58(pair.publicKey, prefix)

  beforeAll(async () => {
    await cryptoWaitReady()
    alice = new Keyring({ type: 'sr25519' }).addFromUri('//Alice')
    mallory = new Keyring({ type: 'sr25519' }).addFromUri('//Mallory')
    edward = new Keyring({ type: 'ed25519' }).addFromUri('//Edward')
    db = await openDatabase({})
    app = createApiApp({ db, chains: [], projects: [{ id: 'site', allowedOrigins: [SITE] }, { id: 'twin', allowedOrigins: [SITE] }], now: () => clock })
  }, 60_000)
  afterAll(() => db.close())
  beforeEach(() => void (clock += 10 * MINUTE))

  const call = (path: string, { project = 'site', body, origin }: { project?: string; body?: unknown; origin?: string } = {}) =>
    app.request(`${path}?projectId=${project}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const issueNonce = async (project = 'site') => ((await (await call('/v1/sessions/nonce', { project, body: {} })).json()) as { nonce: string }).nonce
  /** The message as the widget writes it (src/main/families/polkadot/signInMessage.ts). */
  const message = async (fields: Partial<SignInMessageFields> = {}, project = 'site') =>
    createSignInMessage({
      address: address(alice),
      caipNetworkId: LOCAL.caipNetworkId,
      domain: 'dapp.test',
      uri: SITE,
      nonce: await issueNonce(project),
      statement: 'Sign in with your wallet.',
      issuedAt: new Date(clock),
      expirationTime: new Date(clock + 60 * MINUTE),
      ...fields,
    })
  const post = async (body: { message: string; signature: string }, { project = 'site', origin }: { project?: string; origin?: string } = {}) => {
    const response = await call('/v1/sessions', { project, origin, body })
    return { status: response.status, body: (await response.json()) as Created }
  }
  const sign = (pair: KeyringPair, bytes: Uint8Array) => toHex(pair.sign(bytes))

  it('makes a session from a message the extension signed (sr25519, wrapped bytes), for polkadot:{reference}:{address}', async () => {
    const text = await message()
    const created = await post({ message: text, signature: sign(alice, wrapped(text)) }, { origin: SITE })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ caipAddress: `${LOCAL.caipNetworkId}:${address(alice)}`, expiresAt: clock + 60 * MINUTE, revoked: false })
  })

  it('takes ed25519 keys, and the generic address format', async () => {
    const text = await message({ address: address(edward, 42) })
    expect(await post({ message: text, signature: sign(edward, wrapped(text)) })).toMatchObject({ status: 201, body: { caipAddress: `${LOCAL.caipNetworkId}:${address(edward, 42)}` } })
  })

  it('refuses forged signatures: another key’s, one over other text, random bytes, and a signature for another address; the nonce stays unspent', async () => {
    const text = await message()
    const refusal = { status: 401, body: { error: { code: 'INVALID_SIGNATURE', field: 'signature' } } }
    expect(await post({ message: text, signature: sign(mallory, wrapped(text)) })).toMatchObject(refusal)
    expect(await post({ message: text, signature: sign(alice, wrapped(text.replace('Version: 1', 'Version: 2'))) })).toMatchObject(refusal)
    expect(await post({ message: text, signature: toHex(crypto.getRandomValues(new Uint8Array(64))) })).toMatchObject(refusal)
    expect(await post({ message: text, signature: `0x${'00'.repeat(64)}` })).toMatchObject(refusal)
    // Mallory's message naming Alice, signed by Mallory.
    const claimed = await message({ address: address(alice) })
    expect(await post({ message: claimed, signature: sign(mallory, wrapped(claimed)) })).toMatchObject(refusal)
    expect((await post({ message: text, signature: sign(alice, wrapped(text)) })).status).toBe(201)
  })

  it.each([
    ['not hex', `0x${'zz'.repeat(64)}`, /hex/],
    ['too short', `0x${'ab'.repeat(32)}`, /at least 130 characters/],
    ['too long', `0x${'ab'.repeat(100)}`, /at most 134 characters/],
  ])('refuses a signature %s with 400, naming the signature', async (_name, signature, sentence) => {
    const response = await call('/v1/sessions', { body: { message: await message(), signature } })
    expect(response.status).toBe(400)
    const body = (await response.json()) as Created
    expect(body).toMatchObject({ error: { code: 'INVALID_INPUT', field: 'signature' } })
    expect(body.error.message).toMatch(sentence)
  })

  it('keeps the shared rules: the domain, a nonce the service issued used once, the time window, the project', async () => {
    const foreign = await message({ domain: 'evil.test', uri: 'https://evil.test' })
    expect(await post({ message: foreign, signature: sign(alice, wrapped(foreign)) })).toMatchObject({ status: 403, body: { error: { code: 'DOMAIN_NOT_ALLOWED' } } })
    const stale = await message({ issuedAt: new Date(clock - 365 * 24 * 60 * MINUTE), expirationTime: new Date(clock + 60 * MINUTE) })
    expect(await post({ message: stale, signature: sign(alice, wrapped(stale)) })).toMatchObject({ status: 400, body: { error: { code: 'STALE_MESSAGE' } } })
    const invented = await message({ nonce: 'abcdefgh1234' })
    expect(await post({ message: invented, signature: sign(alice, wrapped(invented)) })).toMatchObject({ status: 400, body: { error: { field: 'message.nonce' } } })
    const twin = await message({}, 'twin')
    expect(await post({ message: twin, signature: sign(alice, wrapped(twin)) })).toMatchObject({ status: 400, body: { error: { code: 'NONCE_NOT_ISSUED' } } })
    const once = await message()
    const signature = sign(alice, wrapped(once))
    expect((await post({ message: once, signature })).status).toBe(201)
    expect(await post({ message: once, signature })).toMatchObject({ status: 409, body: { error: { code: 'NONCE_USED' } } })
  })

  it('refuses an address of another network, and a chain the service does not know', async () => {
    // Alice as a Polkadot (prefix 0) address on the local network (prefix 2).
    expect(() => createSignInMessage({ address: address(alice, 0), caipNetworkId: LOCAL.caipNetworkId, domain: 'dapp.test', uri: SITE, nonce: 'abcdefgh1', statement: 's', issuedAt: new Date(clock), expirationTime: new Date(clock + MINUTE) })).toThrow(
      expect.objectContaining({ code: 'INVALID_MESSAGE', field: 'address' }),
    )
    const unknown = await message({ caipNetworkId: `polkadot:${'12'.repeat(16)}` })
    expect(await post({ message: unknown, signature: sign(alice, wrapped(unknown)) })).toMatchObject({ status: 400, body: { error: { code: 'INVALID_INPUT', field: 'message.chainId' } } })
  })

  it('revokes a session with the owner’s signature over revoke:{id}, and nobody else’s', async () => {
    const text = await message()
    const { body } = await post({ message: text, signature: sign(alice, wrapped(text)) })
    const revoke = (signature: string) => call(`/v1/sessions/${body.id}/revoke`, { body: { pci: body.id, signature } })
    expect((await revoke(sign(mallory, wrapped(`revoke:${body.id}`)))).status).toBe(401)
    expect(await (await call(`/v1/sessions/${body.id}`)).json()).toMatchObject({ revoked: false })
    expect((await revoke(sign(alice, wrapped(`revoke:${body.id}`)))).status).toBe(200)
    expect(await (await call(`/v1/sessions/${body.id}`)).json()).toMatchObject({ revoked: true })
  })
})
