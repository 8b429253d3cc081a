import type { ChainNamespace } from '../../../shared/protocol/caip'
import { createWidgetError } from '../../../shared/protocol/errors'
import type { WalletListingEntry } from '../../../shared/protocol/schemas/entities'
import { isRecentEntry, memberFor, registryWalletLink, type WalletEntry } from '../../ui/views/groupConnectors'
import type { Widget } from '../../widget/createWidget'
import { useIsStarted, useWidget, useWidgetState } from '../WidgetProvider'
import { loadWalletList } from './loadFeatures'
import { hasWalletRegistry, useConnectWallets } from './useConnectWallets'
import { useLoaded } from './useLoaded'

/** One wallet as Connect lists it. */
export type WalletListItem = {
  /** The connector's id (installed wallets, WalletConnect) or the registry's id of the wallet. */
  id: string
  name: string
  /** Its logo: an http(s) or data: URL, or undefined (draw its initials). Show it as an image, never as markup. */
  imageUrl: string | undefined
  /**
   * How it connects: `installed` (an extension in this browser, asked at once), `walletConnect` (a QR code or a link to
   * a wallet on this device: connect() opens the widget's WalletConnect view), `registry` (a wallet of the registry
   * not installed here: paired by WalletConnect when the site has a relay, else `installUrl`).
   */
  type: 'installed' | 'walletConnect' | 'registry'
  /** The visitor connected it before. */
  isRecent: boolean
  /** The chain families it offers here (an installed wallet of several families is one entry). */
  namespaces: ChainNamespace[]
  /** A registry wallet the site cannot pair: where to get it (https only); undefined otherwise. */
  installUrl: string | undefined
}

export type UseWalletListParameters = {
  /** List only this family's wallets (as the modal does when opened with a `namespace`). */
  namespace?: ChainNamespace
}

export type UseWalletListReturnType = {
  /** Every wallet in Connect's order (SPEC §9): `walletConnect`, `recent`, `installed`, then `more`. */
  wallets: WalletListItem[]
  walletConnect: WalletListItem[]
  /** Wallets the visitor used before: installed ones first, then the registry's. */
  recent: WalletListItem[]
  /** The other wallets installed in this browser. */
  installed: WalletListItem[]
  /** The registry's wallets not installed here: the site's featured ones, then recommended ones. */
  more: WalletListItem[]
  /** Whether the site has a wallet registry (the widget's All Wallets view lists it: `widget.open({ view: 'AllWallets' })`). */
  hasRegistry: boolean
  /**
   * Connects a wallet of the list: an installed wallet is asked (on the family the visitor is on, when it offers it;
   * resolves once connected, rejects as `widget.connect` does); WalletConnect and registry wallets open the widget's
   * pairing view; a registry wallet without pairing opens its `installUrl`.
   */
  connect: (wallet: Pick<WalletListItem, 'id' | 'type'>) => Promise<void>
}

const itemOfEntry = (entry: WalletEntry, recent: readonly { id: string }[]): WalletListItem => {
  const isWalletConnect = entry.members[0]!.type === 'WALLET_CONNECT'
  return {
    id: entry.members[0]!.id,
    name: entry.name,
    imageUrl: entry.imageUrl,
    type: isWalletConnect ? 'walletConnect' : 'installed',
    isRecent: !isWalletConnect && isRecentEntry(entry, recent),
    namespaces: entry.members.map((m) => m.namespace),
    installUrl: undefined,
  }
}

const itemOfListing = (widget: Widget, wallet: WalletListingEntry, isRecent: boolean): WalletListItem => ({
  id: wallet.id,
  name: wallet.name,
  imageUrl: wallet.image_id ? widget.walletImageUrl(wallet.image_id) : undefined,
  type: 'registry',
  isRecent,
  namespaces: ['eip155'],
  installUrl: widget.walletConnect ? undefined : registryWalletLink(wallet),
})

/**
 * The wallets as the Connect view lists them, and `connect(wallet)`: for a site that draws its own wallet list. The
 * registry's controller loads on first use (as the modal's does); until then the list holds the page's wallets.
 * @example const { wallets, connect } = useWalletList(); wallets.map((w) => <button onClick={() => connect(w)}>{w.name}</button>)
 */
export function useWalletList({ namespace }: UseWalletListParameters = {}): UseWalletListReturnType {
  const widget = useWidget()
  const isStarted = useIsStarted()
  const activeNamespace = useWidgetState((s) => s.activeNamespace)
  const recentWallets = useWidgetState((s) => s.recentWallets)
  const hasRegistry = isStarted && hasWalletRegistry(widget, namespace)
  const list = useLoaded(hasRegistry ? 'wallets' : undefined, loadWalletList)
  const { walletConnect, recentInstalled, otherInstalled, listed } = useConnectWallets(hasRegistry ? list?.value : undefined, namespace)
  const entries = [...walletConnect, ...recentInstalled, ...otherInstalled]
  const registry = [...listed.recent, ...listed.featured, ...listed.recommended]
  const items = {
    walletConnect: walletConnect.map((e) => itemOfEntry(e, recentWallets)),
    recent: [...recentInstalled.map((e) => itemOfEntry(e, recentWallets)), ...listed.recent.map((w) => itemOfListing(widget, w, true))],
    installed: otherInstalled.map((e) => itemOfEntry(e, recentWallets)),
    more: [...listed.featured, ...listed.recommended].map((w) => itemOfListing(widget, w, false)),
  }
  const connect = async ({ id, type }: Pick<WalletListItem, 'id' | 'type'>) => {
    if (type === 'walletConnect') return widget.open({ view: 'ConnectingWalletConnectBasic' })
    if (type === 'registry') {
      const wallet = registry.find((w) => w.id === id)
      if (!wallet) throw createWidgetError('WALLET_NOT_FOUND', { details: id })
      if (widget.walletConnect) return widget.open({ view: 'ConnectingWalletConnect', data: { wallet } })
      const link = registryWalletLink(wallet)
      if (!link) throw createWidgetError('WALLET_NOT_FOUND', { details: `${wallet.name} is not installed in this browser` })
      window.open(link, '_blank', 'noopener,noreferrer')
      return
    }
    const entry = entries.find((e) => e.members[0]!.id === id)
    if (!entry) throw createWidgetError('WALLET_NOT_FOUND', { details: id })
    const member = memberFor(entry, activeNamespace)
    await widget.connect(member.id, member.namespace)
  }
  return { wallets: [...items.walletConnect, ...items.recent, ...items.installed, ...items.more], ...items, hasRegistry, connect }
}
