import { decodeSs58, describeSs58Prefix, GENERIC_SS58_PREFIX, getPolkadotNetwork } from './address'
import { createCaip122Format, isGenesisReference, type Caip122MessageField, type Caip122MessageFields, type ParseCaip122MessageReturnType } from '../../protocol/signInMessages/caip122'

/**
 * The fields of a CAIP-122 sign-in message on polkadot ("Sign in with Polkadot"), named as EIP-4361 names them: the
 * SS58 address in the chain's format (or the generic one, 42), the chain as its CAIP-2 reference (the first 32 hex
 * characters of its genesis hash).
 */
export type PolkadotSignInMessageFields = Caip122MessageFields

export type PolkadotSignInMessageField = Caip122MessageField

export type ParsePolkadotSignInMessageReturnType = ParseCaip122MessageReturnType

/** Why `address` cannot sign in on the chain `chainId` (a CAIP-2 reference), or undefined when it can. */
function findAddressProblem(address: unknown, chainId: string): string | undefined {
  const decoded = typeof address === 'string' ? decodeSs58(address) : undefined
  if (!decoded) return 'must be an SS58 account address'
  const network = getPolkadotNetwork(`polkadot:${chainId}`)
  if (network && decoded.prefix !== network.ss58Prefix && decoded.prefix !== GENERIC_SS58_PREFIX) {
    return `is a ${describeSs58Prefix(decoded.prefix)} address, not a ${network.name} one`
  }
  return undefined
}

const polkadotFormat = createCaip122Format({
  accountName: 'Polkadot',
  isChainId: isGenesisReference,
  chainIdReason: 'must be the 32 lower-case hex characters of a CAIP-2 polkadot reference (the start of its genesis hash)',
  addressProblem: findAddressProblem,
})

/** What the first line ends with, after the domain. */
export const POLKADOT_SIGN_IN_HEADER = polkadotFormat.header

/**
 * Writes a CAIP-122 sign-in message for a Polkadot account: EIP-4361's layout (a blank line for a missing statement
 * too) with "Polkadot" in the header and the chain's CAIP-2 reference as Chain ID; the extension signs its text with
 * signRaw (`bytes`: wrapped in <Bytes>…</Bytes>), sr25519, ed25519 or ecdsa. Refuses an address of another known
 * network than the chain's.
 * Throws a WidgetError `INVALID_MESSAGE` naming the `field` that cannot be written.
 * @example
 * createPolkadotSignInMessage({ domain: 'dapp.test', address: '15oF4…Sp5', uri: 'https://dapp.test', version: '1', chainId: '91b171bb158e2d3848fa23a9f1c25182', nonce, issuedAt: new Date() })
 */
export const createPolkadotSignInMessage: (fields: PolkadotSignInMessageFields) => string = polkadotFormat.create

/**
 * Reads a polkadot sign-in message into its fields, and refuses any text that is not exactly what
 * {@link createPolkadotSignInMessage} writes for them: no line before, after or between the fields, none reordered,
 * dates as `toISOString()` writes them, no trailing newline, no CR. Says which field is wrong (or `message`), and
 * refuses an address of another known network than the Chain ID's.
 * @example const parsed = parsePolkadotSignInMessage(text); if (parsed.ok) parsed.fields.nonce
 */
export const parsePolkadotSignInMessage: (text: string) => ParsePolkadotSignInMessageReturnType = polkadotFormat.parse
