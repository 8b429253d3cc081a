import { getWallets, type Wallets } from '@wallet-standard/app'
import type { Wallet } from '@wallet-standard/base'
import type { CaipNetworkId } from '../../../../shared/protocol/caip'
import { discoverStandardWallets } from '../../../connectors/walletStandard/discoverStandardWallets'
import { createWalletStandardConnector, type WalletStandardConnector } from './createWalletStandardConnector'

export type DiscoverWalletStandardParameters = {
  /** The Wallet Standard registry; by default @wallet-standard/app's `getWallets()`, which tells waiting wallets the app is ready. */
  wallets?: Pick<Wallets, 'get' | 'on'>
  /** The CAIP-2 id the site gives the local network, for wallets that list 'solana:localnet'. */
  localnetCaipNetworkId?: CaipNetworkId
}

type FeatureMethods = Record<string, Record<string, unknown> | undefined>

/**
 * Whether a registered wallet can be a Solana connector: a `solana:*` chain, standard:connect and standard:events,
 * and solana:signMessage or solana:signTransaction. Never throws, whatever a page script registered.
 */
export function isSolanaWallet(wallet: unknown): wallet is Wallet {
  try {
    const { name, chains, features } = wallet as Partial<Wallet>
    if (typeof name !== 'string' || name.length === 0 || !Array.isArray(chains) || typeof features !== 'object' || features === null) return false
    const methods = features as FeatureMethods
    return (
      chains.some((chain) => typeof chain === 'string' && chain.startsWith('solana:')) &&
      typeof methods['standard:connect']?.connect === 'function' &&
      typeof methods['standard:events']?.on === 'function' &&
      (typeof methods['solana:signMessage']?.signMessage === 'function' || typeof methods['solana:signTransaction']?.signTransaction === 'function')
    )
  } catch {
    return false
  }
}

/**
 * Finds Wallet Standard wallets that support Solana, registered before or after this call, and drops the ones
 * that unregister or stop offering Solana. One connector per wallet, whatever other families it also offers
 * (see `connector.namespaces`); when two wallets share a name the first registered keeps it.
 * @example const discovery = discoverWalletStandard(); discovery.subscribe((connectors) => render(connectors))
 */
export function discoverWalletStandard({ wallets = getWallets(), localnetCaipNetworkId }: DiscoverWalletStandardParameters = {}) {
  const { getConnectors, subscribe, stop } = discoverStandardWallets<WalletStandardConnector>({
    wallets,
    isFamilyWallet: isSolanaWallet,
    createConnector: (wallet) => createWalletStandardConnector({ wallet, localnetCaipNetworkId }),
    keyOf: (connector) => connector.id,
  })
  // The Solana connectors come from the registry alone, which announces its changes: nothing to look for again.
  return { getConnectors, subscribe, stop }
}

export type WalletStandardDiscovery = ReturnType<typeof discoverWalletStandard>
