import { decodeBitcoinAddress, describeBitcoinNetworks, getBitcoinNetwork } from './address'
import { createCaip122Format, isGenesisReference, type Caip122MessageField, type Caip122MessageFields, type ParseCaip122MessageReturnType } from '../../protocol/signInMessages/caip122'

/**
 * The fields of a CAIP-122 sign-in message on bip122 ("Sign in with Bitcoin"), named as EIP-4361 names them: the
 * address as its wallet writes it (bech32 in lower case, or base58), the chain as its CAIP-2 reference (the first 32
 * hex characters of its genesis block hash).
 */
export type BitcoinSignInMessageFields = Caip122MessageFields

export type BitcoinSignInMessageField = Caip122MessageField

export type ParseBitcoinSignInMessageReturnType = ParseCaip122MessageReturnType

/** Why `address` cannot sign in on the chain `chainId` (a CAIP-2 reference), or undefined when it can. */
function findAddressProblem(address: unknown, chainId: string): string | undefined {
  const decoded = typeof address === 'string' ? decodeBitcoinAddress(address) : undefined
  if (!decoded) return 'must be a Bitcoin address'
  if (decoded.type !== 'p2pkh' && decoded.type !== 'p2sh' && address !== (address as string).toLowerCase()) return 'must be written in lower case'
  const network = getBitcoinNetwork(`bip122:${chainId}`)
  if (network && !decoded.networks.includes(network)) return `is a ${describeBitcoinNetworks(decoded.networks)} address, not a ${describeBitcoinNetworks([network])} one`
  return undefined
}

const bitcoinFormat = createCaip122Format({
  accountName: 'Bitcoin',
  isChainId: isGenesisReference,
  chainIdReason: 'must be the 32 lower-case hex characters of a CAIP-2 bip122 reference',
  addressProblem: findAddressProblem,
})

/** What the first line ends with, after the domain. */
export const BITCOIN_SIGN_IN_HEADER = bitcoinFormat.header

/**
 * Writes a CAIP-122 sign-in message for a Bitcoin account: EIP-4361's layout (a blank line for a missing statement
 * too) with "Bitcoin" in the header and the chain's CAIP-2 reference as Chain ID; the wallet signs its text with
 * BIP-322 (or the legacy "Bitcoin Signed Message"). Refuses an address of another network than the chain's.
 * Throws a WidgetError `INVALID_MESSAGE` naming the `field` that cannot be written.
 * @example
 * createBitcoinSignInMessage({ domain: 'dapp.test', address: 'bc1q…', uri: 'https://dapp.test', version: '1', chainId: '000000000019d6689c085ae165831e93', nonce, issuedAt: new Date() })
 */
export const createBitcoinSignInMessage: (fields: BitcoinSignInMessageFields) => string = bitcoinFormat.create

/**
 * Reads a bip122 sign-in message into its fields, and refuses any text that is not exactly what
 * {@link createBitcoinSignInMessage} writes for them: no line before, after or between the fields, none reordered,
 * dates as `toISOString()` writes them, no trailing newline, no CR. Says which field is wrong (or `message`), and
 * refuses an address of another network than the Chain ID's.
 * @example const parsed = parseBitcoinSignInMessage(text); if (parsed.ok) parsed.fields.nonce
 */
export const parseBitcoinSignInMessage: (text: string) => ParseBitcoinSignInMessageReturnType = bitcoinFormat.parse
