import type { Abi, Address, Hex, Log } from 'viem'
import { createEip155Client, decodeLogs, type ContractCall, type Eip155ChainConfig, type Eip155Client } from './chain-clients/eip155'
import type { TransportRanking } from './rpc-transport/ranking'
import { balanceKey, createCoreStore, type PendingTransaction } from './state/coreStore'
import { publishStore, type MessageTarget } from './state/publishStore'

export type CoreConfig = {
  chains: readonly Eip155ChainConfig[]
  /** Rank each chain's RPC URLs by latency and stability (SPEC §4). */
  rankTransports?: boolean
  /** How often watched block numbers are polled. */
  blockPollingIntervalMs?: number
}

export const PENDING_TRANSACTIONS_LIMIT = 99

type ChainEntry = { client: Eip155Client; ranking?: TransportRanking; rpcUrls: readonly string[] }

/**
 * The worker's API, exposed to the main thread with comlink. Each worker holds its own clients and store:
 * two widgets on one page start two workers and share nothing.
 */
export function createWorkerApi({ now = Date.now }: { now?: () => number } = {}) {
  const store = createCoreStore()
  const chains = new Map<number, ChainEntry>()
  const aborts = new Map<string, AbortController>()
  const blockWatches = new Map<string, { chainId: number }>()
  const blockLoops = new Map<number, { timer?: ReturnType<typeof setTimeout> }>()
  let blockPollingIntervalMs = 1_000
  let isVisible = true
  let unpublish: (() => void) | undefined

  const chainFor = (chainId: number) => {
    const chain = chains.get(chainId)
    if (!chain) throw new Error(`Network not found: eip155:${chainId} is not configured in the core`)
    return chain
  }
  const clientFor = (chainId: number) => chainFor(chainId).client

  const setBlockNumber = (chainId: number, blockNumber: bigint) =>
    store.setState((s) =>
      s.blockNumbers[chainId] === blockNumber ? s : { blockNumbers: { ...s.blockNumbers, [chainId]: blockNumber } },
    )

  // Block polling: one loop per watched chain, paused while the page is hidden.
  const syncBlockLoop = (chainId: number) => {
    const shouldRun = isVisible && chains.has(chainId) && [...blockWatches.values()].some((w) => w.chainId === chainId)
    const running = blockLoops.get(chainId)
    if (!shouldRun) {
      clearTimeout(running?.timer)
      blockLoops.delete(chainId)
      return
    }
    if (running) return
    const loop: { timer?: ReturnType<typeof setTimeout> } = {}
    blockLoops.set(chainId, loop)
    const tick = async () => {
      try {
        setBlockNumber(chainId, await clientFor(chainId).getBlockNumber())
      } catch {
        // a failed poll keeps the last block number; the next poll tries again
      }
      if (blockLoops.get(chainId) === loop) loop.timer = setTimeout(tick, blockPollingIntervalMs)
    }
    void tick()
  }
  const syncBlockLoops = () => {
    const chainIds = new Set([...blockLoops.keys(), ...[...blockWatches.values()].map((w) => w.chainId)])
    for (const chainId of chainIds) syncBlockLoop(chainId)
  }

  const track = (tx: PendingTransaction) => {
    const all = Object.values(store.getState().pendingTransactions)
    if (all.filter((t) => t.status === 'pending').length >= PENDING_TRANSACTIONS_LIMIT) {
      throw new Error(`Too many pending transactions: at most ${PENDING_TRANSACTIONS_LIMIT} are tracked at once`)
    }
    const kept = all
      .filter((t) => t.hash !== tx.hash)
      .sort((a, b) => a.addedAt - b.addedAt)
      .slice(-(PENDING_TRANSACTIONS_LIMIT - 1))
    store.setState({ pendingTransactions: Object.fromEntries([...kept, tx].map((t) => [t.hash, t])) })
  }
  const settle = (hash: Hex, update: Partial<PendingTransaction>) =>
    store.setState((s) => {
      const tx = s.pendingTransactions[hash]
      return tx ? { pendingTransactions: { ...s.pendingTransactions, [hash]: { ...tx, ...update } } } : s
    })

  return {
    ping: () => ({ isWorker: typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined', at: now() }),

    configure({ chains: configured, rankTransports = false, blockPollingIntervalMs: interval = 1_000 }: CoreConfig) {
      for (const { ranking } of chains.values()) ranking?.stop()
      chains.clear()
      syncBlockLoops()
      blockPollingIntervalMs = interval
      for (const chain of configured) {
        const entry: ChainEntry = { rpcUrls: chain.rpcUrls, client: undefined as never }
        entry.client = createEip155Client({
          ...chain,
          rank: rankTransports,
          onRanking: (ranking) => {
            entry.ranking = ranking
            ranking.subscribe((ranked) =>
              store.setState((s) => ({
                transportRanks: {
                  ...s.transportRanks,
                  [chain.chainId]: ranked.map((r) => ({ url: chain.rpcUrls[r.index]!, score: r.score, stability: r.stability, latencyMs: r.latencyMs })),
                },
              })),
            )
          },
        })
        chains.set(chain.chainId, entry)
      }
      syncBlockLoops()
    },

    /** Starts publishing the store to the main thread over `port`. */
    connectStore(port: MessageTarget) {
      unpublish?.()
      unpublish = publishStore(store, port)
    },

    /** The main thread tells the worker when the page is hidden: polling pauses until it is visible again. */
    setVisibility(visible: boolean) {
      isVisible = visible
      syncBlockLoops()
    },

    getBlockNumber: async ({ chainId }: { chainId: number }) => {
      const blockNumber = await clientFor(chainId).getBlockNumber()
      setBlockNumber(chainId, blockNumber)
      return blockNumber
    },
    /** Keeps `blockNumbers[chainId]` of the store current until unwatchBlockNumber(watchId). */
    watchBlockNumber({ watchId, chainId }: { watchId: string; chainId: number }) {
      chainFor(chainId)
      blockWatches.set(watchId, { chainId })
      syncBlockLoop(chainId)
    },
    unwatchBlockNumber({ watchId }: { watchId: string }) {
      const watch = blockWatches.get(watchId)
      blockWatches.delete(watchId)
      if (watch) syncBlockLoop(watch.chainId)
    },

    readContract: ({ chainId, ...call }: ContractCall & { chainId: number }) => clientFor(chainId).readContract(call),
    multicall: ({ chainId, contracts }: { chainId: number; contracts: readonly ContractCall[] }) =>
      clientFor(chainId).multicall(contracts),
    getBalance: async ({ chainId, address, token = null }: { chainId: number; address: Address; token?: Address | null }) => {
      const value = await clientFor(chainId).getBalance({ address, token })
      const key = balanceKey(chainId, address, token)
      store.setState((s) => ({ balances: { ...s.balances, [key]: { chainId, owner: address, token, value, updatedAt: now() } } }))
      return value
    },
    getLogs: ({ chainId, ...parameters }: Parameters<Eip155Client['getLogs']>[0] & { chainId: number }) =>
      clientFor(chainId).getLogs(parameters),
    decodeEventLogs: (parameters: { abi: Abi; logs: readonly Log[]; eventName?: string }) => decodeLogs(parameters),

    async waitForTransactionReceipt({ chainId, hash, ...options }: { chainId: number; hash: Hex; timeoutMs?: number; pollingIntervalMs?: number }) {
      track({ chainId, hash, status: 'pending', addedAt: now() })
      try {
        const receipt = await clientFor(chainId).waitForTransactionReceipt({ hash, ...options })
        settle(hash, { status: receipt.status, blockNumber: receipt.blockNumber })
        return receipt
      } catch (error) {
        settle(hash, { status: 'timeout' })
        throw error
      }
    },

    /** A JSON-RPC request to the chain's nodes; `requestId` lets abort() cancel it. */
    async request({ chainId, method, params = [], requestId }: { chainId: number; method: string; params?: readonly unknown[]; requestId?: string }) {
      const controller = requestId ? new AbortController() : undefined
      if (requestId && controller) aborts.set(requestId, controller)
      try {
        return await clientFor(chainId).request(method, params, controller?.signal)
      } finally {
        if (requestId) aborts.delete(requestId)
      }
    },
    abort({ requestId }: { requestId: string }) {
      aborts.get(requestId)?.abort()
      aborts.delete(requestId)
    },

    getState: () => store.getState(),
  }
}

export type WorkerApi = ReturnType<typeof createWorkerApi>
