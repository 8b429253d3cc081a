import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64urlnopad } from '@scure/base'

export type CreateClientJwtParameters = {
  /** The relay URL the JWT is for. */
  aud: string
  nowS?: number
  /** Claims to set instead of the usual ones; `undefined` leaves a claim out. */
  claims?: Record<string, unknown>
}

const part = (value: unknown) => base64urlnopad.encode(new TextEncoder().encode(JSON.stringify(value)))

/**
 * A client JWT as @walletconnect/core makes one (relay-auth's signJWT): EdDSA, signed by a fresh ed25519 key whose
 * did:key is `iss`, `iat` now and `exp` one day later. Each call is a new client identity.
 * @example new WebSocket(`${relay.url}/?auth=${createClientJwt({ aud: relay.url })}`)
 */
export function createClientJwt({ aud, nowS = Math.floor(Date.now() / 1_000), claims = {} }: CreateClientJwtParameters) {
  const secret = ed25519.utils.randomPrivateKey()
  const iss = `did:key:z${base58.encode(new Uint8Array([0xed, 0x01, ...ed25519.getPublicKey(secret)]))}`
  const signed = `${part({ alg: 'EdDSA', typ: 'JWT' })}.${part({ iss, sub: 'tessera-test', aud, iat: nowS, exp: nowS + 86_400, ...claims })}`
  return `${signed}.${base64urlnopad.encode(ed25519.sign(new TextEncoder().encode(signed), secret))}`
}
