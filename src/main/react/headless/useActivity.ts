import type { ActivityRow } from '../../ui/views/activityRows'
import { useIsStarted } from '../WidgetProvider'
import { loadActivity } from './loadFeatures'
import { useActivityFeed } from './useActivityFeed'
import { useLoaded } from './useLoaded'

export type { ActivityRow } from '../../ui/views/activityRows'

export type UseActivityReturnType = {
  /** The account's transfers on the active network, newest first (this widget's own sends on top until the service has them). */
  transactions: ActivityRow[]
  /** The same, by day: each day's start (local time, ms) and its rows. */
  days: { dayStartMs: number; rows: ActivityRow[] }[]
  isLoading: boolean
  /** The last read failed (the service did not answer): offer `refresh`. */
  hasFailed: boolean
  /** There is an older page: `loadMore()`. */
  hasMore: boolean
  refresh: () => Promise<void>
  loadMore: () => Promise<void>
}

/**
 * The connected account's activity as the Activity view shows it: transfers in and out with their status.
 * @example const { transactions } = useActivity(); transactions.map((tx) => <li key={tx.id}>{tx.direction} {tx.amount} {tx.symbol} {tx.status}</li>)
 */
export function useActivity(): UseActivityReturnType {
  const isStarted = useIsStarted()
  const loaded = useLoaded(isStarted ? 'activity' : undefined, loadActivity)
  const { state, rows, load } = useActivityFeed(loaded?.value?.history, loaded?.value?.activityRowsOf)
  const groupRowsByDay = loaded?.value?.groupRowsByDay
  return {
    transactions: rows,
    days: groupRowsByDay ? groupRowsByDay(rows) : [],
    isLoading: !loaded?.error && (!state || state.loading),
    hasFailed: !!loaded?.error || !!state?.hasFailed,
    hasMore: !!state?.next,
    refresh: () => load(),
    loadMore: () => load(true),
  }
}
