import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64urlnopad } from '@scure/base'

/** did:key ed25519 keys carry the multicodec prefix 0xed01 before the 32-byte key (multibase base58btc, 'z'). */
const ED25519_PREFIX = [0xed, 0x01]

export type ClientJwtPayload = { iss: string; sub: string; aud: string; iat: number; exp: number }

const decodeJson = (part: string) => JSON.parse(new TextDecoder().decode(base64urlnopad.decode(part))) as unknown

/**
 * Verifies the JWT a WalletConnect client sends as `auth`: EdDSA, signed by the ed25519 key of its `iss` did:key, not
 * expired. Returns the payload, or throws saying what is wrong.
 */
export function verifyClientJwt(jwt: string, { nowS = Math.floor(Date.now() / 1_000) } = {}): ClientJwtPayload {
  const parts = jwt.split('.')
  if (parts.length !== 3) throw new Error('auth: not a JWT (three dot-separated parts expected)')
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string]
  const header = decodeJson(headerPart) as { alg?: string; typ?: string }
  if (header.alg !== 'EdDSA') throw new Error(`auth: alg must be EdDSA, got ${String(header.alg)}`)
  const payload = decodeJson(payloadPart) as Partial<ClientJwtPayload>
  if (typeof payload.iss !== 'string' || !payload.iss.startsWith('did:key:z')) throw new Error('auth: iss must be an ed25519 did:key')
  if (typeof payload.exp !== 'number' || payload.exp < nowS) throw new Error('auth: the JWT has expired')
  const multicodec = base58.decode(payload.iss.slice('did:key:z'.length))
  if (multicodec.length !== 34 || multicodec[0] !== ED25519_PREFIX[0] || multicodec[1] !== ED25519_PREFIX[1]) {
    throw new Error('auth: iss is not an ed25519 did:key')
  }
  const signed = new TextEncoder().encode(`${headerPart}.${payloadPart}`)
  if (!ed25519.verify(base64urlnopad.decode(signaturePart), signed, multicodec.slice(2))) throw new Error('auth: bad signature')
  return payload as ClientJwtPayload
}
