import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64urlnopad } from '@scure/base'
import { privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage, type CreateSiweMessageParameters } from 'viem/siwe'
import { createSolanaSignInMessage, type SolanaSignInMessageFields } from '../../../src/shared/families/solana/signInMessage'
import { createRelay } from '../../../services/relay/createRelay'
import { connectRawClient } from '../../../services/relay/testing/connectRawClient'
import { createClientJwt } from '../../../services/relay/testing/createClientJwt'
import { freePorts } from '../../../services/stack/ports'

// anvil's well-known dev keys: the victim and the forger.
const victim = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const forger = privateKeyToAccount('0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a')

/** A Solana key: base58 address, base58 ed25519 signatures over UTF-8 text (as `solana:signMessage` signs). */
const solanaKey = () => {
  const secret = ed25519.utils.randomPrivateKey()
  return {
    address: base58.encode(ed25519.getPublicKey(secret)),
    signMessage: ({ message }: { message: string }) => base58.encode(ed25519.sign(new TextEncoder().encode(message), secret)),
  }
}

export type ForgeryTarget = {
  baseUrl: string
  /** A project whose allowlist is [origin]. */
  projectId: string
  origin: string
  /** Another project with the same allowlist. */
  twinProjectId: string
}

type Attempt = { name: string; run: () => Promise<Response> }

/**
 * Sends sign-in and name-registration forgeries to a running data service and counts the ones it accepted
 * (any 2xx). Every attempt is a single request; the goal is 0 accepted.
 */
