import { bip122WalletConnect } from '../families/bip122/walletConnect'
import { eip155WalletConnect } from '../families/eip155/walletConnect'
import { solanaWalletConnect } from '../families/solana/walletConnect'

/**
 * The chain families a WalletConnect session carries, by namespace: each one's side of the session (its codec). A
 * session proposes, reads and tells them in this order, those the host configured networks of.
 */
export const walletConnectFamilies = { eip155: eip155WalletConnect, solana: solanaWalletConnect, bip122: bip122WalletConnect }

export type WalletConnectNamespace = keyof typeof walletConnectFamilies

/** Each family's requests to the wallet, by namespace (`session.solana.signMessage`). */
export type WalletConnectFamilyRequests = { [N in WalletConnectNamespace]: ReturnType<(typeof walletConnectFamilies)[N]['requests']> }
