import { decodeSs58, getPolkadotNetwork, polkadotNetworks } from '../../../src/shared/families/polkadot/address'
import { parsePolkadotSignInMessage, POLKADOT_SIGN_IN_HEADER } from '../../../src/shared/families/polkadot/signInMessage'
import type { SignInFamily } from './signInMessage'
import { text } from './validate'

/**
 * A Polkadot signature in hex: 64 bytes (sr25519, ed25519), 65 (ecdsa), or a MultiSignature of 65 or 66 bytes (its
 * first byte the scheme).
 */
export const hexPolkadotSignature = text({ max: 134, min: 130, pattern: /^0x(?:[0-9a-fA-F]{2}){64,66}$/, patternMessage: 'Expected the hex of an sr25519, ed25519 or ecdsa signature' })

const toHex = (bytes: Uint8Array) => `0x${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`

/**
 * Sign in with Polkadot (CAIP-122 on polkadot, see src/shared/families/polkadot/signInMessage.ts), signed by an
 * extension's signRaw: sr25519, ed25519 or ecdsa over the message's bytes, wrapped in <Bytes>…</Bytes> as extensions
 * sign `bytes` (signatureVerify takes the unwrapped form too). Chain ID is the CAIP-2 reference of a network this
 * service knows (Polkadot, Kusama, Westend, the local stack's), and the address must be in its SS58 format or the
 * generic one; the session is for `polkadot:{reference}:{address}`.
 */
export const polkadotSignIn: SignInFamily = {
  namespace: 'polkadot',
  isFamilyMessage: (message) => (message.split('\n', 1)[0] ?? '').endsWith(POLKADOT_SIGN_IN_HEADER),
  read(message) {
    const parsed = parsePolkadotSignInMessage(message)
    if (!parsed.ok) {
      const field = parsed.field === 'message' ? 'message' : `message.${parsed.field}`
      const reason = parsed.field === 'message' ? `not a Sign in with Polkadot (CAIP-122) message: ${parsed.reason}` : parsed.reason
      return { ok: false, code: 'INVALID_INPUT', field, message: `${field}: ${reason}` }
    }
    const { address, chainId, domain, uri, nonce, issuedAt, notBefore, expirationTime } = parsed.fields
    if (!getPolkadotNetwork(`polkadot:${chainId}`)) {
      const known = Object.values(polkadotNetworks).map((n) => n.name).join(', ')
      return { ok: false, code: 'INVALID_INPUT', field: 'message.chainId', message: `message.chainId: ${chainId} is not a network this service knows (${known})` }
    }
    return { ok: true, fields: { address, caipAddress: `polkadot:${chainId}:${address}`, domain, uri, nonce, issuedAt, notBefore, expirationTime } }
  },
  signature: hexPolkadotSignature,
  async verify({ address, message, signature }) {
    const decoded = decodeSs58(address)
    if (!decoded) return false
    // Imported on the first Polkadot sign-in: @polkadot/util-crypto and its WASM hold about 30 MB the service would
    // otherwise carry from its start.
    const { cryptoWaitReady, signatureVerify } = await import('@polkadot/util-crypto')
    await cryptoWaitReady()
    try {
      return signatureVerify(new TextEncoder().encode(`<Bytes>${message}</Bytes>`), signature, toHex(decoded.publicKey)).isValid
    } catch {
      return false
    }
  },
}
