import { createStore } from 'zustand/vanilla'
import { erc20Abi, getAddress, type Address, type Hex } from 'viem'
import type { PendingTransaction } from '../../shared/protocol/core/coreState'
import { formatUnits } from '../../shared/protocol/display'
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
  /** The last load failed (the service did not answer): the list says so and offers to try again. */
  hasFailed: boolean
  /**
   * Transfers this widget sent (tracked by the core) on the network in view, newest first, with their status as the
   * chain tells it: shown until the service's history has them, which it has only once they are mined and indexed.
   */
  trackedTransactions: Transaction[]
}

const initial = (): TransactionsState => ({
  transactions: [],
  transactionsByYear: {},
  lastNetworkInView: undefined,
  loading: false,
  empty: false,
  next: undefined,
  hasFailed: false,
  trackedTransactions: [],
})

export type WatchTrackedParameters = { accountAddress: string; caipNetworkId: string; nativeCurrency: { symbol: string; decimals: number } }

/** What a tracked transaction moved, read from the chain: undefined when it moved no value (a plain contract call). */
type TrackedTransfer = { from: string; to: string; amount: string; symbol: string; token?: string; fromName: string | null; toName: string | null } | undefined

type RpcTransaction = { from: Address; to: Address | null; value: Hex; input: Hex }

/** `transfer(address,uint256)` with its two 32-byte arguments. */
const ERC20_TRANSFER_SELECTOR = '0xa9059cbb'
const ERC20_TRANSFER_INPUT_LENGTH = 2 + 8 + 64 + 64

const trackedStatus: Record<PendingTransaction['status'], string> = {
  pending: 'pending',
  success: 'confirmed',
  reverted: 'failed',
  // The wait ended without a receipt: nothing is known yet, so it is not said to be done.
  timeout: 'pending',
}

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/**
 * Transaction history (SPEC §4, §5) through the core: pages with the cursor, drops all-spam NFT transactions and
 * other chains, groups by year and month. A failure shows 'Failed to fetch transactions', tracks
 * ERROR_FETCH_TRANSACTIONS and marks the list empty with no cursor (and `hasFailed`). While watched, the sends the
 * core tracks on the network in view are rows too, pending until their receipt says confirmed or failed.
 */
