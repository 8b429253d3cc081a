import { shortenAddress } from '../../../shared/protocol/display'
import { useStoreSelector, useWidget } from '../../react/WidgetProvider'
import { formatUsdValue, localizeDecimal } from '../i18n/formatNumber'
import { useLocale, useTranslate } from '../useTranslate'

/** An EVM send names its chain id, a Solana one its CAIP-2 cluster id. */
type PendingTransaction = { to: string; amount: string; symbol: string; chainId?: number; caipNetworkId?: string; gasPriceInUSD?: number }

/** What the wallet is asked to sign, shown while the visitor decides in the wallet (on this device or a phone). */
export function ApproveTransactionView() {
  const widget = useWidget()
  const t = useTranslate()
  const locale = useLocale()
  const pending = useStoreSelector(widget.router.store, (s) => s.data) as PendingTransaction | undefined
  if (!pending) return null
  const caipNetworkId = pending.caipNetworkId ?? `eip155:${pending.chainId}`
  const network = widget.getNetworks().find((n) => n.caipNetworkId === caipNetworkId)
  return (
    <div className="actions">
      <p className="muted">{t('approve.prompt')}</p>
      <dl className="summary">
        <dt>{t('approve.amount')}</dt>
        <dd>{`${localizeDecimal(locale, pending.amount)} ${pending.symbol}`}</dd>
        <dt>{t('approve.to')}</dt>
        <dd title={pending.to}>{shortenAddress(pending.to)}</dd>
        <dt>{t('approve.network')}</dt>
        <dd>{network?.name ?? caipNetworkId}</dd>
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
