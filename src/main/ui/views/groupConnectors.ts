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