export function createHistoryController({ core, notifications, analytics, projectId }: { core: Core | undefined; notifications: Notifications; analytics: Analytics; projectId: string }) {
  const store = createStore<TransactionsState>()(initial)
  // Only the latest load writes the list: a slow answer for another network or account must not land over it.
  let latestLoad = 0

  const loadPage = async ({ account, caipNetworkId, cursor }: { account: string; caipNetworkId: string; cursor: string | undefined }) => {
    if (!core) throw new Error('no core')
    const page = await core.dataService.getTransactionHistory({ account, cursor, chainId: caipNetworkId })
    return { data: filterTransactions(page.data, caipNetworkId), next: page.next ?? undefined }
  }

  const setTransactions = (transactions: Transaction[], caipNetworkId: string, next: string | undefined) =>
    store.setState({
      transactions,
      transactionsByYear: groupTransactionsByYearMonth(transactions),
      lastNetworkInView: caipNetworkId,
      loading: false,
      empty: transactions.length === 0,
      next,
      hasFailed: false,
    })

  /** Loads the first page for the account and network, or the next page when `more`. */
  async function fetch({ accountAddress, caipNetworkId, more = false }: { accountAddress: string | undefined; caipNetworkId: string; more?: boolean }) {
    const account = requireAccountAddress(accountAddress)
    const state = store.getState()
    const isNewView = state.lastNetworkInView !== caipNetworkId
    const cursor = more && !isNewView ? state.next : undefined
    if (more && !cursor) return
    const load = ++latestLoad
    store.setState({ loading: true, hasFailed: false, ...(isNewView || !more ? { transactions: [], transactionsByYear: {} } : {}) })
    try {
      const page = await loadPage({ account, caipNetworkId, cursor })
      if (load !== latestLoad) return
      setTransactions([...(cursor ? store.getState().transactions : []), ...page.data], caipNetworkId, page.next)
    } catch {
      if (load !== latestLoad) return
      store.setState({ loading: false, empty: true, next: undefined, lastNetworkInView: caipNetworkId, hasFailed: true })
      notifications.show(errorNotice('FETCH_TRANSACTIONS_FAILED'), { variant: 'error' })
      void analytics.track('ERROR_FETCH_TRANSACTIONS', { address: account, projectId, cursor, isSmartAccount: false })
    }
  }

  /**
   * Adds what is new at the top of the list (after a tracked send settled, say), keeping every page already shown and
   * the cursor. It does nothing while a load is under way or another network is in view, and a failure keeps what is
   * shown and says nothing: no one asked for this load.
   */
  async function refresh({ accountAddress, caipNetworkId }: { accountAddress: string; caipNetworkId: string }) {
    const { loading, lastNetworkInView } = store.getState()
    if (loading || lastNetworkInView !== caipNetworkId) return
    const load = latestLoad
    try {
      const page = await loadPage({ account: accountAddress, caipNetworkId, cursor: undefined })
      if (load !== latestLoad) return
      const { transactions, next, hasFailed } = store.getState()
      const known = new Set(transactions.map((t) => t.id))
      const fresh = page.data.filter((t) => !known.has(t.id))
      if (fresh.length === 0 && !hasFailed) return
      setTransactions([...fresh, ...transactions], caipNetworkId, transactions.length === 0 ? page.next : next)
    } catch {
      // kept as it was
    }
  }

  /** What `hash` moved, from the chain: value or an ERC-20 transfer, with the token's symbol and decimals and the parties' names. */
  async function readTrackedTransfer(core: Core, caipNetworkId: string, hash: Hex, nativeCurrency: WatchTrackedParameters['nativeCurrency']): Promise<TrackedTransfer> {
    const tx = (await core.request({ caipNetworkId, method: 'eth_getTransactionByHash', params: [hash] })) as RpcTransaction | null
    if (!tx?.to) throw new Error(`transaction ${hash} is not known yet`)
    let moved: { to: string; amount: string; symbol: string; token?: string } | undefined
    if (tx.input.toLowerCase().startsWith(ERC20_TRANSFER_SELECTOR) && tx.input.length === ERC20_TRANSFER_INPUT_LENGTH) {
      const token = { address: tx.to, abi: erc20Abi }
      const [symbol, decimals] = await Promise.all([
        core.readContract({ caipNetworkId, ...token, functionName: 'symbol' }) as Promise<string>,
        core.readContract({ caipNetworkId, ...token, functionName: 'decimals' }) as Promise<number>,
      ])
      moved = { to: getAddress(`0x${tx.input.slice(34, 74)}`), amount: formatUnits(BigInt(`0x${tx.input.slice(74)}`), Number(decimals)), symbol: String(symbol), token: getAddress(tx.to) }
    } else if (BigInt(tx.value) > 0n) {
      moved = { to: getAddress(tx.to), amount: formatUnits(BigInt(tx.value), nativeCurrency.decimals), symbol: nativeCurrency.symbol }
    }
    if (!moved) return undefined
    const nameOf = (address: string) =>
      core.dataService.getIdentity({ address }).then(
        (identity) => identity.name,
        () => null,
      )
    const [fromName, toName] = await Promise.all([nameOf(tx.from), nameOf(moved.to)])
    // Checksummed, as the service's rows are: a node answers in lowercase.
    return { from: getAddress(tx.from), ...moved, fromName, toName }
  }

  /**
   * Shows the sends the core tracks for `accountAddress` on `caipNetworkId` as rows (`trackedTransactions`) until
   * stopped: what each moved is read once from the chain; its status follows the core's. When one settles, the first
   * page is loaded again, so the service's row takes over once it has it.
   * @example const stop = history.watchTracked({ accountAddress, caipNetworkId, nativeCurrency }); … stop()
   */
  function watchTracked({ accountAddress, caipNetworkId, nativeCurrency }: WatchTrackedParameters): () => void {
    const chainId = caipNetworkId.startsWith('eip155:') ? Number(caipNetworkId.slice('eip155:'.length)) : Number.NaN
    if (!core || !Number.isSafeInteger(chainId)) return () => {}
    const activeCore = core
    // By hash; only hashes the core still tracks are kept, so this is bounded by PENDING_TRANSACTIONS_LIMIT.
    const transfers = new Map<Hex, Promise<TrackedTransfer>>()
    const lastStatus = new Map<Hex, PendingTransaction['status']>()
    let isStopped = false
    let latestSync = 0

    const transferOf = (hash: Hex) => {
      let read = transfers.get(hash)
      if (!read) {
        read = readTrackedTransfer(activeCore, caipNetworkId, hash, nativeCurrency)
        transfers.set(hash, read)
        // A failed read (the node does not know it yet, say) is tried again at the next change.
        read.catch(() => transfers.delete(hash))
      }
      return read.catch(() => undefined)
    }

    const toTransaction = (tracked: PendingTransaction, moved: NonNullable<TrackedTransfer>): Transaction | undefined => {
      const isFrom = sameAddress(moved.from, accountAddress)
      const isTo = sameAddress(moved.to, accountAddress)
      if (!isFrom && !isTo) return undefined
      return {
        id: `tracked:${tracked.hash}`,
        metadata: {
          operationType: isFrom ? 'send' : 'receive',
          hash: tracked.hash,
          minedAt: new Date(tracked.addedAt).toISOString(),
          sentFrom: moved.from,
          sentTo: moved.to,
          sentFromName: moved.fromName,
          sentToName: moved.toName,
          status: trackedStatus[tracked.status],
          chain: caipNetworkId,
        },
        transfers: [{ fungible_info: { symbol: moved.symbol, implementations: moved.token ? [{ address: moved.token }] : [] }, direction: isFrom && isTo ? 'self' : isFrom ? 'out' : 'in', quantity: { numeric: moved.amount } }],
      }
    }

    const sync = async (pending: Record<string, PendingTransaction>) => {
      const sync = ++latestSync
      const tracked = Object.values(pending).filter((t) => t.chainId === chainId)
      for (const hash of transfers.keys()) if (!pending[hash]) transfers.delete(hash)
      const hasSettled = tracked.some((t) => lastStatus.get(t.hash) === 'pending' && t.status !== 'pending')
      lastStatus.clear()
      for (const t of tracked) lastStatus.set(t.hash, t.status)
      if (hasSettled) void refresh({ accountAddress, caipNetworkId })
      const rows = await Promise.all(tracked.map(async (t) => {
        const moved = await transferOf(t.hash)
        return moved && toTransaction(t, moved)
      }))
      if (isStopped || sync !== latestSync) return
      store.setState({ trackedTransactions: rows.filter((row) => row !== undefined).sort((a, b) => Date.parse(b.metadata.minedAt) - Date.parse(a.metadata.minedAt)) })
    }

    store.setState({ trackedTransactions: [] })
    void sync(activeCore.store.getState().pendingTransactions)
    const unsubscribe = activeCore.store.subscribe((state, previous) => {
      if (state.pendingTransactions !== previous.pendingTransactions) void sync(state.pendingTransactions)
    })
    return () => {
      isStopped = true
      unsubscribe()
      transfers.clear()
    }
  }

  return {
    store,
    reset: () => store.setState(initial()),
    fetch,
    refresh,
    watchTracked,
  }
}

export type HistoryController = ReturnType<typeof createHistoryController>
