import { createStore } from 'zustand/vanilla'
import type { Transaction } from '../../shared/protocol/schemas/entities'
import { filterTransactions, groupTransactionsByYearMonth, requireAccountAddress } from '../../shared/protocol/transactions'
import type { Core } from '../core/createCore'
import type { Notifications } from '../state/createNotifications'
import { errorNotice } from '../state/errorNotice'
import type { Analytics } from './createAnalytics'

/** The transactions state (SPEC §3). */
export type TransactionsState = {
  transactions: Transaction[]
  transactionsByYear: Record<number, Record<number, Transaction[]>>
  lastNetworkInView: string | undefined
  loading: boolean
  empty: boolean
  next: string | undefined
}

const initial = (): TransactionsState => ({ transactions: [], transactionsByYear: {}, lastNetworkInView: undefined, loading: false, empty: false, next: undefined })

/**
 * Transaction history (SPEC §4, §5) through the core: pages with the cursor, drops all-spam NFT transactions and
 * other chains, groups by year and month. A failure shows 'Failed to fetch transactions', tracks
 * ERROR_FETCH_TRANSACTIONS and marks the list empty with no cursor.
 */
export function createHistoryController({ core, notifications, analytics, projectId }: { core: Core | undefined; notifications: Notifications; analytics: Analytics; projectId: string }) {
  const store = createStore<TransactionsState>()(initial)
  return {
    store,
    reset: () => store.setState(initial()),
    /** Loads the first page for the account and network, or the next page when `more`. */
    async fetch({ accountAddress, caipNetworkId, more = false }: { accountAddress: string | undefined; caipNetworkId: string; more?: boolean }) {
      const account = requireAccountAddress(accountAddress)
      const state = store.getState()
      const isNewView = state.lastNetworkInView !== caipNetworkId
      const cursor = more && !isNewView ? state.next : undefined
      if (more && !cursor) return
      store.setState({ loading: true, ...(isNewView || !more ? { transactions: [], transactionsByYear: {} } : {}) })
      try {
        if (!core) throw new Error('no core')
        const page = await core.dataService.getTransactionHistory({ account, cursor, chainId: caipNetworkId })
        const transactions = [...(cursor ? store.getState().transactions : []), ...filterTransactions(page.data, caipNetworkId)]
        store.setState({
          transactions,
          transactionsByYear: groupTransactionsByYearMonth(transactions),
          lastNetworkInView: caipNetworkId,
          loading: false,
          empty: transactions.length === 0,
          next: page.next ?? undefined,
        })
      } catch {
        store.setState({ loading: false, empty: true, next: undefined, lastNetworkInView: caipNetworkId })
        notifications.show(errorNotice('FETCH_TRANSACTIONS_FAILED'), { variant: 'error' })
        void analytics.track('ERROR_FETCH_TRANSACTIONS', { address: account, projectId, cursor, isSmartAccount: false })
      }
    },
  }
}

export type HistoryController = ReturnType<typeof createHistoryController>
