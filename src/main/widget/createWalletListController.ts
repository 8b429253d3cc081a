import { createStore } from 'zustand/vanilla'
import { WALLETS_PER_PAGE, WALLET_IMAGES_PREFETCHED, WALLET_SEARCH_MAX_RESULTS, WALLET_SEARCH_MIN_WAIT_MS } from '../../shared/protocol/constants'
import type { WalletListingEntry } from '../../shared/protocol/schemas/entities'
import type { Core } from '../core/createCore'

export type WalletListState = { wallets: WalletListingEntry[]; count: number; page: number; search: string; loading: boolean; error: string | undefined }

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
  const store = createStore<WalletListState>()(() => ({ wallets: [], count: 0, page: 0, search: '', loading: false, error: undefined }))
  let request = 0
  const prefetch = (wallets: WalletListingEntry[]) => {
    for (const wallet of wallets.slice(0, WALLET_IMAGES_PREFETCHED)) {
      const url = wallet.image_id ? imageUrl(wallet.image_id) : undefined
      if (url) prefetchImage(url)
    }
  }
  return {
    store,
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
        if (seq === request) store.setState({ loading: false, error: (error as { shortMessage?: string }).shortMessage ?? 'Something went wrong' })
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
        if (seq === request) store.setState({ loading: false, error: (error as { shortMessage?: string }).shortMessage ?? 'Something went wrong' })
      }
    },
  }
}

export type WalletListController = ReturnType<typeof createWalletListController>
