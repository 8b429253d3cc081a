import { useWidget, useWidgetState } from '../../react/WidgetProvider'
import { useTranslate } from '../useTranslate'
import { connectWallet, WalletIcon } from './WalletIcon'

/** The list of wallets found in the browser, recent ones first. */
export function ConnectView() {
  const widget = useWidget()
  const t = useTranslate()
  const connectors = useWidgetState((s) => s.connectors)
  const recent = useWidgetState((s) => s.recentWallets)
  const hasRegistry = widget.config.features.allWallets && widget.walletImageUrl('') !== undefined
  const allWallets = hasRegistry ? (
    <button type="button" className="item" onClick={() => widget.router.push('AllWallets')}>
      {t('connect.allWallets')}
    </button>
  ) : null
  if (connectors.length === 0) {
    return (
      <div className="actions">
        <p className="muted">{t('connect.noWallets')}</p>
        {allWallets}
      </div>
    )
  }
  return (
    <div className="actions">
    <ul className="list" aria-label={t('view.Connect')}>
      {connectors.map((connector) => (
        <li key={connector.id}>
          <button
            type="button"
            className="item"
            onClick={() => (connector.type === 'WALLET_CONNECT' ? widget.router.push('ConnectingWalletConnectBasic') : connectWallet(widget, connector))}
          >
            <WalletIcon src={connector.imageUrl} />
            <span>{connector.name}</span>
            <span className="tag">{connector.type === 'WALLET_CONNECT' ? t('connect.qrCode') : recent.some((w) => w.id === connector.id) ? t('connect.recent') : t('connect.installed')}</span>
          </button>
        </li>
      ))}
    </ul>
    {allWallets}
    </div>
  )
}
