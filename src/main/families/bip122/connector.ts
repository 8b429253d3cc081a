import { getBitcoinNetwork, type BitcoinNetwork } from '../../../shared/families/bip122/address'
import type { BitcoinAccount } from './wallets/bitcoinConnector'
import type { NamespaceConnector } from '../types'

/** What a bip122 send asks of the wallet: the PSBT signed for `address`'s inputs, base64. */
export type SignPsbtRequest = { psbtBase64: string; address: string; signingIndexes: number[]; caipNetworkId: string }

/**
 * A Bitcoin wallet as the connection layer drives it. Its accounts are its addresses, payment first (SPEC §6: payment
 * is the default account type on bip122), then ordinals when the wallet gave one: `allAccounts[1]` is the ordinals one.
 */
export type Bip122NamespaceConnector = NamespaceConnector & {
  /** The wallet's addresses with their purposes and public keys, as last read. */
  bitcoinAccounts: () => BitcoinAccount[]
  signPsbt: (request: SignPsbtRequest) => Promise<string>
}

/** Whether a connected connector is a bip122 one (it signs PSBTs). */
export const isBip122Connector = (connector: NamespaceConnector): connector is Bip122NamespaceConnector =>
  connector.namespace === 'bip122' && typeof (connector as Partial<Bip122NamespaceConnector>).signPsbt === 'function'

/** The Bitcoin network of a configured network id (the config accepts only the four known ones). */
export const bitcoinNetworkOf = (caipNetworkId: string): BitcoinNetwork => getBitcoinNetwork(caipNetworkId) ?? 'regtest'
