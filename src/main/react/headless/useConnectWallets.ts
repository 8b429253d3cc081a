import { useEffect, useState } from 'react'
import type { WalletListingEntry } from '../../../shared/protocol/schemas/entities'
import { arrangeConnectors, type WalletEntry } from '../../ui/views/groupConnectors'
import type { Widget } from '../../widget/createWidget'
import type { WalletListController, WalletListState } from '../../widget/createWalletListController'
import { useIsStarted, useStoreSelector, useWidget, useWidgetState } from '../WidgetProvider'

/** Whether Connect lists the registry's wallets for `family` (the registry lists EVM and WalletConnect wallets, for now). */
export const hasWalletRegistry = (widget: Widget, family: string | undefined) =>
  widget.config.features.allWallets && widget.walletImageUrl('') !== undefined && (!family || family === 'eip155')

export type ConnectWallets = {
  /** The connectors Connect lists (the modal's family's, when it names one). */
  connectors: WidgetConnectors
  walletConnect: WalletEntry[]
  /** Installed wallets the visitor used before, then the others. */
  recentInstalled: WalletEntry[]
  otherInstalled: WalletEntry[]
  /** The registry's wallets not installed here: the visitor's recent ones, the site's featured ones, recommended ones. */
  listed: WalletListState['connectList']
  /** Whether there is any wallet to list. */
  hasAny: boolean
}
type WidgetConnectors = ReturnType<Widget['getState']>['connectors']

/**
 * The wallets of the Connect view, in its order (SPEC §9): the page's connectors grouped by wallet, and the registry's
 * wallets from `list` (undefined: none), asked for once the installed wallets are known so that none shows twice.
 * The Connect view and `useWalletList` read the same.
 */
export function useConnectWallets(list: WalletListController | undefined, family: string | undefined): ConnectWallets {
  const widget = useWidget()
  const allConnectors = useWidgetState((s) => s.connectors)
  const connectors = family ? allConnectors.filter((c) => c.namespace === family) : allConnectors
  const recent = useWidgetState((s) => s.recentWallets)
  const listed = useStoreSelector<Pick<WalletListState, 'connectList'>, WalletListState['connectList']>(list?.store ?? noRegistry, (s) => s.connectList)
  const recentIds = recent.map((w) => w.id).join(',')
  const installedRdns = connectors.map((c) => c.rdns).filter(Boolean).join(',')
  const isStarted = useIsStarted()
  const featuredIds = isStarted ? (widget.config.featuredWalletIds?.join(',') ?? '') : ''
  // The registry is asked once the installed wallets are known, so a wallet never shows twice (installed and listed).
  // Without a registry there is nothing to wait for (nor a render more once the wallets are known).
  const [areWalletsListed, setWalletsListed] = useState(false)
  const hasList = list !== undefined
  useEffect(() => {
    if (!hasList) return
    let isCurrent = true
    void widget.ready().then(() => isCurrent && setWalletsListed(true), () => {})
    return () => void (isCurrent = false)
  }, [widget, hasList])
  useEffect(() => {
    if (!areWalletsListed) return
    const ids = (joined: string) => (joined ? joined.split(',') : [])
    void list?.loadConnectList({ recentIds: ids(recentIds), featuredIds: ids(featuredIds), installedRdns: ids(installedRdns) })
  }, [list, areWalletsListed, recentIds, featuredIds, installedRdns])
  const arranged = arrangeConnectors(connectors, recent)
  const hasAny = connectors.length + listed.recent.length + listed.featured.length + listed.recommended.length > 0
  return { connectors, ...arranged, listed, hasAny }
}

/** Without a registry there is no list to load. */
const noRegistry = { getState: () => noRegistryState, subscribe: () => () => {} }
const noRegistryState = { connectList: { recent: [] as WalletListingEntry[], featured: [] as WalletListingEntry[], recommended: [] as WalletListingEntry[] } }
