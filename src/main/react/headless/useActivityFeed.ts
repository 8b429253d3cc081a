import { useEffect, useMemo } from 'react'
import type { ActivityRow } from '../../ui/views/activityRows'
import type { HistoryController, TransactionsState } from '../../widget/createHistoryController'
import { useNetwork } from '../hooks'
import { useStoreSelector, useWidgetState } from '../WidgetProvider'

/** How rows are made of the history (activityRows.ts: the Activity view's, loaded with it). */
export type ActivityRowsOf = (history: Pick<TransactionsState, 'transactions' | 'trackedTransactions'>, address: string | undefined) => ActivityRow[]

const noStore = { getState: () => undefined, subscribe: () => () => {} }
const noRows: ActivityRow[] = []

/**
 * The account's transfers on the network in view, as the Activity view and `useActivity` show them: the history read
 * for the account and network (again when either changes), this widget's own sends followed until the service has
 * them, and `load(more)` to read again or the next page.
 */
export function useActivityFeed(history: HistoryController | undefined, rowsOf: ActivityRowsOf | undefined) {
  const address = useWidgetState((s) => s.address)
  const caipNetworkId = useWidgetState((s) => s.activeCaipNetworkId)
  const { network } = useNetwork()
  const { symbol, decimals } = network.nativeCurrency
  const state = useStoreSelector((history?.store ?? noStore) as typeof noStore, () => history?.store.getState() as TransactionsState | undefined)
  useEffect(() => {
    void history?.fetch({ accountAddress: address, caipNetworkId }).catch(() => {})
  }, [history, address, caipNetworkId])
  useEffect(
    () => (history && address ? history.watchTracked({ accountAddress: address, caipNetworkId, nativeCurrency: { symbol, decimals } }) : undefined),
    [history, address, caipNetworkId, symbol, decimals],
  )
  const transactions = state?.transactions
  const trackedTransactions = state?.trackedTransactions
  const rows = useMemo(
    () => (transactions && trackedTransactions && rowsOf ? rowsOf({ transactions, trackedTransactions }, address) : noRows),
    [rowsOf, address, transactions, trackedTransactions],
  )
  const load = async (more = false) => void (await history?.fetch({ accountAddress: address, caipNetworkId, more }).catch(() => {}))
  return { state, rows, load }
}
