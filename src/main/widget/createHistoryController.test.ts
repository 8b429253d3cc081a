import { describe, expect, it, vi } from 'vitest'
import { createStore } from 'zustand/vanilla'
import { encodeFunctionData, erc20Abi, parseEther, parseUnits, toHex, type Hex } from 'viem'
import { initialCoreState, type CoreState, type PendingTransaction } from '../../shared/protocol/core/coreState'
import type { Transaction } from '../../shared/protocol/schemas/entities'
import type { Core } from '../core/createCore'
import { createNotifications } from '../state/createNotifications'
import type { Analytics } from './createAnalytics'
import { createHistoryController } from './createHistoryController'

const me = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const bob = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const carol = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex
const ETH = { symbol: 'ETH', decimals: 18 }

const entry = (id: string, chain = 'eip155:31337', txHash = hash(Number(id))): Transaction => ({
  id,
  metadata: { operationType: 'send', hash: txHash, minedAt: '2026-11-01T00:00:00Z', sentFrom: me, sentTo: bob, status: 'confirmed', chain },
  transfers: [{ fungible_info: { symbol: 'ETH' }, quantity: { numeric: '1' } }],
})

const deferred = <T,>() => {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

/** A core with the parts history uses: the data service, chain reads, and the mirrored store's tracked transactions. */
function fakeCore({ transactions = {}, getTransactionHistory = vi.fn().mockResolvedValue({ data: [], next: null }), names = {} }: { transactions?: Record<string, { from: string; to: string | null; value: bigint; input?: Hex }>; getTransactionHistory?: ReturnType<typeof vi.fn>; names?: Record<string, string> } = {}) {
  const store = createStore<CoreState>()(() => initialCoreState())
  const request = vi.fn(async ({ method, params }: { method: string; params: [Hex] }) => {
    if (method !== 'eth_getTransactionByHash') throw new Error(`unexpected ${method}`)
    const tx = transactions[params[0]]
    // In lowercase, as a node answers; the rows show addresses checksummed.
    return tx ? { from: tx.from.toLowerCase(), to: tx.to?.toLowerCase() ?? null, value: toHex(tx.value), input: tx.input ?? '0x' } : null
  })
  const readContract = vi.fn(async ({ functionName }: { address: string; functionName: string }) => (functionName === 'symbol' ? 'TSR' : 6))
  const getIdentity = vi.fn(async ({ address }: { address: string }) => ({ name: names[address.toLowerCase()] ?? null, avatar: null }))
  const core = { store, request, readContract, dataService: { getTransactionHistory, getIdentity } } as unknown as Core
  const track = (tx: PendingTransaction) => store.setState((s) => ({ pendingTransactions: { ...s.pendingTransactions, [tx.hash]: tx } }))
  return { core, store, request, readContract, getTransactionHistory, getIdentity, track }
}

const controllerFor = (core: Core) => createHistoryController({ core, notifications: createNotifications(), analytics: { track: vi.fn() } as unknown as Analytics, projectId: 'p' })
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('history controller: loads', () => {
  it('keeps the latest load: a slow answer for the network left behind does not land over the one in view', async () => {
    const slow = deferred<{ data: Transaction[]; next: null }>()
    const getTransactionHistory = vi.fn().mockReturnValueOnce(slow.promise).mockResolvedValueOnce({ data: [entry('2', 'eip155:31338')], next: null })
    const { core } = fakeCore({ getTransactionHistory })
    const history = controllerFor(core)
    const first = history.fetch({ accountAddress: me, caipNetworkId: 'eip155:31337' })
    await history.fetch({ accountAddress: me, caipNetworkId: 'eip155:31338' })
    slow.resolve({ data: [entry('1')], next: null })
    await first
    expect(history.store.getState()).toMatchObject({ lastNetworkInView: 'eip155:31338', loading: false })
    expect(history.store.getState().transactions.map((t) => t.id)).toEqual(['2'])
  })

  it('says it failed until a retry succeeds', async () => {
    const getTransactionHistory = vi.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce({ data: [entry('1')], next: null })
    const history = controllerFor(fakeCore({ getTransactionHistory }).core)
    await history.fetch({ accountAddress: me, caipNetworkId: 'eip155:31337' })
    expect(history.store.getState()).toMatchObject({ hasFailed: true, empty: true, loading: false })
    await history.fetch({ accountAddress: me, caipNetworkId: 'eip155:31337' })
    expect(history.store.getState()).toMatchObject({ hasFailed: false, empty: false })
  })

  it('refresh adds what is new at the top and keeps the pages and the cursor already there', async () => {
    const getTransactionHistory = vi
      .fn()
      .mockResolvedValueOnce({ data: [entry('3'), entry('2')], next: 'c1' })
      .mockResolvedValueOnce({ data: [entry('1')], next: null })
      .mockResolvedValueOnce({ data: [entry('4'), entry('3')], next: 'c2' })
    const history = controllerFor(fakeCore({ getTransactionHistory }).core)
    await history.fetch({ accountAddress: me, caipNetworkId: 'eip155:31337' })
    await history.fetch({ accountAddress: me, caipNetworkId: 'eip155:31337', more: true })
    await history.refresh({ accountAddress: me, caipNetworkId: 'eip155:31337' })
    expect(history.store.getState().transactions.map((t) => t.id)).toEqual(['4', '3', '2', '1'])
    expect(history.store.getState().next).toBeUndefined()
    expect(getTransactionHistory.mock.calls.map((c) => c[0].cursor)).toEqual([undefined, 'c1', undefined])
  })

  it('refresh leaves a failed list as it is when the service still fails, without a second toast', async () => {
    const getTransactionHistory = vi.fn().mockRejectedValue(new Error('down'))
    const notifications = createNotifications()
    const show = vi.spyOn(notifications, 'show')
    const history = createHistoryController({ core: fakeCore({ getTransactionHistory }).core, notifications, analytics: { track: vi.fn() } as unknown as Analytics, projectId: 'p' })
    await history.fetch({ accountAddress: me, caipNetworkId: 'eip155:31337' })
    await history.refresh({ accountAddress: me, caipNetworkId: 'eip155:31337' })
    expect(history.store.getState()).toMatchObject({ hasFailed: true, loading: false })
    expect(show).toHaveBeenCalledTimes(1)
  })
})

describe('history controller: tracked sends', () => {
  const watch = (history: ReturnType<typeof controllerFor>, caipNetworkId = 'eip155:31337') => history.watchTracked({ accountAddress: me, caipNetworkId, nativeCurrency: ETH })

  it('shows a native send as pending with its amount and named receiver, then confirmed, and loads the history again', async () => {
    const fake = fakeCore({ transactions: { [hash(1)]: { from: me, to: bob, value: parseEther('0.25') } }, names: { [bob.toLowerCase()]: 'bob.tessera.id' } })
    const history = controllerFor(fake.core)
    await history.fetch({ accountAddress: me, caipNetworkId: 'eip155:31337' })
    const stop = watch(history)
    fake.track({ chainId: 31337, hash: hash(1), status: 'pending', addedAt: Date.parse('2026-11-02T10:00:00Z') })
    await vi.waitFor(() => expect(history.store.getState().trackedTransactions).toHaveLength(1))
    expect(history.store.getState().trackedTransactions[0]).toEqual({
      id: `tracked:${hash(1)}`,
      metadata: { operationType: 'send', hash: hash(1), minedAt: '2026-11-02T10:00:00.000Z', sentFrom: me, sentTo: bob, sentFromName: null, sentToName: 'bob.tessera.id', status: 'pending', chain: 'eip155:31337' },
      transfers: [{ fungible_info: { symbol: 'ETH', implementations: [] }, direction: 'out', quantity: { numeric: '0.25' } }],
    })
    expect(fake.getTransactionHistory).toHaveBeenCalledTimes(1)

    fake.getTransactionHistory.mockResolvedValueOnce({ data: [entry('9', 'eip155:31337', hash(1))], next: null })
    fake.track({ chainId: 31337, hash: hash(1), status: 'success', addedAt: Date.parse('2026-11-02T10:00:00Z'), blockNumber: 5n })
    await vi.waitFor(() => expect(history.store.getState().trackedTransactions[0]?.metadata.status).toBe('confirmed'))
    await vi.waitFor(() => expect(history.store.getState().transactions.map((t) => t.metadata.hash)).toEqual([hash(1)]))
    // What it moved was read from the chain once, asked by the network's CAIP-2 id.
    expect(fake.request).toHaveBeenCalledTimes(1)
    expect(fake.request).toHaveBeenCalledWith(expect.objectContaining({ caipNetworkId: 'eip155:31337', method: 'eth_getTransactionByHash' }))
    stop()
  })

  it('reads an ERC-20 transfer’s receiver, amount, symbol and decimals; a reverted one is failed, an unanswered wait still pending', async () => {
    const input = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [carol, parseUnits('1.5', 6)] })
    const fake = fakeCore({ transactions: { [hash(2)]: { from: me, to: token, value: 0n, input }, [hash(3)]: { from: me, to: bob, value: 1n } } })
    const history = controllerFor(fake.core)
    const stop = watch(history)
    fake.track({ chainId: 31337, hash: hash(2), status: 'reverted', addedAt: 2 })
    fake.track({ chainId: 31337, hash: hash(3), status: 'timeout', addedAt: 1 })
    await vi.waitFor(() => expect(history.store.getState().trackedTransactions).toHaveLength(2))
    const [erc20, native] = history.store.getState().trackedTransactions
    expect(erc20!.metadata).toMatchObject({ sentTo: carol, status: 'failed' })
    // The token's contract, for its image (Activity finds it by it).
    expect(erc20!.transfers[0]).toEqual({ fungible_info: { symbol: 'TSR', implementations: [{ address: token }] }, direction: 'out', quantity: { numeric: '1.5' } })
    expect(fake.readContract.mock.calls.map((c) => [c[0].address, c[0].functionName])).toEqual([
      [token.toLowerCase(), 'symbol'],
      [token.toLowerCase(), 'decimals'],
    ])
    expect(native!.metadata.status).toBe('pending')
    expect(native!.transfers[0]!.quantity.numeric).toBe('0.000000000000000001')
    stop()
  })

  it('leaves out what another account sent, other chains, calls that moved nothing, and a send to itself is self', async () => {
    const fake = fakeCore({
      transactions: {
        [hash(4)]: { from: bob, to: carol, value: 5n },
        [hash(5)]: { from: me, to: bob, value: 5n },
        [hash(6)]: { from: me, to: token, value: 0n, input: '0x095ea7b3' },
        [hash(7)]: { from: me, to: me, value: 7n },
      },
    })
    const history = controllerFor(fake.core)
    const stop = watch(history)
    fake.track({ chainId: 31337, hash: hash(4), status: 'pending', addedAt: 1 })
    fake.track({ chainId: 31338, hash: hash(5), status: 'pending', addedAt: 2 })
    fake.track({ chainId: 31337, hash: hash(6), status: 'pending', addedAt: 3 })
    fake.track({ chainId: 31337, hash: hash(7), status: 'pending', addedAt: 4 })
    await vi.waitFor(() => expect(history.store.getState().trackedTransactions).toHaveLength(1))
    await settle()
    expect(history.store.getState().trackedTransactions.map((t) => [t.metadata.hash, t.transfers[0]!.direction])).toEqual([[hash(7), 'self']])
    stop()
  })

  it('tries a transaction the node did not know yet again at the next change, and stops following when stopped', async () => {
    const fake = fakeCore()
    const history = controllerFor(fake.core)
    const stop = watch(history)
    fake.track({ chainId: 31337, hash: hash(8), status: 'pending', addedAt: 1 })
    await vi.waitFor(() => expect(fake.request).toHaveBeenCalledTimes(1))
    await settle()
    expect(history.store.getState().trackedTransactions).toEqual([])
    ;(fake.core.request as ReturnType<typeof vi.fn>).mockResolvedValueOnce({ from: me, to: bob, value: toHex(3n), input: '0x' })
    fake.track({ chainId: 31337, hash: hash(8), status: 'success', addedAt: 1 })
    await vi.waitFor(() => expect(history.store.getState().trackedTransactions.map((t) => t.metadata.status)).toEqual(['confirmed']))
    stop()
    fake.track({ chainId: 31337, hash: hash(9), status: 'pending', addedAt: 2 })
    await settle()
    expect(fake.request).toHaveBeenCalledTimes(2)
  })
})
