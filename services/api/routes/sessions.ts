import { createHash, randomUUID, timingSafeEqual } from 'node:crypto'
import { Hono, type Context } from 'hono'
import * as z from 'zod/mini'
import { errorBody, type ApiConfig } from '../config'
import { bitcoinSignIn } from './bitcoinSignIn'
import { polkadotSignIn } from './polkadotSignIn'
import { createSessionNonces } from './sessionNonces'
import {
  answerSignatureChainError,
  checkSignInMessage,
  createEvmSignatureVerifier,
  createEvmSignIn,
  createSolanaSignIn,
  defaultSignInRules,
  SignatureChainError,
  type SignInFamily,
} from './signInMessage'
import { invalidInput, sessionId, text, validate } from './validate'

/** Sessions one address keeps in one project; signing in again past this ends the oldest. */
const MAX_SESSIONS_PER_ADDRESS = 10

type SessionRow = { id: string; caip_address: string; expires_at: string | Date; revoked: boolean }
type Project = ApiConfig['projects'][number]

const session = (row: SessionRow) => ({
  id: row.id,
  caipAddress: row.caip_address,
  expiresAt: new Date(row.expires_at).getTime(),
  revoked: row.revoked,
})

const idParam = z.object({ id: sessionId })

/** Whether two secrets are equal, in a time that says nothing about where they differ (nor about their lengths). */
const isSameSecret = (a: string, b: string) => timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest())

/** Hex (EVM, Polkadot), base58 (Solana) or base64 (Bitcoin): the message's family says which, and checks it. */
const anySignature = text({ max: 16_384 })

/** The answer when a signature is not in its family's form (hex for EVM, base58 for Solana, base64 for Bitcoin). */
const signatureFormProblem = (family: SignInFamily, signature: string) => {
  const parsed = family.signature.safeParse(signature)
  return parsed.success ? undefined : parsed.error.issues[0]!.message
}

const signInBody = z.object({ message: text({ max: 4_096 }), signature: anySignature })
const revocationBody = z.object({ pci: text({ max: 64 }), signature: anySignature })

/**
 * Sign-in sessions (SIWX with EIP-4361 messages signed with personal_sign, hex, Sign In With Solana messages
 * signed with ed25519, base58, CAIP-122 Bitcoin messages signed with BIP-322 or the legacy signed message, base64, or
 * CAIP-122 Polkadot messages signed by an extension's signRaw, hex; see SignInFamily):
 * - POST /v1/sessions/nonce issues a nonce for the project (one use, 5 minutes);
 * - POST /v1/sessions makes a session from a message the service can vouch for (see checkSignInMessage: the
 *   project's own origins, fresh, within its time window) carrying a nonce it issued to this project and nobody used,
 *   signed by the message's address; the session expires at the message's Expiration Time (24 h without one, at
 *   most 7 days);
 * - GET /v1/sessions/:id reads it (never its message or signature), only under the project that made it;
 * - POST /v1/sessions/:id/revoke ends it, only under that project and only for its holder. The id alone is no proof
 *   (GET takes it): `signature` must be either the session's own sign-in signature, which only the page that signed
 *   in and the service know (so a widget signs out on disconnect without asking the wallet again), or the address's
 *   signature over `revoke:{id}` in its family's form (for the account owner without that page's copy).
 * An EVM signature that is not an EOA's is checked on the message's chain (ERC-6492, ERC-1271: see
 * createEvmSignatureVerifier); a chain the service does not know cannot vouch for it, one whose node fails answers 503
 * or 502 naming the chain, and the nonce stays unspent.
 */
