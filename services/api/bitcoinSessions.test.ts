import { secp256k1 } from '@noble/curves/secp256k1'
import { sha256 } from '@noble/hashes/sha2.js'
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { base64 } from '@scure/base'
import { initEccLib, networks, payments, type Network } from 'bitcoinjs-lib'
import * as ecc from 'tiny-secp256k1'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSignInMessage } from '../../src/main/families/bip122/signInMessage'
import type { SignInMessageFields } from '../../src/main/families/types'
import { BIP322_MAX_SIGNATURE_LENGTH, signBip322 } from '../../src/shared/families/bip122/bip322'
import { createBitcoinSignInMessage } from '../../src/shared/families/bip122/signInMessage'
import { createApiApp } from './app'
import { openDatabase, type Database } from './db/createDatabase'
import { BITCOIN_SIGNATURE_MAX_LENGTH } from './routes/bitcoinSignIn'

initEccLib(ecc) // bitcoinjs-lib derives P2TR addresses with tiny-secp256k1

const REFERENCES = {
  mainnet: '000000000019d6689c085ae165831e93',
  testnet: '000000000933ea01ad0ee984209779ba',
  signet: '00000008819873e925422c1ff0f99f7c',
  regtest: '0f9188f13cb7b2c71f2a335e3a4fc328',
} as const
const SITE = 'https://dapp.test'
const OTHER_SITE = 'https://other.test'
const MINUTE = 60_000

/** A Bitcoin key as a wallet holds it: its P2WPKH and P2TR addresses on a network, BIP-322 and legacy signatures. */
const bitcoinKey = (network: Network = networks.regtest) => {
  const privateKey = secp256k1.utils.randomPrivateKey()
  const pubkey = secp256k1.getPublicKey(privateKey, true)
  return {
    privateKey,
    payment: payments.p2wpkh({ pubkey, network }).address!,
    ordinals: payments.p2tr({ internalPubkey: pubkey.subarray(1), network }).address!,
    sign: (message: string, address: string) => signBip322({ message, address, privateKey }),
    /** "Bitcoin Signed Message" with the BIP-137 P2WPKH header, as many wallets still sign. */
    signLegacy: (message: string) => {
      const bytes = utf8ToBytes(message)
      // CompactSize length: a sign-in message is longer than 252 bytes.
      const length = bytes.length < 0xfd ? Uint8Array.of(bytes.length) : Uint8Array.of(0xfd, bytes.length & 0xff, bytes.length >> 8)
      const digest = sha256(sha256(concatBytes(utf8ToBytes('\x18Bitcoin Signed Message:\n'), length, bytes)))
      const signature = secp256k1.sign(digest, privateKey)
      return base64.encode(Uint8Array.of(39 + signature.recovery, ...signature.toCompactRawBytes()))
    },
  }
}
const alice = bitcoinKey()
const mallory = bitcoinKey()
const evm = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')

type Created = { id: string; caipAddress: string; expiresAt: number; revoked: boolean; error: { code: string; message: string; field: string } }

