import type { Abi, Address, Hex, Log } from 'viem'
import { PENDING_TRANSACTIONS_LIMIT } from '../shared/protocol/constants'
import { parseCaipNetworkId } from '../shared/protocol/caip'
import { createWidgetError } from '../shared/protocol/errors'
import { withWidgetErrors } from './rpc-transport/withWidgetErrors'
import { createChainClientRegistry } from './families/createChainClientRegistry'
import type { ContractCall, CoreConfig, CoreWorkerApi, FamilyCallRule, FamilyNamespace, LogFilter } from '../shared/protocol/core/coreApi'
import { balanceKey, type PendingTransaction } from '../shared/protocol/core/coreState'
import { dataServiceMethods, type DataServiceMethod } from '../shared/protocol/core/dataService'
import { createEip155Client, decodeLogs, type Eip155Client } from './families/eip155/eip155'
import { createLogDecoder } from './families/eip155/createLogDecoder'
import { createLogSets } from './families/eip155/createLogSets'
import type { TransportRanking } from './rpc-transport/ranking'
import { createIndexedDbPersister } from './query-cache/createIndexedDbPersister'
import { createQueryCache, type QueryCache, type QueryKey } from './query-cache/createQueryCache'
import { createFamilySlot, type FamilySlot } from './families/createFamilySlot'
import { workerFamilies } from './families/index'
import { createDataServiceClient, type DataServiceClient } from './services/createDataServiceClient'
import { createCoreStore } from './state/coreStore'
import type { ReviewCallsParameters, ReviewTransactionParameters, ReviewTypedDataParameters } from './review/createReview'
import { loadReviewEngine } from './review/loadReviewEngine'
import { publishStore } from './state/publishStore'

export type { CoreConfig } from '../shared/protocol/core/coreApi'

const cachedDataServiceKeys: Partial<Record<DataServiceMethod, (args: Record<string, unknown>) => QueryKey | undefined>> = {
  getSupportedChains: () => ['supportedChains'],
  getBalance: (a) => (a.forceUpdate ? undefined : ['portfolio', a.chainId, String(a.address).toLowerCase()]),
  getIdentity: (a) => ['identity', String(a.address).toLowerCase()],
  lookupName: (a) => ['names', 'forward', a.name],
  reverseLookup: (a) => ['names', 'reverse', String(a.address).toLowerCase()],
  getWallets: (a) => ['walletList', a],
}


type ChainEntry = { client: Eip155Client; ranking?: TransportRanking; rpcUrls: readonly string[] }
type BalanceQuery = { caipNetworkId: string; address: string; force?: boolean }

const familyNamespaces = Object.keys(workerFamilies) as FamilyNamespace[]
const isFamilyNamespace = (namespace: unknown): namespace is FamilyNamespace => familyNamespaces.includes(namespace as FamilyNamespace)

/**
 * The worker's API, exposed to the main thread with comlink. Each worker holds its own clients and store:
 * two widgets on one page start two workers and share nothing.
 */