export async function benchSessionForgeries({ baseUrl, projectId, origin, twinProjectId }: ForgeryTarget) {
  const url = (path: string, project = projectId) => `${baseUrl}${path}?projectId=${project}`
  const post = (path: string, body: unknown, { project = projectId, from = origin }: { project?: string; from?: string } = {}) =>
    fetch(url(path, project), { method: 'POST', headers: { 'content-type': 'application/json', origin: from }, body: JSON.stringify(body) })
  const nonce = async (project = projectId) => ((await (await post('/v1/sessions/nonce', {}, { project })).json()) as { nonce: string }).nonce
  const host = new URL(origin).host
  const message = async (fields: Partial<CreateSiweMessageParameters> = {}, project = projectId) =>
    createSiweMessage({ address: victim.address, chainId: 31337, domain: host, uri: origin, version: '1', nonce: await nonce(project), issuedAt: new Date(), ...fields })
  const signIn = async (text: string, { signer = victim, project = projectId, from = origin } = {}) =>
    post('/v1/sessions', { message: text, signature: await signer.signMessage({ message: text }) }, { project, from })

  const solVictim = solanaKey()
  const solForger = solanaKey()
  const solMessage = async (fields: Partial<SolanaSignInMessageFields> = {}, project = projectId) =>
    createSolanaSignInMessage({ address: solVictim.address, chainId: 'mainnet', domain: host, uri: origin, version: '1', nonce: await nonce(project), issuedAt: new Date(), ...fields })
  const solSignIn = async (text: string, { signer = solVictim, project = projectId, from = origin } = {}) =>
    post('/v1/sessions', { message: text, signature: signer.signMessage({ message: text }) }, { project, from })

  const firstSignIn = async (text: string, sent: Promise<Response>) => {
    const response = await sent
    if (response.status !== 201) throw new Error(`bench: a valid sign-in was refused (${response.status}: ${await response.text()})`)
    return { text, session: (await response.json()) as { id: string }, spentNonce: /Nonce: (\w+)/.exec(text)![1]! }
  }
  const replayed = await message()
  const { session, spentNonce } = await firstSignIn(replayed, signIn(replayed))
  const solReplayed = await solMessage()
  const { session: solSession, spentNonce: solSpentNonce } = await firstSignIn(solReplayed, solSignIn(solReplayed))
  const day = 24 * 3_600_000

  const attempts: Attempt[] = [
    { name: 'sign-in: another domain', run: async () => signIn(await message({ domain: 'evil.test', uri: 'https://evil.test' })) },
    { name: 'sign-in: replayed message', run: () => signIn(replayed) },
    { name: 'sign-in: reused nonce', run: async () => signIn(await message({ nonce: spentNonce, statement: 'Again.' })) },
    { name: 'sign-in: Not Before in a year', run: async () => signIn(await message({ notBefore: new Date(Date.now() + 365 * day) })) },
    { name: 'sign-in: Issued At a year ago', run: async () => signIn(await message({ issuedAt: new Date(Date.now() - 365 * day) })) },
    { name: 'sign-in: nonce of another project', run: async () => signIn(await message({}, twinProjectId)) },
    { name: 'sign-in: made-up nonce', run: async () => signIn(await message({ nonce: 'a'.repeat(76) })) },
    { name: 'sign-in: signed by someone else', run: async () => signIn(await message(), { signer: forger }) },
    { name: 'sign-in: page on another origin', run: async () => signIn(await message(), { from: 'https://evil.test' }) },
    { name: 'sign-in: chain id past 2^53', run: async () => signIn(await message({ chainId: 2 ** 60 })) },
    { name: 'sign-in: line added after signing', run: async () => {
      const text = await message()
      return post('/v1/sessions', { message: `${text}\nAdmin: true`, signature: await victim.signMessage({ message: text }) })
    } },
    { name: 'sign-in: expired message', run: async () => signIn(await message({ expirationTime: new Date(Date.now() - 1_000) })) },
    { name: 'session: read under another project', run: () => fetch(url(`/v1/sessions/${session.id}`, twinProjectId), { headers: { origin } }) },
    { name: 'session: revoked under another project', run: async () => post(`/v1/sessions/${session.id}/revoke`, { pci: session.id, signature: await victim.signMessage({ message: `revoke:${session.id}` }) }, { project: twinProjectId }) },
    { name: 'session: revoked by someone else', run: async () => post(`/v1/sessions/${session.id}/revoke`, { pci: session.id, signature: await forger.signMessage({ message: `revoke:${session.id}` }) }) },
    { name: 'solana sign-in: another domain', run: async () => solSignIn(await solMessage({ domain: 'evil.test', uri: 'https://evil.test' })) },
    { name: 'solana sign-in: replayed message', run: () => solSignIn(solReplayed) },
    { name: 'solana sign-in: reused nonce', run: async () => solSignIn(await solMessage({ nonce: solSpentNonce, statement: 'Again.' })) },
    { name: 'solana sign-in: Not Before in a year', run: async () => solSignIn(await solMessage({ notBefore: new Date(Date.now() + 365 * day) })) },
    { name: 'solana sign-in: Issued At a year ago', run: async () => solSignIn(await solMessage({ issuedAt: new Date(Date.now() - 365 * day) })) },
    { name: 'solana sign-in: nonce of another project', run: async () => solSignIn(await solMessage({}, twinProjectId)) },
    { name: 'solana sign-in: signed by someone else', run: async () => solSignIn(await solMessage(), { signer: solForger }) },
    { name: 'solana sign-in: unknown chain id', run: async () => solSignIn((await solMessage()).replace('Chain ID: mainnet', 'Chain ID: mainnet-beta')) },
    { name: 'solana sign-in: line added after signing', run: async () => {
      const text = await solMessage()
      return post('/v1/sessions', { message: `${text}\nAdmin: true`, signature: solVictim.signMessage({ message: text }) })
    } },
    { name: 'solana sign-in: small-order key, identity R and s = 0', run: async () =>
      post('/v1/sessions', { message: await solMessage({ address: '11111111111111111111111111111111' }), signature: base58.encode(new Uint8Array([1, ...new Array<number>(63).fill(0)])) }) },
    { name: 'solana session: revoked by someone else', run: async () => post(`/v1/sessions/${solSession.id}/revoke`, { pci: solSession.id, signature: solForger.signMessage({ message: `revoke:${solSession.id}` }) }) },
  ]
  return runAttempts(attempts)
}

/**
 * Name registrations (SPEC §7 POST /v1/profile/account) the victim did not sign as sent: each must be refused. The
 * signed message is {name, attributes, timestamp, coinType}; the address is the signer.
 */
