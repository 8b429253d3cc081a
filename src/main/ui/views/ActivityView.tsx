import { useEffect } from 'react'
import { formatTokenQuantity } from '../../../shared/protocol/display'
import { useAccount } from '../../react/hooks'
import { useStoreSelector, useWidget, useWidgetState } from '../../react/WidgetProvider'
import { getFeatures } from '../../widget/features'
import { localizeDecimal } from '../i18n/formatNumber'
import { localizeRelativeTime } from '../i18n/formatRelativeTime'
import { useLocale, useTranslate } from '../useTranslate'

const monthName = (year: number, month: number, locale: string) =>
  new Date(Date.UTC(year, month - 1, 1)).toLocaleString(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' })

/** Transaction history, grouped by month, newest first. */
export function ActivityView() {
  const widget = useWidget()
  const t = useTranslate()
  const locale = useLocale()
  const { address } = useAccount()
  const caipNetworkId = useWidgetState((s) => s.activeCaipNetworkId)
  const { history: historyController } = getFeatures(widget)
  const history = useStoreSelector(historyController.store, (s) => s)
  useEffect(() => {
    void historyController.fetch({ accountAddress: address, caipNetworkId }).catch(() => {})
  }, [historyController, address, caipNetworkId])

  const years = Object.keys(history.transactionsByYear).map(Number).sort((a, b) => b - a)
  if (history.loading && history.transactions.length === 0) return <p className="muted">{t('activity.loading')}</p>
  if (history.empty) return <p className="muted">{t('activity.empty')}</p>
  return (
    <div className="actions">
      {years.flatMap((year) =>
        Object.keys(history.transactionsByYear[year]!)
          .map(Number)
          .sort((a, b) => b - a)
          .map((month) => (
            <section key={`${year}-${month}`} aria-label={monthName(year, month, locale)}>
              <h3 className="muted">{monthName(year, month, locale)}</h3>
              <ul className="list">
                {history.transactionsByYear[year]![month]!.map((tx) => {
                  const transfer = tx.transfers[0]
                  const symbol = transfer?.fungible_info?.symbol ?? ''
                  const amount = transfer ? localizeDecimal(locale, formatTokenQuantity(transfer.quantity.numeric)) : ''
                  return (
                    <li key={tx.id} className="item">
                      <span>{t(tx.metadata.operationType === 'send' ? 'activity.sent' : 'activity.received', { amount, symbol })}</span>
                      <span className="tag">{localizeRelativeTime(locale, Date.parse(tx.metadata.minedAt), Date.now())}</span>
                    </li>
                  )
                })}
              </ul>
            </section>
          )),
      )}
      {history.next ? (
        <button type="button" className="item" onClick={() => void historyController.fetch({ accountAddress: address, caipNetworkId, more: true }).catch(() => {})}>
          {t('activity.more')}
        </button>
      ) : null}
    </div>
  )
}
