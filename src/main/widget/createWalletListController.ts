import { createStore } from 'zustand/vanilla'
import { RECOMMENDED_WALLETS_COUNT, WALLETS_PER_PAGE, WALLET_IMAGES_PREFETCHED, WALLET_SEARCH_MAX_RESULTS, WALLET_SEARCH_MIN_WAIT_MS } from '../../shared/protocol/constants'
import type { WalletListingEntry } from '../../shared/protocol/schemas/entities'
import type { Core } from '../core/createCore'
import { toErrorNotice, type ErrorNotice } from '../state/errorNotice'

export type WalletListState = {
  wallets: WalletListingEntry[]
  count: number
  page: number
  search: string
  loading: boolean
  /** Why the registry could not be read (the view says it in the widget's locale). */
  error: ErrorNotice | undefined
  /** The registry wallets of the Connect view (SPEC §9 order: recent, then featured, then recommended), none installed. */
  connectList: { recent: WalletListingEntry[]; featured: WalletListingEntry[]; recommended: WalletListingEntry[] }
}

/**
 * The wallet registry as the AllWallets view pages through it (SPEC §9): 40 a page, a search of at most 100 results
 * that always takes at least 300 ms (no flicker), the first 20 images prefetched.
 */
export function createWalletListController({ core, imageUrl, prefetchImage = (url) => void Object.assign(new Image(), { src: url }), sleep = (ms) => new Promise((r) => setTimeout(r, ms)) }: {
  core: Core | undefined
  imageUrl: (imageId: string) => string | undefined
  prefetchImage?: (url: string) => void
  sleep?: (ms: number) => Promise<unknown>
}) {
  const store = createStore<WalletListState>()(() => ({ wallets: [], count: 0, page: 0, search: '', loading: false, error: undefined, connectList: { recent: [], featured: [], recommended: [] } }))
  let request = 0
  const prefetch = (wallets: WalletListingEntry[]) => {
    for (const wallet of wallets.slice(0, WALLET_IMAGES_PREFETCHED)) {
      const url = wallet.image_id ? imageUrl(wallet.image_id) : undefined
      if (url) prefetchImage(url)
    }
  }
  return {
    store,
    /**
     * The registry wallets the Connect view lists below the installed ones: the visitor's recent wallets, the site's
     * featured ones (as many as it names), and 4 recommended ones; a wallet installed in this browser is left to its
     * connector. A registry that does not answer leaves the lists empty: the Connect view still works.
     */
    async loadConnectList({ recentIds, featuredIds, installedRdns }: { recentIds: readonly string[]; featuredIds: readonly string[]; installedRdns: readonly string[] }) {
      if (!core) return
      const isInstalled = (wallet: WalletListingEntry) => !!wallet.rdns && installedRdns.includes(wallet.rdns)
      const listed = [...new Set([...recentIds, ...featuredIds])]
      try {
        const [picked, first] = await Promise.all([
          listed.length > 0 ? core.dataService.getWallets({ page: 1, entries: listed.length, include: listed }) : Promise.resolve({ data: [] as WalletListingEntry[] }),
          core.dataService.getWallets({ page: 1, entries: RECOMMENDED_WALLETS_COUNT + installedRdns.length, exclude: listed }),
        ])
        const byId = (ids: readonly string[]) => ids.flatMap((id) => picked.data.filter((w) => w.id === id && !isInstalled(w)))
        const recent = byId(recentIds)
        const featured = byId(featuredIds).filter((w) => !recentIds.includes(w.id))
        const recommended = first.data.filter((w) => !isInstalled(w)).slice(0, RECOMMENDED_WALLETS_COUNT)
        prefetch([...recent, ...featured, ...recommended])
        store.setState({ connectList: { recent, featured, recommended } })
      } catch {
        store.setState({ connectList: { recent: [], featured: [], recommended: [] } })
      }
    },
    /** The next page of the full list (infinite scroll). */
    async loadMore() {
      const { page, wallets, count, loading, search } = store.getState()
      if (!core || loading || search || (page > 0 && wallets.length >= count)) return
      const seq = ++request
      store.setState({ loading: true })
      try {
        const result = await core.dataService.getWallets({ page: page + 1, entries: WALLETS_PER_PAGE })
        if (seq !== request) return
        if (page === 0) prefetch(result.data)
        store.setState({ wallets: [...wallets, ...result.data], count: result.count, page: page + 1, loading: false, error: undefined })
      } catch (error) {
        if (seq === request) store.setState({ loading: false, error: toErrorNotice(error) })
      }
    },
    /** Searches by name; an empty search goes back to the paged list. */
    async search(text: string) {
      const seq = ++request
      store.setState({ search: text, loading: true, wallets: [], page: 0, count: 0 })
      if (!core) return
      if (!text) {
        store.setState({ loading: false })
        return this.loadMore()
      }
      try {
        const [result] = await Promise.all([core.dataService.getWallets({ page: 1, entries: WALLET_SEARCH_MAX_RESULTS, search: text }), sleep(WALLET_SEARCH_MIN_WAIT_MS)])
        if (seq === request) store.setState({ wallets: result.data, count: result.count, page: 1, loading: false, error: undefined })
      } catch (error) {
        if (seq === request) store.setState({ loading: false, error: toErrorNotice(error) })
      }
    },
  }
}

export type WalletListController = ReturnType<typeof createWalletListController>