export async function benchNameForgeries({ baseUrl, projectId, origin }: Omit<ForgeryTarget, 'twinProjectId'>) {
  const register = (body: unknown) =>
    fetch(`${baseUrl}/v1/profile/account?projectId=${projectId}`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify(body) })
  const nowS = () => Math.floor(Date.now() / 1_000)
  const signed = async (fields: Record<string, unknown> = {}, signer = victim) => {
    const message = JSON.stringify({ name: `forged-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`, attributes: {}, timestamp: nowS(), coinType: 60, ...fields })
    return { message, signature: await signer.signMessage({ message }) }
  }
  const attempts: Attempt[] = [
    { name: 'name: signed by someone else', run: async () => register({ coin_type: 60, address: victim.address, ...(await signed({}, forger)) }) },
    { name: 'name: coin type changed after signing', run: async () => register({ coin_type: 0, address: victim.address, ...(await signed()) }) },
    { name: 'name: no coin type in the signed message', run: async () => register({ coin_type: 60, address: victim.address, ...(await signed({ coinType: undefined })) }) },
    { name: 'name: signed 11 minutes ago', run: async () => register({ coin_type: 60, address: victim.address, ...(await signed({ timestamp: nowS() - 660 })) }) },
    { name: 'name: signed an hour from now', run: async () => register({ coin_type: 60, address: victim.address, ...(await signed({ timestamp: nowS() + 3_600 })) }) },
    { name: 'name: attribute added after signing', run: async () => {
      const { message, signature } = await signed()
      return register({ coin_type: 60, address: victim.address, message: message.replace('"attributes":{}', '"attributes":{"avatar":"https://evil.test/a.png"}'), signature })
    } },
  ]
  return runAttempts(attempts)
}

/** Client JWTs the relay must refuse (each closes with 4001): a forgery is one whose connection stays open. */
export async function benchRelayForgeries() {
  const port = (await freePorts()).relay
  const relay = createRelay({ port })
  await relay.ready
  const aud = relay.url
  const nowS = Math.floor(Date.now() / 1_000)
  const part = (value: unknown) => base64urlnopad.encode(new TextEncoder().encode(JSON.stringify(value)))
  const [header, payload] = createClientJwt({ aud }).split('.') as [string, string]
  const otherSignature = createClientJwt({ aud }).split('.')[2]!
  const unsigned = (claims: Record<string, unknown>, alg = 'EdDSA') => {
    const secret = ed25519.utils.randomPrivateKey()
    const iss = `did:key:z${base58.encode(new Uint8Array([0xed, 0x01, ...ed25519.getPublicKey(secret)]))}`
    const signed = `${part({ alg, typ: 'JWT' })}.${part({ iss, sub: 'x', aud, iat: nowS, exp: nowS + 3_600, ...claims })}`
    return `${signed}.${base64urlnopad.encode(ed25519.sign(new TextEncoder().encode(signed), secret))}`
  }
  const jwts: Record<string, string> = {
    'relay: signature of another key': `${header}.${payload}.${otherSignature}`,
    'relay: alg none': `${part({ alg: 'none', typ: 'JWT' })}.${payload}.`,
    'relay: another audience': createClientJwt({ aud: 'wss://relay.evil.test' }),
    'relay: expired': createClientJwt({ aud, claims: { exp: nowS - 10 } }),
    'relay: issued in the future': createClientJwt({ aud, claims: { iat: nowS + 3_600, exp: nowS + 7_200 } }),
    'relay: valid for a year': createClientJwt({ aud, claims: { exp: nowS + 365 * 86_400 } }),
    'relay: iss not a did:key': unsigned({ iss: 'did:web:evil.test' }),
    'relay: HS256 header': unsigned({}, 'HS256'),
  }
  const accepted: string[] = []
  try {
    for (const [name, jwt] of Object.entries(jwts)) {
      const client = await connectRawClient(relay.url, { jwt }).catch(() => undefined)
      if (client && (await client.request('irn_subscribe', { topic: 'a'.repeat(64) })).result !== undefined) accepted.push(name)
      client?.close()
    }
  } finally {
    await relay.close()
  }
  return { attempts: Object.keys(jwts).length, accepted: accepted.length, acceptedNames: accepted }
}

export async function runAttempts(attempts: readonly Attempt[]) {
  const accepted: string[] = []
  const statuses: Record<string, number> = {}
  for (const { name, run } of attempts) {
    const response = await run()
    await response.body?.cancel()
    statuses[name] = response.status
    if (response.ok) accepted.push(name)
  }
  return { attempts: attempts.length, accepted: accepted.length, acceptedNames: accepted, statuses }
}
