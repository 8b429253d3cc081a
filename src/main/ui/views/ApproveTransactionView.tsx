import { shortenAddress } from '../../../shared/protocol/display'
import { useStoreSelector, useWidget, useWidgetState } from '../../react/WidgetProvider'
import { formatUsdValue, localizeDecimal } from '../i18n/formatNumber'
import { useLocale, useTranslate } from '../useTranslate'
import { NetworkIcon } from './NetworkIcon'
import { WalletSpinner } from './WalletIcon'

/** The transfer the send flow hands the wallet: its network by CAIP-2 id, and the fee in USD where it is priced so (EVM). */
type PendingTransaction = { to: string; amount: string; symbol: string; caipNetworkId: string; gasPriceInUSD?: number }

/** What the wallet is asked to sign, shown with the wallet's logo in a turning ring while the visitor decides in it. */
export function ApproveTransactionView() {
  const widget = useWidget()
  const t = useTranslate()
  const locale = useLocale()
  const pending = useStoreSelector(widget.router.store, (s) => s.data) as PendingTransaction | undefined
  const wallet = useWidgetState((s) => s.connectedWalletInfo)
  const logo = useWidgetState((s) => s.connectors.find((c) => c.id === s.connectorId && c.namespace === s.activeNamespace)?.imageUrl)
  if (!pending) return null
  const { caipNetworkId } = pending
  const network = widget.getNetworks().find((n) => n.caipNetworkId === caipNetworkId)
  return (
    <div className="actions">
      {wallet ? <WalletSpinner src={logo} name={wallet.name} state="waiting" /> : null}
      <p className="muted">{t('approve.prompt')}</p>
      <dl className="summary">
        <dt>{t('approve.amount')}</dt>
        <dd>{`${localizeDecimal(locale, pending.amount)} ${pending.symbol}`}</dd>
        <dt>{t('approve.to')}</dt>
        <dd title={pending.to}>{shortenAddress(pending.to)}</dd>
        <dt>{t('approve.network')}</dt>
        <dd>
          {network ? (
            <span className="with-icon">
              <NetworkIcon network={network} size={16} />
              {network.name}
            </span>
          ) : (
            caipNetworkId
          )}
        </dd>
        {pending.gasPriceInUSD !== undefined ? (
          <>
            <dt>{t('approve.fee')}</dt>
            <dd>{formatUsdValue(locale, pending.gasPriceInUSD)}</dd>
          </>
        ) : null}
      </dl>
      <p className="muted" role="status">
        {t('approve.waiting')}
      </p>
    </div>
  )
}
