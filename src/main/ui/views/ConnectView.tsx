import { hasWalletRegistry, useConnectWallets } from '../../react/headless/useConnectWallets'
import { useStoreSelector, useWidget, useWidgetState } from '../../react/WidgetProvider'
import { getFeatures } from '../../widget/features'
import { useTranslate } from '../useTranslate'
import { isRecentEntry, memberFor, type WalletEntry } from './groupConnectors'
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
  const families = Object.keys(useWidgetState((s) => s.namespaces))
  const activeNamespace = useWidgetState((s) => s.activeNamespace)
  const recent = useWidgetState((s) => s.recentWallets)
  const hasRegistry = hasWalletRegistry(widget, family)
  const { walletConnect, recentInstalled, otherInstalled, listed, hasAny } = useConnectWallets(hasRegistry ? getFeatures(widget).wallets : undefined, family)

  const isRecent = (entry: WalletEntry) => isRecentEntry(entry, recent)
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
  return (
    <div className="actions">
      {hasAny ? (
        <ul className="list" aria-label={t('view.Connect')}>
          {walletConnect.map(connectorItem)}
          {recentInstalled.map(connectorItem)}
          {listed.recent.map((wallet) => (
            <li key={wallet.id}>
              <RegistryWalletItem wallet={wallet} tag={t('connect.recent')} />
            </li>
          ))}
          {otherInstalled.map(connectorItem)}
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
