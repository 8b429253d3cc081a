import type { ChainNamespace } from '../../../shared/protocol/caip'
import type { ConnectorSummary } from '../../widget/widgetState'

/** One Connect entry: a wallet with the families it offers (one connector per family). */
export type WalletEntry = { name: string; imageUrl: string | undefined; members: ConnectorSummary[] }

/**
 * A wallet that offers several families (an EVM extension that is also a Wallet Standard Solana wallet) is one entry
 * (SPEC §3's MULTI_CHAIN), found by its name; the order is the first member's.
 */
export function groupConnectors(connectors: readonly ConnectorSummary[]): WalletEntry[] {
  const entries = new Map<string, WalletEntry>()
  for (const connector of connectors) {
    const entry = entries.get(connector.name)
    if (entry) entry.members.push(connector)
    else entries.set(connector.name, { name: connector.name, imageUrl: connector.imageUrl, members: [connector] })
  }
  return [...entries.values()]
}

/** The member a click connects: the family the visitor is on when the wallet offers it, else its first. */
export const memberFor = (entry: WalletEntry, activeNamespace: ChainNamespace) => entry.members.find((m) => m.namespace === activeNamespace) ?? entry.members[0]!

/** Whether one of the entry's connectors is a wallet the visitor used before. */
export const isRecentEntry = (entry: WalletEntry, recent: readonly { id: string }[]) => entry.members.some((member) => recent.some((w) => w.id === member.id))

/**
 * The Connect view's connectors in its order (SPEC §9): WalletConnect first, then the installed wallets the visitor
 * used before, then the other installed ones (the registry's recent wallets go between those two).
 */
export function arrangeConnectors(connectors: readonly ConnectorSummary[], recent: readonly { id: string }[]) {
  const installed = groupConnectors(connectors.filter((c) => c.type !== 'WALLET_CONNECT'))
  return {
    walletConnect: groupConnectors(connectors.filter((c) => c.type === 'WALLET_CONNECT')),
    recentInstalled: installed.filter((entry) => isRecentEntry(entry, recent)),
    otherInstalled: installed.filter((entry) => !isRecentEntry(entry, recent)),
  }
}

/** Where a registry wallet that is not installed here is got: its https web app or download page, else undefined. */
export function registryWalletLink(wallet: { webapp_link?: string | null; desktop_link?: string | null; mobile_link?: string | null }): string | undefined {
  const link = wallet.webapp_link ?? wallet.desktop_link ?? wallet.mobile_link
  return link && /^https:\/\//.test(link) ? link : undefined
}