export function createWorkerApi({ now = Date.now, indexedDB = globalThis.indexedDB }: { now?: () => number; indexedDB?: IDBFactory } = {}) {
  const store = createCoreStore()
  const cache: QueryCache = createQueryCache({ now, persister: createIndexedDbPersister({ indexedDB, now }) })
  const hydrated = cache.hydrate()
  let dataService: DataServiceClient | undefined
  const chains = createChainClientRegistry<ChainEntry>()
  const aborts = new Map<string, AbortController>()
  const logSets = createLogSets()
  const blockWatches = new Map<string, { chainId: number }>()
  const blockLoops = new Map<number, { timer?: ReturnType<typeof setTimeout> }>()
  let blockPollingIntervalMs = 1_000
  let isVisible = true
  let unpublish: (() => void) | undefined
  let reviewModule: string | undefined
  // Each family's API loads from its module only for a config with one of its networks (families/index.ts); a new
  // config closes the old clients (rankings, WebSockets).
  const families = Object.fromEntries(familyNamespaces.map((namespace) => [namespace, createFamilySlot(namespace, workerFamilies[namespace])])) as Record<FamilyNamespace, FamilySlot>

  const chainFor = (chainId: number) => chains.get('eip155', chainId)
  const clientFor = (chainId: number) => chainFor(chainId).client
  const parseJson = (text: string): unknown => {
    try {
      return JSON.parse(text)
    } catch {
      return undefined
    }
  }
  /** The chain's client, or none for a chain the site did not configure. */
  const tryClientFor = (chainId: number) => {
    try {
      return clientFor(chainId)
    } catch {
      return undefined
    }
  }

  const setBlockNumber = (chainId: number, blockNumber: bigint) =>
    store.setState((s) =>
      s.blockNumbers[chainId] === blockNumber ? s : { blockNumbers: { ...s.blockNumbers, [chainId]: blockNumber } },
    )

  // Block polling: one loop per watched chain, paused while the page is hidden.
  const syncBlockLoop = (chainId: number) => {
    const shouldRun = isVisible && chains.has('eip155', chainId) && [...blockWatches.values()].some((w) => w.chainId === chainId)
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
      throw createWidgetError('TOO_MANY_PENDING_TRANSACTIONS', { details: `at most ${PENDING_TRANSACTIONS_LIMIT} are tracked at once` })
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

  const api = {
    ping: () => ({ isWorker: typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined', at: now() }),

    configure({ chains: configured, familyChains = {}, familyModules = {}, reviewModule: reviewModuleUrl, rankTransports = true, blockPollingIntervalMs: interval = 1_000, dataService: service }: CoreConfig) {
      reviewModule = reviewModuleUrl
      for (const namespace of familyNamespaces) {
        families[namespace].configure({ chains: familyChains[namespace] ?? [], moduleUrl: familyModules[namespace], rank: rankTransports })
      }
      dataService = service
        ? createDataServiceClient({
            ...service,
            isNetworkSupported: (id) => !service.supportedCaipNetworkIds || service.supportedCaipNetworkIds.includes(id),
          })
        : undefined
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
        chains.set('eip155', chain.chainId, entry)
      }
      syncBlockLoops()
    },

    /** Starts publishing the store to the main thread over `port`. */
    connectStore(port: Parameters<CoreWorkerApi['connectStore']>[0]) {
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
    /** A native or ERC-20 balance; cached for 30 s (SPEC §9) unless `force`. */
    getBalance: async ({ chainId, address, token = null, force = false }: { chainId: number; address: Address; token?: Address | null; force?: boolean }) => {
      await hydrated
      const client = clientFor(chainId)
      const value = await cache.fetch(['balance', `eip155:${chainId}`, address.toLowerCase(), token?.toLowerCase() ?? 'native'], () => client.getBalance({ address, token }), { force })
      const caipNetworkId = `eip155:${chainId}`
      store.setState((s) => ({ balances: { ...s.balances, [balanceKey(caipNetworkId, address, token)]: { caipNetworkId, owner: address, token, value, updatedAt: now() } } }))
      return value
    },
    getLogs: ({ chainId, ...parameters }: LogFilter) => clientFor(chainId).getLogs(parameters),
    /** Fetches the logs and keeps them here, undecoded: the page gets `{ id, chainId, count }` and reads slices. */
    queryLogs: async ({ chainId, ...filter }: LogFilter) =>
      logSets.add({ chainId, logs: await clientFor(chainId).fetchLogs(filter), decoder: createLogDecoder(filter) }),
    /** `limit` logs of a set from `offset`, decoded now. */
    readLogs: (parameters: { id: string; offset: number; limit: number }) => logSets.read(parameters),
    releaseLogs: (parameters: { id: string }) => logSets.release(parameters),
    decodeEventLogs: (parameters: { abi: Abi; logs: readonly Log[]; eventName?: string }) => decodeLogs(parameters),

    async waitForTransactionReceipt({ chainId, hash, ...options }: { chainId: number; hash: Hex; timeoutMs?: number; pollingIntervalMs?: number }) {
      track({ chainId, hash, status: 'pending', addedAt: now() })
      try {
        const receipt = await clientFor(chainId).waitForTransactionReceipt({ hash, ...options })
        settle(hash, { status: receipt.status, blockNumber: receipt.blockNumber })
        // A mined transaction changes its sender's balances (and its recipient's, for a plain transfer).
        for (const party of [receipt.from, receipt.to]) if (party) cache.invalidate(['balance', `eip155:${chainId}`, party.toLowerCase()])
        cache.invalidate(['portfolio', `eip155:${chainId}`, receipt.from.toLowerCase()])
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

    /** Marks cached balances of an account stale (after it sent something, say). */
    invalidateBalances({ chainId, address }: { chainId: number; address: Address }) {
      return cache.invalidate(['balance', `eip155:${chainId}`, address.toLowerCase()]) + cache.invalidate(['portfolio', `eip155:${chainId}`, address.toLowerCase()])
    },

    /** One call to the data service, cached by kind where SPEC §9 gives a lifetime. */
    async callDataService({ method, args }: { method: DataServiceMethod; args?: Record<string, unknown> }): Promise<unknown> {
      if (!dataServiceMethods.includes(method)) throw createWidgetError('INVALID_MESSAGE', { details: `unknown data-service call: ${String(method)}`, field: 'method' })
      if (!dataService) throw createWidgetError('SERVICE_NOT_CONFIGURED')
      await hydrated
      const service = dataService
      const run = () => (service[method] as (a: unknown) => Promise<unknown>)(args ?? {})
      const key = cachedDataServiceKeys[method]?.(args ?? {})
      return key ? cache.fetch(key, run) : run()
    },

    getState: () => store.getState(),

    // Reviews before a wallet is asked (issue #36). The engine loads from its own module at the first review.
    reviewTransaction: async ({ chainId, ...rest }: Omit<ReviewTransactionParameters, 'client'>) =>
      (await loadReviewEngine(reviewModule)).reviewTransaction({ ...rest, chainId, client: clientFor(chainId) }),
    reviewCalls: async ({ chainId, ...rest }: Omit<ReviewCallsParameters, 'client'>) =>
      (await loadReviewEngine(reviewModule)).reviewCalls({ ...rest, chainId, client: clientFor(chainId) }),
    reviewTypedData: async (parameters: Omit<ReviewTypedDataParameters, 'client'>) => {
      // The tokens it names are read on its chain when the site has that chain (JSON that does not parse is the
      // engine's to refuse).
      const typedData = typeof parameters.typedData === 'string' ? parseJson(parameters.typedData) : parameters.typedData
      const domainChainId = (typedData as { domain?: { chainId?: unknown } } | null)?.domain?.chainId
      const chainId = Number(typeof domainChainId === 'number' || typeof domainChainId === 'string' ? domainChainId : parameters.chainId) || undefined
      const client = chainId === undefined ? undefined : tryClientFor(chainId)
      return (await loadReviewEngine(reviewModule)).reviewTypedData({ ...parameters, ...(client && { client }) })
    },
    prefetchReview: async () => void (await loadReviewEngine(reviewModule)),

    /**
     * One call of a family's API (`core.solana.buildTransfer`, …). getBalance is cached and kept in the store; after a
     * call that changes balances (a send, its confirmation), the network's cached ones are stale.
     */
    familyCall: (async ({ namespace, method, args }: { namespace: FamilyNamespace; method: string; args: { caipNetworkId: string } }) => {
      const calls: Record<string, FamilyCallRule> | undefined = isFamilyNamespace(namespace) ? workerFamilies[namespace].calls : undefined
      const rule = calls && Object.hasOwn(calls, method) ? calls[method] : undefined
      if (!rule) throw createWidgetError('INVALID_MESSAGE', { details: `unknown family call: ${String(namespace).slice(0, 100)}.${String(method).slice(0, 100)}`, field: 'method' })
      if (method === 'getBalance') return (await familyBalance(namespace, args as BalanceQuery)).balance
      const answer = await (await families[namespace].api())[method]!(args)
      if (rule.changesBalances) cache.invalidate(['balance', args.caipNetworkId])
      return answer
    }) as CoreWorkerApi['familyCall'],
  }

  /**
   * A family's balance as its API answers it (cached for 30 s, SPEC §9, unless `force`), and its native amount in the
   * smallest unit, which the store keeps like EVM balances.
   */
  const familyBalance = async (namespace: FamilyNamespace, { caipNetworkId, address, force = false }: BalanceQuery) => {
    await hydrated
    const family = await families[namespace].api()
    const balance = await cache.fetch(['balance', caipNetworkId, address, 'native'], () => family.getBalance({ caipNetworkId, address }), { force })
    const value = family.nativeBalance(balance)
    store.setState((s) => ({ balances: { ...s.balances, [balanceKey(caipNetworkId, address)]: { caipNetworkId, owner: address, token: null, value, updatedAt: now() } } }))
    return { balance, value }
  }

  const byNetwork = {
    /**
     * The native balance of `address` on any configured network, by CAIP-2 id, as the mirrored store holds it under
     * balanceKey(caipNetworkId, address): wei, lamports, sats (confirmed and pending), planck (free).
     */
    getNativeBalance: async ({ caipNetworkId, address, force }: BalanceQuery) => {
      const parsed = typeof caipNetworkId === 'string' ? parseCaipNetworkId(caipNetworkId) : undefined
      if (!parsed) throw createWidgetError('NETWORK_NOT_FOUND', { details: `"${String(caipNetworkId).slice(0, 100)}" is not a CAIP-2 network id` })
      if (parsed.namespace === 'eip155') return api.getBalance({ chainId: Number(parsed.reference), address: address as Address, force })
      return (await familyBalance(parsed.namespace, { caipNetworkId, address, force })).value
    },
  }
  // The page calls this API through its protocol type: any drift is a type error here.
  return withWidgetErrors({ ...api, ...byNetwork } satisfies CoreWorkerApi)
}

export type WorkerApi = ReturnType<typeof createWorkerApi>

