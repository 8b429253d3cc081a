import { ed25519 } from '@noble/curves/ed25519'
import { base58, base64urlnopad } from '@scure/base'

/**
 * `@walletconnect/relay-auth` as the sign client uses it: the ed25519 key pair and JWT that authenticate it to the
 * relay (`generateKeyPair`, `signJWT`, `encodeIss`) and `decodeJWT` (to read a verified attestation's and a CACAO's
 * payload). The package is one pre-built file with its own copies of the noble hashes and curves, which the bundler
 * cannot drop (15 kB gzipped in the worker); the build swaps it for this file (vite.aliases.ts). The JWTs are the
 * original's byte for byte (slim.test.ts).
 */

export type Keypair = { secretKey: Uint8Array; publicKey: Uint8Array }
type DecodedJwt = { header: Record<string, unknown>; payload: Record<string, unknown>; signature: Uint8Array; data: Uint8Array }

/** The multicodec prefix of an ed25519 public key (0xed 0x01), as in did:key. */
const ED25519_MULTICODEC = Uint8Array.of(0xed, 0x01)

const utf8 = (text: string) => new TextEncoder().encode(text)
const encodeJson = (value: object) => base64urlnopad.encode(utf8(JSON.stringify(value)))
const base64url = (part: string) => base64urlnopad.decode(part.replace(/=+$/, ''))
const decodeJson = (part: string) => JSON.parse(new TextDecoder().decode(base64url(part))) as Record<string, unknown>

export function generateKeyPair(seed: Uint8Array = ed25519.utils.randomPrivateKey()): Keypair {
  const publicKey = ed25519.getPublicKey(seed)
  const secretKey = new Uint8Array(64)
  secretKey.set(seed)
  secretKey.set(publicKey, 32)
  return { secretKey, publicKey }
}

/** `did:key:z…`: the public key, multicodec-prefixed, in base58btc. */
export function encodeIss(publicKey: Uint8Array): string {
  const key = new Uint8Array(ED25519_MULTICODEC.length + publicKey.length)
  key.set(ED25519_MULTICODEC)
  key.set(publicKey, ED25519_MULTICODEC.length)
  return `did:key:z${base58.encode(key)}`
}

/** An EdDSA JWT from the key pair: iss is its did:key, exp is iat + ttl (seconds). */
export async function signJWT(sub: string, aud: string, ttl: number, keyPair: Keypair, iat = Math.floor(Date.now() / 1000)): Promise<string> {
  const header = { alg: 'EdDSA', typ: 'JWT' }
  const payload = { iss: encodeIss(keyPair.publicKey), sub, aud, iat, exp: iat + ttl }
  const data = `${encodeJson(header)}.${encodeJson(payload)}`
  return `${data}.${base64urlnopad.encode(ed25519.sign(utf8(data), keyPair.secretKey.slice(0, 32)))}`
}

export function decodeJWT(jwt: string): DecodedJwt {
  const [header = '', payload = '', signature = ''] = jwt.split('.')
  return { header: decodeJson(header), payload: decodeJson(payload), signature: base64url(signature), data: utf8(`${header}.${payload}`) }
}
