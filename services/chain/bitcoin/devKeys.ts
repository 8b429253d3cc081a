import { pbkdf2Sync } from 'node:crypto'
import { initEccLib, networks, payments, type Network } from 'bitcoinjs-lib'
import { ECPairFactory } from 'ecpair'
import * as ecc from 'tiny-secp256k1'
import { loadBcoin, type BcoinHDPrivateKey } from './loadBcoin'

initEccLib(ecc)
const ecpair = ECPairFactory(ecc)

/**
 * The phrase every local Bitcoin chain derives its dev accounts from: anvil's well-known test mnemonic, so one phrase
 * opens the EVM and the Bitcoin dev accounts in any wallet set to regtest. Public: never send real coins to its keys.
 */
export const BITCOIN_DEV_MNEMONIC = 'test test test test test test test test test test test junk'

export const BITCOIN_DEV_ACCOUNT_COUNT = 10

/** One key of a dev account. Test-only: the private key and WIF are public by design, the dev wallet signs with them. */
export type BitcoinDevKey = {
  address: string
  /** Hex: the 33-byte compressed key for payment (P2WPKH); the 32-byte x-only internal key for ordinals (P2TR), as sats-connect gives it. */
  publicKey: string
  /** Hex, 32 bytes. For ordinals this is the untweaked key: a BIP86 signer tweaks it (bitcoinjs-lib: `tweak(taggedHash('TapTweak', publicKey))`). */
  privateKey: string
  wif: string
  derivationPath: string
}

/** A dev account as Bitcoin wallets (Xverse, Leather, sats-connect) present it: a payment and an ordinals address. */
export type BitcoinDevAccount = { payment: BitcoinDevKey; ordinals: BitcoinDevKey }

export type DeriveBitcoinAccountsParameters = {
  mnemonic?: string
  count?: number
  /** BIP44 coin type: 1 for test networks (regtest, testnet), 0 for mainnet. */
  coinType?: 0 | 1
  network?: Network
}

/** BIP39 phrase → 64-byte seed (PBKDF2-HMAC-SHA512, 2,048 rounds); node:crypto's is far faster than bcoin's JS one. */
function mnemonicToSeed(mnemonic: string, passphrase = ''): Buffer {
  return pbkdf2Sync(mnemonic.normalize('NFKD'), `mnemonic${passphrase}`.normalize('NFKD'), 2_048, 64, 'sha512')
}

function toDevKey(node: BcoinHDPrivateKey, derivationPath: string, network: Network, kind: 'payment' | 'ordinals'): BitcoinDevKey {
  const privateKey = Uint8Array.from(node.privateKey)
  const publicKey = Uint8Array.from(node.publicKey)
  const xOnly = publicKey.subarray(1)
  const address =
    kind === 'payment' ? payments.p2wpkh({ pubkey: publicKey, network }).address : payments.p2tr({ internalPubkey: xOnly, network }).address
  if (!address) throw new Error(`Could not make the ${kind} address of ${derivationPath}`)
  return {
    address,
    publicKey: Buffer.from(kind === 'payment' ? publicKey : xOnly).toString('hex'),
    privateKey: Buffer.from(privateKey).toString('hex'),
    wif: ecpair.fromPrivateKey(privateKey, { network }).toWIF(),
    derivationPath,
  }
}

/**
 * Derives accounts from a BIP39 phrase: payment keys on BIP84 (`m/84'/coin'/0'/0/i`, P2WPKH) and ordinals keys on
 * BIP86 (`m/86'/coin'/0'/0/i`, key-path-only P2TR), the first receive address of each index being one account.
 * @example deriveBitcoinAccounts({ count: 1 })[0].payment.address // 'bcrt1q…'
 */
export function deriveBitcoinAccounts({
  mnemonic = BITCOIN_DEV_MNEMONIC,
  count = BITCOIN_DEV_ACCOUNT_COUNT,
  coinType = 1,
  network = networks.regtest,
}: DeriveBitcoinAccountsParameters = {}): BitcoinDevAccount[] {
  const root = loadBcoin().HDPrivateKey.fromSeed(mnemonicToSeed(mnemonic))
  const paymentAccount = root.derivePath(`m/84'/${coinType}'/0'`)
  const ordinalsAccount = root.derivePath(`m/86'/${coinType}'/0'`)
  return Array.from({ length: count }, (_, index) => ({
    payment: toDevKey(paymentAccount.derivePath(`m/0/${index}`), `m/84'/${coinType}'/0'/0/${index}`, network, 'payment'),
    ordinals: toDevKey(ordinalsAccount.derivePath(`m/0/${index}`), `m/86'/${coinType}'/0'/0/${index}`, network, 'ordinals'),
  }))
}

/**
 * Where timer-mined blocks pay their coinbase: a key of the dev phrase outside every dev account (BIP84 account 99'),
 * so the dev accounts' balances change only by what they send and receive.
 */
export function bitcoinMinerAddress(network: Network = networks.regtest): string {
  const root = loadBcoin().HDPrivateKey.fromSeed(mnemonicToSeed(BITCOIN_DEV_MNEMONIC))
  return toDevKey(root.derivePath(`m/84'/1'/99'/0/0`), `m/84'/1'/99'/0/0`, network, 'payment').address
}
