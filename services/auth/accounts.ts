import type { Queryable } from '../api/db/createDatabase'
import type { AuthProvider } from './config'
import { hashToken, randomToken } from './secrets'

/** A user as the frame gets it after a login, and from GET /v1/session. */
export type UserView = {
  id: string
  /** The e-mail the user signs in with, or (social and Farcaster users) the provider's, or null. */
  email: string | null
  userName: string | null
  /** How this session was opened. */
  authProvider: AuthProvider
}

export type SessionRow = { token_hash: string; user_id: string; project_id: string; origin: string; auth_provider: AuthProvider; created_at: number; expires_at: number }

const newUserId = () => crypto.randomUUID()

export async function findUserIdByEmail(db: Queryable, email: string) {
  const [row] = await db.query<{ id: string }>('select id from auth_users where email = $1', [email])
  return row?.id
}

/** The user who signs in with `email`, created on first use; isNew says which. */
export async function findOrCreateEmailUser(db: Queryable, email: string, nowMs: number) {
  const created = await db.query<{ id: string }>('insert into auth_users (id, email, created_at) values ($1, $2, $3) on conflict (email) do nothing returning id', [newUserId(), email, nowMs])
  if (created.length) return { userId: created[0]!.id, isNew: true }
  return { userId: (await findUserIdByEmail(db, email))!, isNew: false }
}

/**
 * The user behind a provider's subject (a social account or a Farcaster id), created on first use. A new social user is
 * never joined to an e-mail user of the same address: an account is one login method until its owner adds an e-mail
 * (the e-mail change flow), so a provider that vouches for an address carelessly cannot open someone else's wallet.
 */
export async function findOrCreateIdentityUser(db: Queryable, { provider, subject, email, userName, nowMs }: { provider: AuthProvider; subject: string; email: string | null; userName: string | null; nowMs: number }) {
  const [existing] = await db.query<{ user_id: string }>('select user_id from auth_identities where provider = $1 and subject = $2', [provider, subject])
  if (existing) {
    await db.query('update auth_identities set email = $3, user_name = $4 where provider = $1 and subject = $2', [provider, subject, email, userName])
    return { userId: existing.user_id, isNew: false }
  }
  const userId = newUserId()
  await db.query('insert into auth_users (id, email, user_name, created_at) values ($1, null, $2, $3)', [userId, userName, nowMs])
  const inserted = await db.query('insert into auth_identities (provider, subject, user_id, email, user_name, created_at) values ($1, $2, $3, $4, $5, $6) on conflict (provider, subject) do nothing returning user_id', [provider, subject, userId, email, userName, nowMs])
  if (inserted.length) return { userId, isNew: true }
  // Another login of the same account got there first: use its user, drop ours.
  await db.query('delete from auth_users where id = $1', [userId])
  const [row] = await db.query<{ user_id: string }>('select user_id from auth_identities where provider = $1 and subject = $2', [provider, subject])
  return { userId: row!.user_id, isNew: false }
}

export async function isKnownDevice(db: Queryable, userId: string, deviceHash: string) {
  return (await db.query('select 1 from auth_devices where user_id = $1 and device_hash = $2', [userId, deviceHash])).length > 0
}

export async function rememberDevice(db: Queryable, userId: string, deviceHash: string, nowMs: number) {
  await db.query(
    'insert into auth_devices (user_id, device_hash, created_at, last_used_at) values ($1, $2, $3, $3) on conflict (user_id, device_hash) do update set last_used_at = excluded.last_used_at',
    [userId, deviceHash, nowMs],
  )
}

export async function userView(db: Queryable, userId: string, authProvider: AuthProvider): Promise<UserView> {
  const [row] = await db.query<{ email: string | null; user_name: string | null; identity_email: string | null; identity_user_name: string | null }>(
    `select u.email, u.user_name, i.email as identity_email, i.user_name as identity_user_name
     from auth_users u left join auth_identities i on i.user_id = u.id and i.provider = $2
     where u.id = $1`,
    [userId, authProvider],
  )
  return { id: userId, email: row?.email ?? row?.identity_email ?? null, userName: row?.identity_user_name ?? row?.user_name ?? null, authProvider }
}

/**
 * Opens a session: an opaque random token (kept only as its hash), bound to the frame origin and project it was
 * opened from. A user keeps at most `maxPerUser` sessions; the oldest end first.
 */
export async function createSession(db: Queryable, { userId, projectId, origin, authProvider, nowMs, ttlMs, maxPerUser }: { userId: string; projectId: string; origin: string; authProvider: AuthProvider; nowMs: number; ttlMs: number; maxPerUser: number }) {
  const token = randomToken()
  const expiresAt = nowMs + ttlMs
  await db.query('insert into auth_sessions (token_hash, user_id, project_id, origin, auth_provider, created_at, expires_at) values ($1, $2, $3, $4, $5, $6, $7)', [hashToken(token), userId, projectId, origin, authProvider, nowMs, expiresAt])
  await db.query(
    `delete from auth_sessions where user_id = $1 and token_hash not in (
       select token_hash from auth_sessions where user_id = $1 order by created_at desc, token_hash limit $2)`,
    [userId, maxPerUser],
  )
  return { token, expiresAt }
}

/** The live session a token opens for this origin and project, or undefined (unknown, ended, or bound elsewhere). */
export async function findSession(db: Queryable, { token, origin, projectId, nowMs }: { token: string; origin: string; projectId: string; nowMs: number }): Promise<SessionRow | undefined> {
  const [row] = await db.query<SessionRow>('select * from auth_sessions where token_hash = $1', [hashToken(token)])
  if (!row || Number(row.expires_at) <= nowMs || row.origin !== origin || row.project_id !== projectId) return undefined
  return { ...row, created_at: Number(row.created_at), expires_at: Number(row.expires_at) }
}
