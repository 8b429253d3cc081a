import { isAddress, type Address } from 'viem'
import { createSiweMessage, parseSiweMessage } from 'viem/siwe'

/** EIP-2294's bound on chain ids: larger ones cannot be used in signed transactions. */
export const MAX_CHAIN_ID = 4_503_599_627_370_476

export type SignInRules = {
  /** How old Issued At may be. */
  maxAgeMs: number
  /** How far a client's clock may run ahead of ours. */
  clockSkewMs: number
  /** A session's lifetime when the message names no Expiration Time. */
  defaultLifetimeMs: number
  /** No session outlives this, whatever the message asks. */
  maxLifetimeMs: number
}

export const defaultSignInRules: SignInRules = {
  maxAgeMs: 5 * 60_000,
  clockSkewMs: 60_000,
  defaultLifetimeMs: 24 * 3_600_000,
  maxLifetimeMs: 7 * 24 * 3_600_000,
}

export type CheckedSignInMessage = { address: Address; chainId: number; nonce: string; expiresAtMs: number }

export type SignInMessageCheck =
  | ({ ok: true } & CheckedSignInMessage)
  | { ok: false; code: 'INVALID_INPUT' | 'DOMAIN_NOT_ALLOWED' | 'STALE_MESSAGE' | 'NOT_YET_VALID'; message: string; field: string }

const fail = (code: Extract<SignInMessageCheck, { ok: false }>['code'], field: string, message: string): SignInMessageCheck => ({ ok: false, code, field, message })

/** The message with its dates written as createSiweMessage writes them, so a canonical form can be compared. */
const withIsoDates = (message: string) =>
  message.replace(/^(Issued At|Expiration Time|Not Before): (.+)$/gm, (_line, name: string, value: string) => `${name}: ${new Date(value).toISOString()}`)

const originOf = (uri: string) => {
  try {
    return new URL(uri).origin
  } catch {
    return undefined
  }
}

/**
 * Checks an EIP-4361 sign-in message against what a session may be made of, before any signature is looked at:
 * 1. it is exactly the EIP-4361 text of its fields (nothing before, after or between them), version 1, EIP-55 address;
 * 2. chain id from 1 to MAX_CHAIN_ID;
 * 3. URI's origin is one of the project's allowed origins, the domain is that origin's host (and scheme, if given,
 *    its scheme), and the page asking, when it says (Origin header), is that origin;
 * 4. Issued At is present, not in the future beyond the clock skew and not older than maxAgeMs; Not Before has
 *    passed; Expiration Time is ahead;
 * 5. the session expires at Expiration Time, or after defaultLifetimeMs without one, and never after maxLifetimeMs.
 */
export function checkSignInMessage(
  message: string,
  { allowedOrigins, requestOrigin, nowMs, rules = defaultSignInRules }: { allowedOrigins: readonly string[]; requestOrigin: string | undefined; nowMs: number; rules?: SignInRules },
): SignInMessageCheck {
  const fields = parseSiweMessage(message)
  const { address, chainId, domain, nonce, uri, version, issuedAt, notBefore, expirationTime } = fields
  if (!address || !domain || !nonce || !uri || !version || chainId === undefined) return fail('INVALID_INPUT', 'message', 'message: not an EIP-4361 sign-in message')
  if (!issuedAt) return fail('INVALID_INPUT', 'message.issuedAt', 'message.issuedAt: Issued At is required')
  for (const [field, date] of [['issuedAt', issuedAt], ['notBefore', notBefore], ['expirationTime', expirationTime]] as const) {
    if (date && Number.isNaN(date.getTime())) return fail('INVALID_INPUT', `message.${field}`, `message.${field}: not an RFC 3339 date-time`)
  }
  if (version !== '1') return fail('INVALID_INPUT', 'message.version', 'message.version: must be 1')
  if (!isAddress(address, { strict: true })) return fail('INVALID_INPUT', 'message.address', 'message.address: not an EIP-55 checksummed address')
  if (!Number.isSafeInteger(chainId) || chainId < 1 || chainId > MAX_CHAIN_ID) {
    return fail('INVALID_INPUT', 'message.chainId', `message.chainId: must be an integer from 1 to ${MAX_CHAIN_ID}`)
  }
  let canonical: string
  try {
    canonical = createSiweMessage({ ...fields, address, chainId, domain, nonce, uri, version, issuedAt })
  } catch (error) {
    return fail('INVALID_INPUT', 'message', `message: ${(error as { shortMessage?: string }).shortMessage ?? 'not an EIP-4361 sign-in message'}`)
  }
  if (canonical !== withIsoDates(message)) return fail('INVALID_INPUT', 'message', 'message: not exactly an EIP-4361 sign-in message (unexpected or reordered lines)')

  const origin = originOf(uri)
  if (!origin || !allowedOrigins.includes(origin)) {
    return fail('DOMAIN_NOT_ALLOWED', 'message.uri', `message.uri: ${origin ?? uri} is not one of this project's allowed origins`)
  }
  const url = new URL(origin)
  if (domain !== url.host) return fail('DOMAIN_NOT_ALLOWED', 'message.domain', `message.domain: ${domain} is not the host of ${origin}`)
  if (fields.scheme && `${fields.scheme}:` !== url.protocol) return fail('DOMAIN_NOT_ALLOWED', 'message.scheme', `message.scheme: ${fields.scheme} is not the scheme of ${origin}`)
  if (requestOrigin !== undefined && requestOrigin !== origin) {
    return fail('DOMAIN_NOT_ALLOWED', 'origin', `origin: the page ${requestOrigin} asked for a sign-in to ${origin}`)
  }

  if (issuedAt.getTime() > nowMs + rules.clockSkewMs) return fail('NOT_YET_VALID', 'message.issuedAt', 'message.issuedAt: Issued At is in the future')
  if (issuedAt.getTime() < nowMs - rules.maxAgeMs) {
    return fail('STALE_MESSAGE', 'message.issuedAt', `message.issuedAt: the message was issued more than ${rules.maxAgeMs / 60_000} minutes ago: sign a new one`)
  }
  if (notBefore && notBefore.getTime() > nowMs + rules.clockSkewMs) return fail('NOT_YET_VALID', 'message.notBefore', 'message.notBefore: the message is not valid yet')
  if (expirationTime && expirationTime.getTime() <= nowMs) return fail('STALE_MESSAGE', 'message.expirationTime', 'message.expirationTime: the message has expired')
  const expiresAtMs = Math.min(expirationTime?.getTime() ?? nowMs + rules.defaultLifetimeMs, nowMs + rules.maxLifetimeMs)
  return { ok: true, address, chainId, nonce, expiresAtMs }
}
