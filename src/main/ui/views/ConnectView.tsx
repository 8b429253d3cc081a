import { useEffect, useState } from 'react'
import { useStoreSelector, useWidget, useWidgetState } from '../../react/WidgetProvider'
import type { WalletListState } from '../../widget/createWalletListController'
import { getFeatures } from '../../widget/features'
import { useTranslate } from '../useTranslate'
import { groupConnectors, memberFor, type WalletEntry } from './groupConnectors'
import { RegistryWalletItem } from './RegistryWalletItem'
import { Glyph } from '../Modal/Glyph'
import { connectWallet, WalletIcon } from './WalletIcon'
import { AuthLoginOptions } from './EmailLoginViews'

/**
 * The ways to connect, in the order of SPEC §9: WalletConnect, recent wallets, installed wallets, the site's featured
 * wallets, recommended ones from the registry; then e-mail and social login (when configured); then All Wallets.
 */
export function ConnectView() {
  const widget = useWidget()
  const t = useTranslate()
  const family = useStoreSelector(widget.modal.store, (s) => s.namespace)
  const allConnectors = useWidgetState((s) => s.connectors)
  const connectors = family ? allConnectors.filter((c) => c.namespace === family) : allConnectors
  const families = Object.keys(useWidgetState((s) => s.namespaces))
  const activeNamespace = useWidgetState((s) => s.activeNamespace)
  const recent = useWidgetState((s) => s.recentWallets)
  // The registry lists EVM and WalletConnect wallets (for now).
  const hasRegistry = widget.config.features.allWallets && widget.walletImageUrl('') !== undefined && (!family || family === 'eip155')
  const list = hasRegistry ? getFeatures(widget).wallets : undefined
  const listed = useStoreSelector<Pick<WalletListState, 'connectList'>, WalletListState['connectList']>(list?.store ?? noRegistry, (s) => s.connectList)
  const recentIds = recent.map((w) => w.id).join(',')
  const installedRdns = connectors.map((c) => c.rdns).filter(Boolean).join(',')
  const featuredIds = widget.config.featuredWalletIds?.join(',') ?? ''
  // The registry is asked once the installed wallets are known, so a wallet never shows twice (installed and listed).
  const [areWalletsListed, setWalletsListed] = useState(false)
  useEffect(() => {
    let isCurrent = true
    void widget.ready().then(() => isCurrent && setWalletsListed(true), () => {})
    return () => void (isCurrent = false)
  }, [widget])
  useEffect(() => {
    if (!areWalletsListed) return
    const ids = (joined: string) => (joined ? joined.split(',') : [])
    void list?.loadConnectList({ recentIds: ids(recentIds), featuredIds: ids(featuredIds), installedRdns: ids(installedRdns) })
  }, [list, areWalletsListed, recentIds, featuredIds, installedRdns])

  const isRecent = (entry: WalletEntry) => entry.members.some((member) => recent.some((w) => w.id === member.id))
  const connectorItem = (entry: WalletEntry) => {
    const isWalletConnect = entry.members[0]!.type === 'WALLET_CONNECT'
    // WalletConnect spans families by itself; a wallet's tag names the families it offers.
    const offered = families.length > 1 && !isWalletConnect ? `${entry.members.map((m) => t(`family.${m.namespace}`)).join(' · ')} · ` : ''
    return (
      <li key={entry.name}>
        <button
          type="button"
          className="item"
          onClick={() => (isWalletConnect ? widget.router.push('ConnectingWalletConnectBasic') : connectWallet(widget, memberFor(entry, activeNamespace)))}
        >
          {isWalletConnect && !entry.imageUrl ? <QrGlyph /> : <WalletIcon src={entry.imageUrl} name={entry.name} />}
          {/* The name, and under it how it connects (as RainbowKit shows "Recent"). */}
          <span className="row-text">
            <span className="row-label">{entry.name}</span>
            <span className="row-sub">
              {offered}
              {isWalletConnect ? t('connect.qrCode') : isRecent(entry) ? t('connect.recent') : t('connect.installed')}
            </span>
          </span>
        </button>
      </li>
    )
  }
  const walletConnect = groupConnectors(connectors.filter((c) => c.type === 'WALLET_CONNECT'))
  const installed = groupConnectors(connectors.filter((c) => c.type !== 'WALLET_CONNECT'))
  const hasAny = connectors.length + listed.recent.length + listed.featured.length + listed.recommended.length > 0
  return (
    <div className="actions">
      {hasAny ? (
        <ul className="list" aria-label={t('view.Connect')}>
          {walletConnect.map(connectorItem)}
          {installed.filter(isRecent).map(connectorItem)}
          {listed.recent.map((wallet) => (
            <li key={wallet.id}>
              <RegistryWalletItem wallet={wallet} tag={t('connect.recent')} />
            </li>
          ))}
          {installed.filter((c) => !isRecent(c)).map(connectorItem)}
          {[...listed.featured, ...listed.recommended].map((wallet) => (
            <li key={wallet.id}>
              <RegistryWalletItem wallet={wallet} />
            </li>
          ))}
        </ul>
      ) : widget.auth ? null : (
        <p className="muted">{t('connect.noWallets')}</p>
      )}
      {/* SPEC §2: wallets, then e-mail, then social (for the EVM family, whose accounts the login gives). */}
      {!family || family === 'eip155' ? <AuthLoginOptions /> : null}
      {hasRegistry ? (
        <button type="button" className="item row" onClick={() => widget.router.push('AllWallets')}>
          <span className="row-label">{t('connect.allWallets')}</span>
          <Glyph name="chevronRight" />
        </button>
      ) : null}
    </div>
  )
}

/** The WalletConnect entry's icon: a QR code in the theme's text colour. */
const QrGlyph = () => (
  <svg className="wallet-icon" aria-hidden="true" viewBox="0 0 28 28" width={28} height={28}>
    <path fill="none" stroke="currentColor" strokeWidth="2" d="M4 4h7v7H4zM17 4h7v7h-7zM4 17h7v7H4z" />
    <path fill="currentColor" d="M17 17h3v3h-3zM21 21h3v3h-3zM17 21h3v3h-3zM21 17h3v3h-3z" />
  </svg>
)

/** Without a registry there is no list to load. */
const noRegistry = { getState: () => noRegistryState, subscribe: () => () => {} }
const noRegistryState = { connectList: { recent: [], featured: [], recommended: [] } as WalletListState['connectList'] }
