import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import type { Queryable } from '../api/db/createDatabase'

/** A random opaque token: 32 bytes, base64url (43 characters). Session tokens, flow ids, link tokens, OIDC state. */
export const randomToken = () => randomBytes(32).toString('base64url')

/** A six-digit one-time code, every value equally likely. */
export const randomCode = () => randomInt(0, 1_000_000).toString().padStart(6, '0')

/** A random alphanumeric string (EIP-4361 nonces must be alphanumeric). */
export function randomAlphanumeric(length: number) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
  return Array.from({ length }, () => alphabet[randomInt(0, alphabet.length)]).join('')
}

/** How a token is kept at rest: its SHA-256 (tokens are random, so no key is needed to make the hash useless). */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url')

/**
 * The code hasher: HMAC-SHA256 under the service's key, over the flow id and the code (a six-digit code alone is
 * guessed from a plain hash in a moment). The key is `secret`, or a random one kept in auth_secrets.
 */
export async function createCodeHasher(db: Queryable, secret?: string) {
  let key = secret
  if (!key) {
    await db.query("insert into auth_secrets (name, value) values ('code_hmac_key', $1) on conflict (name) do nothing", [randomBytes(32).toString('base64url')])
    key = (await db.query<{ value: string }>("select value from auth_secrets where name = 'code_hmac_key'"))[0]!.value
  }
  const hash = (flowId: string, code: string) => createHmac('sha256', key!).update(`${flowId}:${code}`).digest('base64url')
  return {
    hash,
    /** Whether `code` is the one hashed for the flow, in constant time. */
    matches(flowId: string, code: string, stored: string) {
      const a = Buffer.from(hash(flowId, code))
      const b = Buffer.from(stored)
      return a.length === b.length && timingSafeEqual(a, b)
    },
  }
}

export type CodeHasher = Awaited<ReturnType<typeof createCodeHasher>>
