import { isSolanaAddress } from './address'
import { createCaip122Format, type Caip122MessageField, type Caip122MessageFields, type ParseCaip122MessageReturnType } from '../../protocol/signInMessages/caip122'

/**
 * Chain IDs a Sign-In With Solana message may name: the cluster names of the SIWS spec's ABNF
 * (`message-chain-id`, https://github.com/phantom/sign-in-with-solana#abnf-message-format), not CAIP-2 references.
 */
export const solanaSignInChainIds = ['mainnet', 'testnet', 'devnet', 'localnet', 'solana:mainnet', 'solana:testnet', 'solana:devnet'] as const
export type SolanaSignInChainId = (typeof solanaSignInChainIds)[number]

/**
 * The fields of a Sign-In With Solana message, named as `SolanaSignInInput` of `@solana/wallet-standard-features`
 * names them, the address in base58. URI, Version, Chain ID, Nonce and Issued At are optional in SIWS but required
 * here, as in EIP-4361: a sign-in without them cannot be bound to a site, a nonce or a time.
 */
export type SolanaSignInMessageFields = Caip122MessageFields<SolanaSignInChainId>

export type SolanaSignInMessageField = Caip122MessageField

export type ParseSolanaSignInMessageReturnType = ParseCaip122MessageReturnType<SolanaSignInChainId>

const solanaFormat = createCaip122Format({
  accountName: 'Solana',
  layout: 'siws',
  isChainId: (value): value is SolanaSignInChainId => (solanaSignInChainIds as readonly string[]).includes(value),
  chainIdReason: `must be one of ${solanaSignInChainIds.join(', ')}`,
  addressProblem: (address) => (typeof address === 'string' && isSolanaAddress(address) ? undefined : 'must be a base58 Solana address of 32 bytes'),
  messageName: 'Sign-In With Solana',
})

/**
 * Writes a Sign-In With Solana message (the SIWS ABNF: EIP-4361's layout with "Solana" in the header and no blank
 * line where a statement is left out); the wallet signs its UTF-8 bytes with `solana:signMessage`.
 * Throws a WidgetError `INVALID_MESSAGE` naming the `field` that cannot be written.
 * @example
 * createSolanaSignInMessage({ domain: 'dapp.test', address, uri: 'https://dapp.test', version: '1', chainId: 'mainnet', nonce, issuedAt: new Date() })
 */
export const createSolanaSignInMessage: (fields: SolanaSignInMessageFields) => string = solanaFormat.create

/**
 * Reads a Sign-In With Solana message into its fields, and refuses any text that is not exactly what
 * {@link createSolanaSignInMessage} writes for them: no line before, after or between the fields, none reordered,
 * dates as `toISOString()` writes them, no trailing newline, no CR. Says which field is wrong (or `message`); a
 * statement is read when the line after the next is blank (no field line ever is).
 * @example const parsed = parseSolanaSignInMessage(text); if (parsed.ok) parsed.fields.nonce
 */
export const parseSolanaSignInMessage: (text: string) => ParseSolanaSignInMessageReturnType = solanaFormat.parse
