import { useEffect, useId, useState } from 'react'
import { useActivityFeed } from '../../react/headless/useActivityFeed'
import { useNetwork } from '../../react/hooks'
import { useWidget } from '../../react/WidgetProvider'
import { getFeatures } from '../../widget/features'
import { useLocale, useTranslate } from '../useTranslate'
import { ActivityRow } from './ActivityRow'
import { activityRowsOf, daysAgo, groupRowsByDay, type ActivityRow as Row } from './activityRows'

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
  const { network } = useNetwork()
  const { history: historyController } = getFeatures(widget)
  const { state: history, rows, load: reload } = useActivityFeed(historyController, activityRowsOf)
  const nowMs = useNow(RELATIVE_TIME_REFRESH_MS)
  const load = (more = false) => void reload(more)
  const explorer = network.blockExplorers?.default

  if (!history || (history.loading && rows.length === 0)) return <p className="muted">{t('activity.loading')}</p>
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
