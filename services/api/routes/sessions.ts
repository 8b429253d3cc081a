import { randomUUID } from 'node:crypto'
import { Hono } from 'hono'
import { verifyMessage, type Address, type Hex } from 'viem'
import { parseSiweMessage } from 'viem/siwe'
import * as z from 'zod/mini'
import { errorBody, type ApiConfig } from '../config'
import { validate } from './validate'

type SessionRow = { id: string; caip_address: string; expires_at: string | Date | null; revoked: boolean }

const session = (row: SessionRow) => ({
  id: row.id,
  caipAddress: row.caip_address,
  expiresAt: row.expires_at ? new Date(row.expires_at).getTime() : null,
  revoked: row.revoked,
})

/**
 * Sign-in sessions: POST /v1/sessions stores one for a valid EIP-4361 message signed by its address; GET reads it;
 * revoke needs the same address's signature over `revoke:{id}`.
 */
export function sessionRoutes({ db, now = Date.now }: ApiConfig) {
  const app = new Hono()
  app.post('/v1/sessions', async (c) => {
    const body = await validate(c, 'json', z.object({ message: z.string().check(z.maxLength(4_096)), signature: z.string().check(z.regex(/^0x[0-9a-fA-F]+$/, 'Expected a hex signature')) }))
    if (!body.ok) return body.response
    const siwe = parseSiweMessage(body.data.message)
    if (!siwe.address || !siwe.chainId || !siwe.domain || !siwe.nonce) return c.json(errorBody('INVALID_INPUT', 'message: not an EIP-4361 message', 'message'), 400)
    if (siwe.expirationTime && siwe.expirationTime.getTime() <= now()) return c.json(errorBody('STALE_MESSAGE', 'The sign-in message has expired', 'message'), 400)
    const isSigner = await verifyMessage({ address: siwe.address, message: body.data.message, signature: body.data.signature as Hex }).catch(() => false)
    if (!isSigner) return c.json(errorBody('INVALID_SIGNATURE', 'The signature was not made by the message’s address', 'signature'), 401)
    const project = c.req.query('projectId')!
    const [row] = await db.query<SessionRow>(
      'insert into sessions (id, project_id, caip_address, message, signature, expires_at) values ($1, $2, $3, $4, $5, $6) returning id, caip_address, expires_at, revoked',
      [randomUUID(), project, `eip155:${siwe.chainId}:${siwe.address}`, body.data.message, body.data.signature, siwe.expirationTime?.toISOString() ?? null],
    )
    return c.json(session(row!), 201)
  })

  app.get('/v1/sessions/:id', async (c) => {
    const [row] = await db.query<SessionRow>('select id, caip_address, expires_at, revoked from sessions where id = $1', [c.req.param('id')])
    if (!row) return c.json(errorBody('SESSION_NOT_FOUND', 'No such session', 'id'), 404)
    return c.json(session(row))
  })

  app.post('/v1/sessions/:id/revoke', async (c) => {
    const body = await validate(c, 'json', z.object({ pci: z.string(), signature: z.string().check(z.regex(/^0x[0-9a-fA-F]+$/, 'Expected a hex signature')) }))
    if (!body.ok) return body.response
    const id = c.req.param('id')
    if (body.data.pci !== id) return c.json(errorBody('INVALID_INPUT', 'pci: must be the session id', 'pci'), 400)
    const [row] = await db.query<SessionRow>('select id, caip_address, expires_at, revoked from sessions where id = $1', [id])
    if (!row) return c.json(errorBody('SESSION_NOT_FOUND', 'No such session', 'id'), 404)
    const address = row.caip_address.split(':')[2] as Address
    const isSigner = await verifyMessage({ address, message: `revoke:${id}`, signature: body.data.signature as Hex }).catch(() => false)
    if (!isSigner) return c.json(errorBody('INVALID_SIGNATURE', 'The signature was not made by the session’s address', 'signature'), 401)
    await db.query('update sessions set revoked = true where id = $1', [id])
    return c.json({ success: true })
  })
  return app
}
