import { decodeBitcoinAddress, type BitcoinNetwork } from '../../../../shared/families/bip122/address'
import { createWidgetError } from '../../../../shared/protocol/errors'

/** What an address is for (SPEC §3 account types): payment (P2WPKH, the default on bip122) or ordinals (P2TR). */
export type BitcoinPurpose = 'payment' | 'ordinals'

/** One address a Bitcoin wallet gave this site, and what it is for. `publicKey` is hex as the wallet gave it. */
export type BitcoinAccount = { address: string; purpose: BitcoinPurpose; publicKey?: string }

export type BitcoinConnectorEvents = {
  /** The wallet's addresses changed (another account, another network); never empty (none left is onDisconnect). */
  onAccountsChanged?: (accounts: BitcoinAccount[]) => void
  /** The wallet no longer gives this site any address. */
  onDisconnect?: () => void
}

export type SignPsbtParameters = {
  /** The unsigned PSBT (BIP-174), base64. */
  psbtBase64: string
  /** The address whose inputs the wallet signs. */
  address: string
  /** Which inputs are that address's. */
  signingIndexes: number[]
  network: BitcoinNetwork
}

/** How the wallet reached the page: the Bitcoin Wallet Standard, a sats-connect provider, or a Unisat-style object. */
export type BitcoinConnectorKind = 'walletStandard' | 'satsConnect' | 'unisat'

/**
 * A Bitcoin wallet as the bip122 adapter drives it, whichever way it reached the page. Accounts come payment first,
 * then ordinals when the wallet gives a second address; every error is a WidgetError (a refusal is USER_REJECTED).
 */
export type BitcoinConnector = {
  readonly id: string
  readonly name: string
  readonly type: 'ANNOUNCED' | 'INJECTED'
  readonly namespace: 'bip122'
  readonly kind: BitcoinConnectorKind
  /** The wallet's icon, only when it is a safe data:image URI. */
  readonly imageUrl: string | undefined
  /** Asks for the payment and ordinals addresses (the wallet shows its prompt). */
  connect: (network: BitcoinNetwork) => Promise<BitcoinAccount[]>
  /** Whether the wallet still gives this site its addresses without asking (for reconnect on load). */
  isAuthorized: () => Promise<boolean>
  getAccounts: () => Promise<BitcoinAccount[]>
  disconnect: () => Promise<void>
  /** Asks the wallet to move to `network`; absent where the wallet takes no such request (the Wallet Standard). */
  switchNetwork?: (network: BitcoinNetwork) => Promise<void>
  /** A BIP-322 signature (base64) of `message` by `address` where the wallet offers it, else the wallet's own scheme. */
  signMessage: (message: string, address: string) => Promise<string>
  /** The PSBT with `address`'s inputs signed (base64), not finalized by force and never broadcast by the wallet. */
  signPsbt: (parameters: SignPsbtParameters) => Promise<string>
  /** Follows account (and network) changes; returns the function that stops. */
  watch: (events: BitcoinConnectorEvents) => () => void
}

/** More addresses than this from one wallet are not read (a wallet may list every account it holds). */
const MAX_ADDRESSES = 20

export type WalletAddress = { address: unknown; publicKey?: unknown; purpose?: unknown }

const isHex = (value: unknown): value is string => typeof value === 'string' && value.length <= 130 && /^(?:[0-9a-fA-F]{2})+$/.test(value)

/**
 * A wallet's addresses as at most one payment and one ordinals account, payment first:
 * 1. addresses that are not Bitcoin addresses are dropped, and only the first 20 are read;
 * 2. a purpose the wallet names (sats-connect's `purpose`) is taken as it is;
 * 3. otherwise the first non-taproot address is payment, and a taproot (P2TR) one is ordinals; a lone address is payment;
 * 4. an ordinals address equal to the payment one (a single-address wallet) is not repeated.
 * @example toBitcoinAccounts([{ address: 'bc1p…' }, { address: 'bc1q…' }]) // [{ address: 'bc1q…', purpose: 'payment' }, { address: 'bc1p…', purpose: 'ordinals' }]
 */
export function toBitcoinAccounts(addresses: readonly WalletAddress[]): BitcoinAccount[] {
  const valid = addresses
    .slice(0, MAX_ADDRESSES)
    .filter((a): a is WalletAddress & { address: string } => typeof a?.address === 'string' && decodeBitcoinAddress(a.address) !== undefined)
    .map((a) => ({ address: a.address, ...(isHex(a.publicKey) ? { publicKey: a.publicKey.toLowerCase() } : {}), named: a.purpose === 'payment' || a.purpose === 'ordinals' ? (a.purpose as BitcoinPurpose) : undefined }))
  const isTaproot = (address: string) => decodeBitcoinAddress(address)?.type === 'p2tr'
  const payment = valid.find((a) => a.named === 'payment') ?? valid.find((a) => a.named === undefined && !isTaproot(a.address)) ?? valid.find((a) => a.named === undefined)
  const ordinals = valid.find((a) => a.named === 'ordinals') ?? valid.find((a) => a !== payment && a.named === undefined && isTaproot(a.address))
  const account = ({ address, publicKey }: { address: string; publicKey?: string }, purpose: BitcoinPurpose): BitcoinAccount => ({ address, purpose, ...(publicKey ? { publicKey } : {}) })
  // A wallet that named only an ordinals address still has an account: that address serves both.
  const first = payment ?? ordinals
  if (!first) return []
  const accounts = [account(first, payment ? 'payment' : 'ordinals')]
  if (payment && ordinals && ordinals.address !== payment.address) accounts.push(account(ordinals, 'ordinals'))
  return accounts
}

/** Whether two account lists are the same addresses for the same purposes. */
export const sameAccounts = (a: readonly BitcoinAccount[], b: readonly BitcoinAccount[]) =>
  a.length === b.length && a.every((account, i) => account.address === b[i]!.address && account.purpose === b[i]!.purpose)

/** The wallet answered, but with no Bitcoin address: a bad response, said as such. */
export const noAccountError = (name: string) => createWidgetError('WALLET_BAD_RESPONSE', { details: `${name} returned no Bitcoin address` })

/** Checks a PSBT request before it reaches a wallet. */
export function checkSignPsbt({ psbtBase64, address, signingIndexes }: SignPsbtParameters) {
  if (typeof psbtBase64 !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(psbtBase64)) throw createWidgetError('INVALID_PARAMS', { field: 'psbtBase64', details: 'The PSBT must be base64' })
  if (typeof address !== 'string' || !decodeBitcoinAddress(address)) throw createWidgetError('INVALID_ADDRESS', { details: `Not a Bitcoin address: ${String(address).slice(0, 100)}` })
  if (!Array.isArray(signingIndexes) || signingIndexes.length === 0 || !signingIndexes.every((i) => Number.isInteger(i) && i >= 0)) {
    throw createWidgetError('INVALID_PARAMS', { field: 'signingIndexes', details: 'The inputs to sign must be a non-empty list of input indexes' })
  }
}
