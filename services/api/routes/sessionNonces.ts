import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Database } from '../db/createDatabase'

export type NonceCheck = { ok: true; expiresAtMs: number } | { ok: false; code: 'NONCE_NOT_ISSUED' | 'NONCE_EXPIRED'; message: string }

const EXPIRY_HEX = 12
const RANDOM_HEX = 32
const MAC_HEX = 32
const NONCE_PATTERN = new RegExp(`^[0-9a-f]{${EXPIRY_HEX + RANDOM_HEX + MAC_HEX}}$`)

/**
 * Sign-in nonces that cost nothing to issue: each is `expiry ‖ random ‖ MAC(project, expiry, random)` under a key
 * kept in the database (so every instance on one database accepts the others' nonces, and a restart keeps them).
 * Issuing writes nothing, so a flood of nonce requests grows nothing; only a nonce spent by a valid signature is
 * stored, until it expires, to refuse its second use.
 * 1. issue(project): a fresh nonce for that project, valid `ttlMs`;
 * 2. check(nonce, project): issued by us, for this project, not expired (says which, if not);
 * 3. spend(tx, nonce, project): records the use; false if it was already used (atomic, one winner).
 * @example const nonces = createSessionNonces({ db }); const { nonce } = await nonces.issue('my-project')
 */
export function createSessionNonces({ db, ttlMs = 5 * 60_000, now = Date.now }: { db: Database; ttlMs?: number; now?: () => number }) {
  let key: Promise<Buffer> | undefined
  const loadKey = () =>
    (key ??= (async () => {
      await db.query('insert into service_secrets (name, value) values ($1, $2) on conflict (name) do nothing', ['siwx-nonce-key', randomBytes(32).toString('hex')])
      const [row] = await db.query<{ value: string }>('select value from service_secrets where name = $1', ['siwx-nonce-key'])
      return Buffer.from(row!.value, 'hex')
    })().catch((error: unknown) => {
      key = undefined
      throw error
    }))
  const mac = async (projectId: string, expiryHex: string, randomHex: string) =>
    createHmac('sha256', await loadKey()).update(`${projectId}\n${expiryHex}\n${randomHex}`).digest('hex').slice(0, MAC_HEX)

  return {
    ttlMs,
    async issue(projectId: string) {
      const expiresAtMs = now() + ttlMs
      const expiryHex = Math.ceil(expiresAtMs / 1_000).toString(16).padStart(EXPIRY_HEX, '0')
      const randomHex = randomBytes(RANDOM_HEX / 2).toString('hex')
      return { nonce: `${expiryHex}${randomHex}${await mac(projectId, expiryHex, randomHex)}`, expiresAt: Math.ceil(expiresAtMs / 1_000) * 1_000 }
    },
    async check(nonce: string, projectId: string): Promise<NonceCheck> {
      const notIssued = { ok: false, code: 'NONCE_NOT_ISSUED', message: 'The nonce was not issued by this service for this project: ask the service for a new one' } as const
      if (!NONCE_PATTERN.test(nonce)) return notIssued
      const expiryHex = nonce.slice(0, EXPIRY_HEX)
      const expected = Buffer.from(await mac(projectId, expiryHex, nonce.slice(EXPIRY_HEX, EXPIRY_HEX + RANDOM_HEX)))
      const given = Buffer.from(nonce.slice(EXPIRY_HEX + RANDOM_HEX))
      if (!timingSafeEqual(expected, given)) return notIssued
      const expiresAtMs = parseInt(expiryHex, 16) * 1_000
      if (expiresAtMs <= now()) return { ok: false, code: 'NONCE_EXPIRED', message: 'The nonce has expired: ask the service for a new one and sign again' }
      return { ok: true, expiresAtMs }
    },
    async spend(tx: Pick<Database, 'query'>, nonce: string, projectId: string, expiresAtMs: number) {
      await tx.query('delete from siwx_used_nonces where expires_at < $1', [new Date(now()).toISOString()])
      const rows = await tx.query('insert into siwx_used_nonces (nonce, project_id, expires_at) values ($1, $2, $3) on conflict (nonce) do nothing returning nonce', [
        nonce,
        projectId,
        new Date(expiresAtMs).toISOString(),
      ])
      return rows.length === 1
    },
  }
}

export type SessionNonces = ReturnType<typeof createSessionNonces>
