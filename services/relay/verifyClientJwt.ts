import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64urlnopad } from '@scure/base'

/** did:key ed25519 keys carry the multicodec prefix 0xed01 before the 32-byte key (multibase base58btc, 'z'). */
const ED25519_PREFIX = [0xed, 0x01]

export type ClientJwtPayload = { iss: string; sub: string; aud: string; iat: number; exp: number }

export type VerifyClientJwtParameters = {
  /** The URLs clients are told to use for this relay; `aud` must be one of them (a trailing slash is ignored). */
  audiences: readonly string[]
  nowS?: number
  /** How far in the future `iat` may be: clocks of phones and laptops drift. */
  clockSkewS?: number
  /** The longest `exp - iat`: @walletconnect/core signs for exactly one day (ONE_DAY in its crypto.signJWT). */
  maxLifetimeS?: number
}

const decodeJson = (part: string, name: string) => {
  try {
    return JSON.parse(new TextDecoder().decode(base64urlnopad.decode(part))) as unknown
  } catch {
    throw new Error(`auth: the ${name} is not base64url JSON`)
  }
}

const withoutTrailingSlash = (url: string) => (url.endsWith('/') ? url.slice(0, -1) : url)

/**
 * Verifies the JWT a WalletConnect client sends as `auth` (as @walletconnect/relay-auth signs it): EdDSA, signed by the
 * ed25519 key of its `iss` did:key, addressed to this relay (`aud`), issued now (`iat`), for at most a day and not
 * expired (`exp`). Returns the payload, or throws saying what is wrong.
 * @example verifyClientJwt(url.searchParams.get('auth') ?? '', { audiences: ['ws://127.0.0.1:8790'] })
 */
export function verifyClientJwt(
  jwt: string,
  { audiences, nowS = Math.floor(Date.now() / 1_000), clockSkewS = 60, maxLifetimeS = 86_400 }: VerifyClientJwtParameters,
): ClientJwtPayload {
  // 1. Shape and signature first: the claims of a token nobody signed mean nothing.
  const parts = jwt.split('.')
  if (parts.length !== 3) throw new Error('auth: not a JWT (three dot-separated parts expected)')
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string]
  const header = decodeJson(headerPart, 'header') as { alg?: unknown } | null
  if (header?.alg !== 'EdDSA') throw new Error(`auth: alg must be EdDSA, got ${String(header?.alg).slice(0, 16)}`)
  const payload = decodeJson(payloadPart, 'payload') as Partial<Record<keyof ClientJwtPayload, unknown>> | null
  if (typeof payload?.iss !== 'string' || !payload.iss.startsWith('did:key:z')) throw new Error('auth: iss must be an ed25519 did:key')
  let multicodec: Uint8Array
  try {
    multicodec = base58.decode(payload.iss.slice('did:key:z'.length))
  } catch {
    throw new Error('auth: iss is not an ed25519 did:key')
  }
  if (multicodec.length !== 34 || multicodec[0] !== ED25519_PREFIX[0] || multicodec[1] !== ED25519_PREFIX[1]) {
    throw new Error('auth: iss is not an ed25519 did:key')
  }
  let signature: Uint8Array
  try {
    signature = base64urlnopad.decode(signaturePart)
  } catch {
    throw new Error('auth: bad signature')
  }
  const signed = new TextEncoder().encode(`${headerPart}.${payloadPart}`)
  if (!ed25519.verify(signature, signed, multicodec.slice(2))) throw new Error('auth: bad signature')

  // 2. Claims: a token for another relay, from the future or valid for longer than core issues them is refused.
  const { aud, iat, exp } = payload
  if (typeof aud !== 'string' || !audiences.some((url) => withoutTrailingSlash(url) === withoutTrailingSlash(aud))) {
    throw new Error(`auth: aud must be this relay's URL (${audiences[0] ?? 'none configured'})`)
  }
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw new Error('auth: iat must be a number (seconds)')
  if (iat > nowS + clockSkewS) throw new Error(`auth: iat is in the future (more than ${clockSkewS} s ahead)`)
  if (typeof exp !== 'number' || !Number.isFinite(exp)) throw new Error('auth: exp must be a number (seconds)')
  if (exp < nowS) throw new Error('auth: the JWT has expired')
  if (exp - iat > maxLifetimeS) throw new Error(`auth: exp is more than ${maxLifetimeS} s after iat`)
  return payload as ClientJwtPayload
}