export function sessionRoutes({ db, now = Date.now, solanaLocalnetReference, chains, evmSignatureVerifier, log = console.error }: ApiConfig) {
  const app = new Hono()
  const nonces = createSessionNonces({ db, now })
  const verifyEvmSignature = evmSignatureVerifier ?? createEvmSignatureVerifier({ chains })
  const families = [createEvmSignIn({ verifySignature: verifyEvmSignature }), createSolanaSignIn({ localnetReference: solanaLocalnetReference }), bitcoinSignIn, polkadotSignIn]
  const projectOf = (c: Context) => c.get('project' as never) as Project
  const notFound = (c: Context) => c.json(errorBody('SESSION_NOT_FOUND', 'No such session in this project', 'id'), 404)
  /** A family's verdict on a signature, or the answer when the chain that had to give it could not. */
  const verify = async (c: Context, family: SignInFamily, parameters: Parameters<SignInFamily['verify']>[0]): Promise<boolean | Response> => {
    try {
      return await family.verify(parameters)
    } catch (error) {
      if (error instanceof SignatureChainError) return answerSignatureChainError(c, error, log)
      throw error
    }
  }

  app.post('/v1/sessions/nonce', async (c) => c.json(await nonces.issue(projectOf(c).id), 201))

  app.post('/v1/sessions', async (c) => {
    const body = await validate(c, 'json', signInBody)
    if (!body.ok) return body.response
    const project = projectOf(c)
    const nowMs = now()
    const checked = checkSignInMessage(body.data.message, { families, allowedOrigins: project.allowedOrigins, requestOrigin: c.req.header('origin'), nowMs, rules: defaultSignInRules })
    if (!checked.ok) return c.json(errorBody(checked.code, checked.message, checked.field), checked.code === 'DOMAIN_NOT_ALLOWED' ? 403 : 400)
    const signatureProblem = signatureFormProblem(checked.family, body.data.signature)
    if (signatureProblem) return invalidInput(c, ['signature'], signatureProblem)
    const nonce = await nonces.check(checked.nonce, project.id)
    if (!nonce.ok) return c.json(errorBody(nonce.code, `message.nonce: ${nonce.message}`, 'message.nonce'), 400)
    const isSigner = await verify(c, checked.family, { address: checked.address, caipAddress: checked.caipAddress, message: body.data.message, signature: body.data.signature })
    if (isSigner instanceof Response) return isSigner
    if (!isSigner) return c.json(errorBody('INVALID_SIGNATURE', 'The signature was not made by the message’s address', 'signature'), 401)

    const { caipAddress } = checked
    const row = await db.transaction(async (tx) => {
      if (!(await nonces.spend(tx, checked.nonce, project.id, nonce.expiresAtMs))) return undefined
      await tx.query('delete from sessions where expires_at < $1', [new Date(nowMs).toISOString()])
      const [created] = await tx.query<SessionRow>(
        'insert into sessions (id, project_id, caip_address, message, signature, expires_at) values ($1, $2, $3, $4, $5, $6) returning id, caip_address, expires_at, revoked',
        [randomUUID(), project.id, caipAddress, body.data.message, body.data.signature, new Date(checked.expiresAtMs).toISOString()],
      )
      await tx.query(
        `delete from sessions where project_id = $1 and caip_address = $2
           and id not in (select id from sessions where project_id = $1 and caip_address = $2 order by created_at desc, id limit ${MAX_SESSIONS_PER_ADDRESS})`,
        [project.id, caipAddress],
      )
      return created
    })
    if (!row) return c.json(errorBody('NONCE_USED', 'message.nonce: The nonce has already been used: ask the service for a new one and sign again', 'message.nonce'), 409)
    return c.json(session(row), 201)
  })

  app.get('/v1/sessions/:id', async (c) => {
    const params = await validate(c, 'param', idParam)
    if (!params.ok) return params.response
    const [row] = await db.query<SessionRow>('select id, caip_address, expires_at, revoked from sessions where id = $1 and project_id = $2', [params.data.id, projectOf(c).id])
    return row ? c.json(session(row)) : notFound(c)
  })

  app.post('/v1/sessions/:id/revoke', async (c) => {
    const params = await validate(c, 'param', idParam)
    if (!params.ok) return params.response
    const id = params.data.id
    const body = await validate(c, 'json', revocationBody)
    if (!body.ok) return body.response
    if (body.data.pci !== id) return c.json(errorBody('INVALID_INPUT', 'pci: must be the session id', 'pci'), 400)
    const project = projectOf(c)
    const [row] = await db.query<SessionRow & { signature: string }>('select id, caip_address, expires_at, revoked, signature from sessions where id = $1 and project_id = $2', [id, project.id])
    if (!row) return notFound(c)
    const [namespace, , address = ''] = row.caip_address.split(':')
    const family = families.find((candidate) => candidate.namespace === namespace)
    if (!family) return c.json(errorBody('INVALID_SIGNATURE', 'The service cannot check signatures for this session’s address', 'signature'), 401)
    const signatureProblem = signatureFormProblem(family, body.data.signature)
    if (signatureProblem) return invalidInput(c, ['signature'], signatureProblem)
    const isHolder = isSameSecret(body.data.signature, row.signature) || (await verify(c, family, { address, caipAddress: row.caip_address, message: `revoke:${id}`, signature: body.data.signature }))
    if (isHolder instanceof Response) return isHolder
    if (!isHolder) return c.json(errorBody('INVALID_SIGNATURE', 'The signature is neither the session’s own nor the session’s address’s over revoke:{id}', 'signature'), 401)
    await db.query('update sessions set revoked = true where id = $1 and project_id = $2', [id, project.id])
    return c.json({ success: true })
  })
  return app
}