describe('sign-in sessions with Bitcoin (CAIP-122 on bip122, BIP-322 signatures)', () => {
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
        { id: 'twin', allowedOrigins: [SITE] },
        { id: 'other', allowedOrigins: [OTHER_SITE] },
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
  /** The message as the widget writes it (src/main/families/bip122/signInMessage.ts). */
  const message = async (fields: Partial<SignInMessageFields> = {}, project = 'site') =>
    createSignInMessage({
      address: alice.payment,
      caipNetworkId: `bip122:${REFERENCES.regtest}`,
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
  /** Signs `text` as `signer` signs for `address` (the message's own address by default) and posts it. */
  const signIn = (text: string, { signer = alice, address = text.split('\n')[1]!, signed = text, ...options }: { signer?: typeof alice; address?: string; signed?: string; project?: string; origin?: string } = {}) =>
    post({ message: text, signature: signer.sign(signed, address) }, options)

  it('makes a session from a message the wallet signed with BIP-322, for bip122:{reference}:{address}', async () => {
    const created = await signIn(await message(), { origin: SITE })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ caipAddress: `bip122:${REFERENCES.regtest}:${alice.payment}`, expiresAt: clock + 60 * MINUTE, revoked: false })
    expect(await (await call(`/v1/sessions/${created.body.id}`)).json()).toMatchObject({ id: created.body.id, caipAddress: `bip122:${REFERENCES.regtest}:${alice.payment}`, revoked: false })
  })

  it('takes the ordinals (P2TR) address as well as the payment (P2WPKH) one', async () => {
    const created = await signIn(await message({ address: alice.ordinals }))
    expect(created).toMatchObject({ status: 201, body: { caipAddress: `bip122:${REFERENCES.regtest}:${alice.ordinals}` } })
  })

  it('takes the legacy "Bitcoin Signed Message" signature many wallets still make', async () => {
    const text = await message()
    expect(await post({ message: text, signature: alice.signLegacy(text) })).toMatchObject({ status: 201, body: { caipAddress: `bip122:${REFERENCES.regtest}:${alice.payment}` } })
  })

  it.each([
    ['mainnet', networks.bitcoin],
    ['testnet', networks.testnet],
    ['signet', networks.testnet],
    ['regtest', networks.regtest],
  ] as const)('binds the session to %s by its CAIP-2 reference', async (name, network) => {
    const key = bitcoinKey(network)
    const created = await signIn(await message({ address: key.ordinals, caipNetworkId: `bip122:${REFERENCES[name]}` }), { signer: key })
    expect(created).toMatchObject({ status: 201, body: { caipAddress: `bip122:${REFERENCES[name]}:${key.ordinals}` } })
  })

  it('gives every session an end: 24 hours without an Expiration Time, never more than 7 days', async () => {
    const text = createBitcoinSignInMessage({ domain: 'dapp.test', address: alice.payment, uri: SITE, version: '1', chainId: REFERENCES.regtest, nonce: await issueNonce(), issuedAt: new Date(clock) })
    expect((await signIn(text)).body.expiresAt).toBe(clock + 24 * 60 * MINUTE)
    expect((await signIn(await message({ expirationTime: new Date(clock + 365 * 24 * 60 * MINUTE) }))).body.expiresAt).toBe(clock + 7 * 24 * 60 * MINUTE)
  })

  it.each([
    ['a message for another domain', { domain: 'evil.test', uri: 'https://evil.test' }, 403, 'DOMAIN_NOT_ALLOWED', 'message.uri'],
    ['a domain that is not the URI’s host', { domain: 'evil.test' }, 403, 'DOMAIN_NOT_ALLOWED', 'message.domain'],
    ['an Issued At a year old', { issuedAt: new Date(Date.parse('2025-11-23T12:00:00Z')), expirationTime: new Date(Date.parse('2030-01-01T00:00:00Z')) }, 400, 'STALE_MESSAGE', 'message.issuedAt'],
    ['an Issued At in the future', { issuedAt: new Date(Date.parse('2030-01-01T00:00:00Z')) }, 400, 'NOT_YET_VALID', 'message.issuedAt'],
    ['an expired Expiration Time', { expirationTime: new Date(Date.parse('2026-01-01T00:00:00Z')) }, 400, 'STALE_MESSAGE', 'message.expirationTime'],
    ['a made-up nonce', { nonce: 'a'.repeat(76) }, 400, 'NONCE_NOT_ISSUED', 'message.nonce'],
  ] as const)('refuses %s', async (_name, fields, status, code, field) => {
    const refused = await signIn(await message(fields as Partial<SignInMessageFields>))
    expect(refused).toMatchObject({ status, body: { error: { code, field } } })
    expect(refused.body.error.message).toMatch(new RegExp(`^${field.replace('.', '\\.')}: `))
  })

  it('refuses a Not Before in the future', async () => {
    const text = createBitcoinSignInMessage({ domain: 'dapp.test', address: alice.payment, uri: SITE, version: '1', chainId: REFERENCES.regtest, nonce: await issueNonce(), issuedAt: new Date(clock), notBefore: new Date(Date.parse('2030-01-01T00:00:00Z')) })
    expect(await signIn(text)).toMatchObject({ status: 400, body: { error: { code: 'NOT_YET_VALID', field: 'message.notBefore' } } })
  })

  it.each([
    ['the payment address of another network than the Chain ID', (m: string) => m.replace(alice.payment, bitcoinKey(networks.bitcoin).payment), 'message.address', /^message\.address: is a Bitcoin mainnet address, not a Bitcoin regtest one$/],
    ['a testnet address on regtest', (m: string) => m.replace(alice.payment, bitcoinKey(networks.testnet).payment), 'message.address', /Bitcoin testnet or signet address, not a Bitcoin regtest one/],
    ['a Chain ID no network has', (m: string) => m.replace(`Chain ID: ${REFERENCES.regtest}`, `Chain ID: ${'ab'.repeat(16)}`), 'message.chainId', /^message\.chainId: a{0}(ab){16} is not a network this service knows \(Bitcoin mainnet, testnet, signet or regtest\)$/],
    ['a full CAIP-2 id as Chain ID', (m: string) => m.replace(`Chain ID: ${REFERENCES.regtest}`, `Chain ID: bip122:${REFERENCES.regtest}`), 'message.chainId', /lower-case hex/],
    ['an upper-case address', (m: string) => m.replace(alice.payment, alice.payment.toUpperCase()), 'message.address', /lower case/],
    ['an EVM address', (m: string) => m.replace(alice.payment, evm.address), 'message.address', /Bitcoin address/],
    ['a line added after the fields', (m: string) => `${m}\nAdmin: true`, 'message', /^message: not a Sign in with Bitcoin \(CAIP-122\) message: unexpected line 12$/],
    ['text before the message', (m: string) => `Ignore this.\n${m}`, 'message', /^message: not a Sign-In with Ethereum \(EIP-4361\), Sign In With Solana or Sign in with Bitcoin \(CAIP-122\) message$/],
    ['a trailing newline', (m: string) => `${m}\n`, 'message', /unexpected line/],
    ['version 2', (m: string) => m.replace('Version: 1', 'Version: 2'), 'message.version', /must be 1/],
    ['no Issued At', (m: string) => m.replace(/\nIssued At: .*/, ''), 'message.issuedAt', /Issued At line is missing/],
    ['a statement of two lines', (m: string) => m.replace('Sign in with your wallet.', 'Sign in.\nAdmin: true'), 'message.statement', /one line/],
    ['the header alone', (m: string) => m.split('\n')[0]!, 'message', /address on the second line/],
    ['a Chain ID of 400 characters', (m: string) => m.replace(`Chain ID: ${REFERENCES.regtest}`, `Chain ID: ${'f'.repeat(400)}`), 'message.chainId', /32 lower-case hex/],
  ])('refuses a message with %s, with 400 and a sentence naming the field', async (_name, tamper, field, sentence) => {
    const refused = await signIn(tamper(await message()), { address: alice.payment })
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 'INVALID_INPUT', field } } })
    expect(refused.body.error.message).toMatch(sentence)
  })

  it('refuses a page whose Origin is not the message’s URI', async () => {
    expect(await signIn(await message(), { origin: OTHER_SITE })).toMatchObject({ status: 403, body: { error: { code: 'ORIGIN_NOT_ALLOWED', field: 'origin' } } })
  })

  it('uses a nonce once, across families: replays and a second message with the same nonce are refused, and one of five simultaneous uses wins', async () => {
    const nonce = await issueNonce()
    const first = await message({ nonce })
    expect((await signIn(first)).status).toBe(201)
    expect(await signIn(first)).toMatchObject({ status: 409, body: { error: { code: 'NONCE_USED', field: 'message.nonce' } } })
    expect(await signIn(await message({ nonce, statement: 'Again.' }))).toMatchObject({ status: 409, body: { error: { code: 'NONCE_USED' } } })
    expect(await signIn(await message({ nonce, address: alice.ordinals }))).toMatchObject({ status: 409, body: { error: { code: 'NONCE_USED' } } })
    const text = await message()
    const signature = alice.sign(text, alice.payment)
    const results = await Promise.all(Array.from({ length: 5 }, () => post({ message: text, signature })))
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409])
  })

  it('refuses another project’s nonce, and a message for another project’s origins', async () => {
    expect(await signIn(await message({}, 'twin'))).toMatchObject({ status: 400, body: { error: { code: 'NONCE_NOT_ISSUED', field: 'message.nonce' } } })
    expect(await signIn(await message({}, 'other'), { project: 'other' })).toMatchObject({ status: 403, body: { error: { code: 'DOMAIN_NOT_ALLOWED' } } })
  })

  it('refuses someone else’s signature, a signature over other text and one for the other address, without spending the nonce', async () => {
    const text = await message()
    const refusal = { status: 401, body: { error: { code: 'INVALID_SIGNATURE', field: 'signature' } } }
    // Mallory signing for Alice's address cannot (the key does not own it): Mallory's signature for her own address.
    expect(await post({ message: text, signature: mallory.sign(text, mallory.payment) })).toMatchObject(refusal)
    expect(await post({ message: text, signature: mallory.signLegacy(text) })).toMatchObject(refusal)
    expect(await signIn(text, { signed: text.replace('Version: 1', 'Version: 1 ') })).toMatchObject(refusal)
    // Alice's own, but for her ordinals address while the message names her payment one.
    expect(await signIn(text, { address: alice.ordinals })).toMatchObject(refusal)
    expect((await signIn(text)).status).toBe(201)
  })

  it.each([
    ['a signature of 2,049 characters', () => 'A'.repeat(2_048) + 'A', /at most 2048 characters/],
    ['a signature of 20,000 characters', () => 'A'.repeat(20_000), /at most 16384 characters/],
    ['text that is not base64 (131 hex digits)', () => 'ab'.repeat(65) + 'a', /base64/],
    ['base64 with a line break', () => `${alice.sign('x', alice.payment).slice(0, 40)}\n${alice.sign('x', alice.payment).slice(40)}`, /base64/],
    ['an empty signature', () => '', /at least 1 character/],
  ])('refuses %s for a Bitcoin message with 400, naming the signature', async (_name, signature, sentence) => {
    const response = await call('/v1/sessions', { body: { message: await message(), signature: await signature() } })
    expect(response.status).toBe(400)
    const body = (await response.json()) as Created
    expect(body).toMatchObject({ error: { code: 'INVALID_INPUT', field: 'signature' } })
    expect(body.error.message).toMatch(sentence)
  })

  it.each([
    ['garbage base64', base64.encode(Uint8Array.from({ length: 300 }, (_, i) => (i * 91) & 0xff))],
    ['a truncated signature', (text: string) => alice.sign(text, alice.payment).slice(0, 60)],
    ['a witness claiming 2^32 items', base64.encode(Uint8Array.of(0xfe, 0xff, 0xff, 0xff, 0xff, 1, 2, 3))],
    ['a full-format transaction with no input', base64.encode(Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0))],
    // Hex is base64 text too ("0x" included): it reads as bytes, which prove nothing.
    ['an EVM signature', `0x${'ab'.repeat(65)}`],
  ])('answers a well-formed but false signature (%s) with 401, never 500', async (_name, signature) => {
    const text = await message()
    const response = await call('/v1/sessions', { body: { message: text, signature: typeof signature === 'string' ? signature : signature(text) } })
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ error: { code: 'INVALID_SIGNATURE', field: 'signature' } })
  })

  it('revokes a session with the owner’s BIP-322 signature over revoke:{id}, and nobody else’s', async () => {
    const { body } = await signIn(await message())
    const revoke = (signature: string, project = 'site') => call(`/v1/sessions/${body.id}/revoke`, { project, body: { pci: body.id, signature } })
    expect((await revoke(mallory.sign(`revoke:${body.id}`, mallory.payment))).status).toBe(401)
    expect((await revoke(alice.sign(`revoke:${body.id}x`, alice.payment))).status).toBe(401)
    expect((await revoke(alice.sign(`revoke:${body.id}`, alice.ordinals))).status).toBe(401)
    expect((await revoke(await evm.signMessage({ message: `revoke:${body.id}` }))).status).toBe(401)
    expect(await (await revoke('A'.repeat(3_000))).json()).toMatchObject({ error: { code: 'INVALID_INPUT', field: 'signature' } })
    expect(await (await revoke('not base64!')).json()).toMatchObject({ error: { code: 'INVALID_INPUT', field: 'signature' } })
    expect((await revoke(alice.sign(`revoke:${body.id}`, alice.payment), 'twin')).status).toBe(404)
    expect(await (await call(`/v1/sessions/${body.id}`)).json()).toMatchObject({ revoked: false })
    expect((await revoke(alice.sign(`revoke:${body.id}`, alice.payment))).status).toBe(200)
    expect(await (await call(`/v1/sessions/${body.id}`)).json()).toMatchObject({ revoked: true })
  })

  it('revokes an ordinals-address session with a legacy-signed proof refused (no Schnorr legacy form) and a BIP-322 one accepted', async () => {
    const { body } = await signIn(await message({ address: alice.ordinals }))
    const revoke = (signature: string) => call(`/v1/sessions/${body.id}/revoke`, { body: { pci: body.id, signature } })
    expect((await revoke(alice.signLegacy(`revoke:${body.id}`))).status).toBe(401)
    expect((await revoke(alice.sign(`revoke:${body.id}`, alice.ordinals))).status).toBe(200)
  })

  it('lets the holder revoke with its own sign-in signature, and not with another session’s', async () => {
    const text = await message()
    const proof = alice.sign(text, alice.payment)
    const { body } = await post({ message: text, signature: proof })
    const stranger = await signIn(await message({ address: mallory.payment }), { signer: mallory })
    const [{ signature: strangerProof }] = (await db.query<{ signature: string }>('select signature from sessions where id = $1', [stranger.body.id])) as [{ signature: string }]
    const revoke = (signature: string) => call(`/v1/sessions/${body.id}/revoke`, { body: { pci: body.id, signature } })
    expect((await revoke(strangerProof)).status).toBe(401)
    expect(await (await call(`/v1/sessions/${body.id}`)).json()).toMatchObject({ revoked: false })
    expect((await revoke(proof)).status).toBe(200)
    expect(await (await call(`/v1/sessions/${body.id}`)).json()).toMatchObject({ revoked: true })
  })

  it('keeps 10 sessions per Bitcoin address', async () => {
    for (let i = 0; i < 12; i++) expect((await signIn(await message())).status).toBe(201)
    const caipAddress = `bip122:${REFERENCES.regtest}:${alice.payment}`
    expect(Number((await db.query<{ n: string }>('select count(*) as n from sessions where caip_address = $1 and revoked = false', [caipAddress]))[0]!.n)).toBe(10)
  })
})

describe('the Bitcoin sign-in route', () => {
  it('bounds signatures as the BIP-322 verifier does, without importing it up front', () => {
    expect(BITCOIN_SIGNATURE_MAX_LENGTH).toBe(BIP322_MAX_SIGNATURE_LENGTH)
  })
})
