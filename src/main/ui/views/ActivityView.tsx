import { useEffect, useId, useMemo, useState } from 'react'
import { useAccount, useNetwork } from '../../react/hooks'
import { useStoreSelector, useWidget, useWidgetState } from '../../react/WidgetProvider'
import { getFeatures } from '../../widget/features'
import { useLocale, useTranslate } from '../useTranslate'
import { ActivityRow } from './ActivityRow'
import { daysAgo, groupRowsByDay, toActivityRow, type ActivityRow as Row } from './activityRows'

/** How often relative times ("2 minutes ago") are worded again while the list is open. */
const RELATIVE_TIME_REFRESH_MS = 30_000

/**
 * The time now, read again every `intervalMs` while mounted. A row added in between is at most that much ahead of
 * it, which ActivityRow reads as now.
 */
function useNow(intervalMs: number) {
  const [nowMs, setNowMs] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNowMs(Date.now()), intervalMs)
    return () => clearInterval(timer)
  }, [intervalMs])
  return nowMs
}

function DayGroup({ dayStartMs, rows, nowMs, explorer }: { dayStartMs: number; rows: Row[]; nowMs: number; explorer: { name: string; url: string } | undefined }) {
  const t = useTranslate()
  const locale = useLocale()
  const headingId = useId()
  const days = daysAgo(dayStartMs, nowMs)
  const sameYear = new Date(dayStartMs).getFullYear() === new Date(nowMs).getFullYear()
  const label =
    days === 0 ? t('activity.today') : days === 1 ? t('activity.yesterday') : new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', ...(sameYear ? {} : { year: 'numeric' }) }).format(dayStartMs)
  return (
    <section className="activity-day" aria-labelledby={headingId}>
      <h3 id={headingId}>{label}</h3>
      <ul className="list">
        {rows.map((row) => (
          <ActivityRow key={row.id} row={row} nowMs={nowMs} explorer={explorer} />
        ))}
      </ul>
    </section>
  )
}

/**
 * The account's transfers on the network in view, newest first and grouped by day (Today, Yesterday, then dates):
 * the service's history, with this widget's own sends on top until the service has them. A load that failed, and a
 * list with nothing in it, each say so in a sentence with a way to try again.
 */
export function ActivityView() {
  const widget = useWidget()
  const t = useTranslate()
  const { address } = useAccount()
  const { network } = useNetwork()
  const caipNetworkId = useWidgetState((s) => s.activeCaipNetworkId)
  const { history: historyController } = getFeatures(widget)
  const history = useStoreSelector(historyController.store, (s) => s)
  const { symbol, decimals } = network.nativeCurrency
  const nowMs = useNow(RELATIVE_TIME_REFRESH_MS)

  const load = (more = false) => void historyController.fetch({ accountAddress: address, caipNetworkId, more }).catch(() => {})
  useEffect(() => {
    void historyController.fetch({ accountAddress: address, caipNetworkId }).catch(() => {})
  }, [historyController, address, caipNetworkId])
  useEffect(
    () => (address ? historyController.watchTracked({ accountAddress: address, caipNetworkId, nativeCurrency: { symbol, decimals } }) : undefined),
    [historyController, address, caipNetworkId, symbol, decimals],
  )

  const rows = useMemo(() => {
    if (!address) return []
    const known = new Set(history.transactions.map((tx) => tx.metadata.hash.toLowerCase()))
    const tracked = history.trackedTransactions.filter((tx) => !known.has(tx.metadata.hash.toLowerCase()))
    return [...tracked, ...history.transactions].map((tx) => toActivityRow(tx, address)).filter((row) => row !== undefined)
  }, [address, history.transactions, history.trackedTransactions])
  const explorer = network.blockExplorers?.default

  if (history.loading && rows.length === 0) return <p className="muted">{t('activity.loading')}</p>
  return (
    <div className="actions">
      {history.hasFailed ? (
        <div className="activity-state">
          <p>{t('activity.failed')}</p>
          <button type="button" className="button" onClick={() => load()}>
            {t('activity.retry')}
          </button>
        </div>
      ) : rows.length === 0 ? (
        <div className="activity-state">
          <p>{t('activity.empty')}</p>
          <p className="muted">{t('activity.emptyHint', { network: network.name })}</p>
          <button type="button" className="button" data-variant="account" onClick={() => load()}>
            {t('activity.refresh')}
          </button>
        </div>
      ) : null}
      {groupRowsByDay(rows).map((group) => (
        <DayGroup key={group.dayStartMs} dayStartMs={group.dayStartMs} rows={group.rows} nowMs={nowMs} explorer={explorer} />
      ))}
      {history.next ? (
        <button type="button" className="item" disabled={history.loading} onClick={() => load(true)}>
          {t('activity.more')}
        </button>
      ) : null}
    </div>
  )
}
