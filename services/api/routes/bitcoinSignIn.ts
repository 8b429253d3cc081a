import { describeBitcoinNetworks, getBitcoinNetwork } from '../../../src/shared/families/bip122/address'
import { BITCOIN_SIGN_IN_HEADER, parseBitcoinSignInMessage } from '../../../src/shared/families/bip122/signInMessage'
import type { SignInFamily } from './signInMessage'
import { text } from './validate'

/**
 * bip322's BIP322_MAX_SIGNATURE_LENGTH, kept here so the route does not import the verifier (bitcoinjs-lib and the
 * curves, about 10 MB) before the first Bitcoin sign-in; bitcoinSessions.test.ts checks the two agree.
 */
export const BITCOIN_SIGNATURE_MAX_LENGTH = 2_048

/**
 * A Bitcoin message signature in base64: BIP-322 simple or full (with or without the draft's `smp` / `ful` prefix),
 * or the legacy 65-byte "Bitcoin Signed Message" one; at most BITCOIN_SIGNATURE_MAX_LENGTH characters.
 */
export const base64BitcoinSignature = text({
  max: BITCOIN_SIGNATURE_MAX_LENGTH,
  min: 1,
  pattern: /^(?:smp|ful)?(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
  patternMessage: 'Expected the base64 of a BIP-322 or "Bitcoin Signed Message" signature',
})

/**
 * Sign in with Bitcoin (CAIP-122 on bip122, see src/shared/families/bip122/signInMessage.ts), signed with BIP-322
 * (P2WPKH, P2TR; P2SH-P2WPKH and P2PKH in the full format) or the legacy "Bitcoin Signed Message" (P2PKH, P2WPKH,
 * P2SH-P2WPKH). Chain ID is the CAIP-2 reference of mainnet, testnet, signet or regtest, and the address must be of
 * that network (a BIP-322 signature alone does not say which: the same key signs for bc1… and tb1… alike); the
 * session is for `bip122:{reference}:{address}`.
 */
export const bitcoinSignIn: SignInFamily = {
  namespace: 'bip122',
  isFamilyMessage: (message) => (message.split('\n', 1)[0] ?? '').endsWith(BITCOIN_SIGN_IN_HEADER),
  read(message) {
    const parsed = parseBitcoinSignInMessage(message)
    if (!parsed.ok) {
      const field = parsed.field === 'message' ? 'message' : `message.${parsed.field}`
      const reason = parsed.field === 'message' ? `not a Sign in with Bitcoin (CAIP-122) message: ${parsed.reason}` : parsed.reason
      return { ok: false, code: 'INVALID_INPUT', field, message: `${field}: ${reason}` }
    }
    const { address, chainId, domain, uri, nonce, issuedAt, notBefore, expirationTime } = parsed.fields
    if (!getBitcoinNetwork(`bip122:${chainId}`)) {
      const known = describeBitcoinNetworks(['mainnet', 'testnet', 'signet', 'regtest'])
      return { ok: false, code: 'INVALID_INPUT', field: 'message.chainId', message: `message.chainId: ${chainId} is not a network this service knows (${known})` }
    }
    return { ok: true, fields: { address, caipAddress: `bip122:${chainId}:${address}`, domain, uri, nonce, issuedAt, notBefore, expirationTime } }
  },
  signature: base64BitcoinSignature,
  verify: async ({ address, message, signature }) => (await import('../../../src/shared/families/bip122/bip322')).verifyBip322({ address, message, signature }),
}
