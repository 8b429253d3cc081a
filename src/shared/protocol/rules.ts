import { ACCOUNT_NAME_MIN_LENGTH } from './constants'

/** An account name: at least 4 characters, only letters, digits and hyphen (SPEC §5). */
export const isValidAccountName = (name: string) => name.length >= ACCOUNT_NAME_MIN_LENGTH && /^[a-zA-Z0-9-]+$/.test(name)

/** A transaction hash: 0x plus 64 hex characters. */
export const isTransactionHash = (value: string) => /^0x[0-9a-fA-F]{64}$/.test(value)

/** A signed message: 0x plus 62 or more hex characters. */
export const isSignedMessage = (value: string) => /^0x[0-9a-fA-F]{62,}$/.test(value)

/** A hex string: 0x plus hex digits. */
export const isHexString = (value: string) => /^0x[0-9a-fA-F]+$/.test(value)

/** An e-mail address as the login form accepts it: one @, a dotted domain, no spaces. */
export const isEmail = (value: string) => value.length <= 254 && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value)
