import { describe, expect, it, vi } from 'vitest'
import type { Core } from '../core/createCore'
import { createWalletListController } from './createWalletListController'

const wallets = (n: number, offset = 0) => Array.from({ length: n }, (_, i) => ({ id: `w${i + offset}`, name: `Wallet ${i + offset}`, image_id: `img${i + offset}` }))

describe('wallet list', () => {
  it('pages 40 at a time and prefetches the first 20 images', async () => {
    const getWallets = vi.fn(async ({ page }: { page: number }) => ({ count: 50, data: page === 1 ? wallets(40) : wallets(10, 40) }))
    const prefetched: string[] = []
    const list = createWalletListController({ core: { dataService: { getWallets } } as unknown as Core, imageUrl: (id) => `https://registry/${id}`, prefetchImage: (url) => void prefetched.push(url) })
    await list.loadMore()
    await list.loadMore()
    await list.loadMore()
    expect(getWallets.mock.calls.map((c) => c[0])).toEqual([{ page: 1, entries: 40 }, { page: 2, entries: 40 }])
    expect(list.store.getState().wallets).toHaveLength(50)
    expect(prefetched).toHaveLength(20)
    expect(prefetched[0]).toBe('https://registry/img0')
  })

  it('searches at most 100 results and takes at least 300 ms', async () => {
    const getWallets = vi.fn(async () => ({ count: 1, data: wallets(1) }))
    const sleeps: number[] = []
    const list = createWalletListController({ core: { dataService: { getWallets } } as unknown as Core, imageUrl: () => undefined, sleep: async (ms) => void sleeps.push(ms) })
    await list.search('wal')
    expect(getWallets).toHaveBeenCalledWith({ page: 1, entries: 100, search: 'wal' })
    expect(sleeps).toEqual([300])
    expect(list.store.getState()).toMatchObject({ search: 'wal', count: 1, loading: false })
  })

  it('keeps only the answer to the latest search', async () => {
    let resolveFirst!: (v: unknown) => void
    const getWallets = vi
      .fn()
      .mockImplementationOnce(() => new Promise((r) => (resolveFirst = r)))
      .mockResolvedValueOnce({ count: 1, data: wallets(1, 7) })
    const list = createWalletListController({ core: { dataService: { getWallets } } as unknown as Core, imageUrl: () => undefined, sleep: async () => {} })
    const first = list.search('a')
    await list.search('ab')
    resolveFirst({ count: 2, data: wallets(2) })
    await first
    expect(list.store.getState().wallets.map((w) => w.id)).toEqual(['w7'])
  })

  it('lists recent, then featured (as many as named), then 4 recommended registry wallets, leaving installed ones to their connector', async () => {
    const registry = [...wallets(8), { id: 'mm', name: 'MetaMask', image_id: 'mm', rdns: 'io.metamask' }]
    const getWallets = vi.fn(async ({ entries, include, exclude }: { page: number; entries: number; include?: string[]; exclude?: string[] }) => {
      const data = registry.filter((w) => (!include || include.includes(w.id)) && !exclude?.includes(w.id))
      return { count: data.length, data: data.slice(0, entries) }
    })
    const list = createWalletListController({ core: { dataService: { getWallets } } as unknown as Core, imageUrl: () => undefined })
    await list.loadConnectList({ recentIds: ['w5', 'mm'], featuredIds: ['w7', 'w5', 'w6'], installedRdns: ['io.metamask'] })
    const { recent, featured, recommended } = list.store.getState().connectList
    expect(recent.map((w) => w.id)).toEqual(['w5'])
    expect(featured.map((w) => w.id)).toEqual(['w7', 'w6'])
    expect(recommended.map((w) => w.id)).toEqual(['w0', 'w1', 'w2', 'w3'])
  })

  it('keeps the Connect view usable when the registry is down', async () => {
    const list = createWalletListController({ core: { dataService: { getWallets: vi.fn().mockRejectedValue(new Error('down')) } } as unknown as Core, imageUrl: () => undefined })
    await list.loadConnectList({ recentIds: [], featuredIds: ['w1'], installedRdns: [] })
    expect(list.store.getState().connectList).toEqual({ recent: [], featured: [], recommended: [] })
  })
})
