import type { Abi, Address, Hex, Log } from 'viem'
import { PENDING_TRANSACTIONS_LIMIT } from '../shared/protocol/constants'
import { parseCaipNetworkId, type ChainNamespace } from '../shared/protocol/caip'
import { createWidgetError } from '../shared/protocol/errors'
import { withWidgetErrors } from './rpc-transport/withWidgetErrors'
import { createChainClientRegistry } from './families/createChainClientRegistry'
import type { ContractCall, CoreConfig, CoreWorkerApi, LogFilter } from '../shared/protocol/core/coreApi'
import { balanceKey, type PendingTransaction } from '../shared/protocol/core/coreState'
import { dataServiceMethods, type DataServiceMethod } from '../shared/protocol/core/dataService'
import { createEip155Client, decodeLogs, type Eip155Client } from './families/eip155/eip155'
import { createLogDecoder } from './families/eip155/createLogDecoder'
import { createLogSets } from './families/eip155/createLogSets'
import type { TransportRanking } from './rpc-transport/ranking'
import { createIndexedDbPersister } from './query-cache/createIndexedDbPersister'
import { createQueryCache, type QueryCache, type QueryKey } from './query-cache/createQueryCache'
import type { SolanaWorkerApi } from './families/solana/solanaWorkerApi'
import type { BitcoinWorkerApi } from './families/bip122/bitcoinWorkerApi'
import type { PolkadotWorkerApi } from './families/polkadot/polkadotWorkerApi'
import { loadFamily, type FamilyFactories } from './families/familyRegistry'
import { createDataServiceClient, type DataServiceClient } from './services/createDataServiceClient'
import { createCoreStore } from './state/coreStore'
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
  // Each family's client loads from its module only for a configuration with one of its networks: Solana's
  // (@solana/kit) and Bitcoin's (bitcoinjs-lib) when configured, Polkadot's (@polkadot/api, about 195 KiB gz, the
  // largest library of all) at its first call. A new config closes the old clients (rankings, WebSockets).
  const families = {
    solana: createFamilySlot<SolanaWorkerApi>('Solana'),
    bitcoin: createFamilySlot<BitcoinWorkerApi>('Bitcoin'),
    polkadot: createFamilySlot<PolkadotWorkerApi>('Polkadot', { loadsAtFirstCall: true }),
  }
  const solanaApi = families.solana.api
  const bitcoinApi = families.bitcoin.api
  const polkadotApi = families.polkadot.api

  const chainFor = (chainId: number) => chains.get('eip155', chainId)
  const clientFor = (chainId: number) => chainFor(chainId).client

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

    configure({ chains: configured, solanaChains = [], bitcoinChains = [], polkadotChains = [], familyModules = {}, rankTransports = true, blockPollingIntervalMs: interval = 1_000, dataService: service }: CoreConfig) {
      const loaderOf = <F extends keyof typeof families>(family: F, label: string, make: (create: FamilyFactories[F]) => Awaited<ReturnType<(typeof families)[F]['api']>>) =>
        () => loadFamily(family, familyModules[family], label).then(make)
      families.solana.configure(solanaChains.length > 0 ? loaderOf('solana', 'Solana', (create) => create({ chains: solanaChains, rank: rankTransports })) : undefined)
      families.bitcoin.configure(bitcoinChains.length > 0 ? loaderOf('bitcoin', 'Bitcoin', (create) => create({ chains: bitcoinChains, rank: rankTransports })) : undefined)
      families.polkadot.configure(polkadotChains.length > 0 ? loaderOf('polkadot', 'Polkadot', (create) => create({ chains: polkadotChains })) : undefined)
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

    /** SOL in lamports, cached for 30 s (SPEC §9) unless `force`, and kept in the store like EVM balances. */
    solanaGetBalance: async ({ caipNetworkId, address, force = false }: { caipNetworkId: string; address: string; force?: boolean }) => {
      await hydrated
      const api = await solanaApi()
      const value = await cache.fetch(['balance', caipNetworkId, address, 'native'], () => api.solanaGetBalance({ caipNetworkId, address }), { force })
      store.setState((s) => ({ balances: { ...s.balances, [balanceKey(caipNetworkId, address)]: { caipNetworkId, owner: address, token: null, value, updatedAt: now() } } }))
      return value
    },
    solanaGetTokenBalances: async (parameters: { caipNetworkId: string; owner: string }) => (await solanaApi()).solanaGetTokenBalances(parameters),
    solanaBuildTransfer: async (parameters: Parameters<SolanaWorkerApi['solanaBuildTransfer']>[0]) => (await solanaApi()).solanaBuildTransfer(parameters),
    solanaEstimateFee: async (parameters: { caipNetworkId: string; transaction: Uint8Array }) => (await solanaApi()).solanaEstimateFee(parameters),
    solanaSendTransaction: async (parameters: { caipNetworkId: string; transaction: Uint8Array }) => (await solanaApi()).solanaSendTransaction(parameters),
    async solanaWaitForConfirmation(parameters: Parameters<SolanaWorkerApi['solanaWaitForConfirmation']>[0]) {
      const confirmation = await (await solanaApi()).solanaWaitForConfirmation(parameters)
      cache.invalidate(['balance', parameters.caipNetworkId])
      return confirmation
    },

    /** Sats, cached for 30 s (SPEC §9) unless `force`; the store keeps confirmed + pending, what the account can count on spending. */
    bitcoinGetBalance: async ({ caipNetworkId, address, force = false }: { caipNetworkId: string; address: string; force?: boolean }) => {
      await hydrated
      const api = await bitcoinApi()
      const balance = await cache.fetch(['balance', caipNetworkId, address, 'native'], () => api.bitcoinGetBalance({ caipNetworkId, address }), { force })
      const value = balance.confirmed + balance.pending
      store.setState((s) => ({ balances: { ...s.balances, [balanceKey(caipNetworkId, address)]: { caipNetworkId, owner: address, token: null, value, updatedAt: now() } } }))
      return balance
    },
    bitcoinGetFeeRates: async (parameters: { caipNetworkId: string }) => (await bitcoinApi()).bitcoinGetFeeRates(parameters),
    bitcoinBuildTransfer: async (parameters: Parameters<BitcoinWorkerApi['bitcoinBuildTransfer']>[0]) => (await bitcoinApi()).bitcoinBuildTransfer(parameters),
    // A sent transaction changes balances at once (pending): cached ones are stale.
    async bitcoinBroadcast(parameters: { caipNetworkId: string; txHex: string }) {
      const txid = await (await bitcoinApi()).bitcoinBroadcast(parameters)
      cache.invalidate(['balance', parameters.caipNetworkId])
      return txid
    },
    async bitcoinFinalizeAndBroadcast(parameters: { caipNetworkId: string; psbtBase64: string }) {
      const txid = await (await bitcoinApi()).bitcoinFinalizeAndBroadcast(parameters)
      cache.invalidate(['balance', parameters.caipNetworkId])
      return txid
    },
    async bitcoinWaitForConfirmation(parameters: Parameters<BitcoinWorkerApi['bitcoinWaitForConfirmation']>[0]) {
      const confirmation = await (await bitcoinApi()).bitcoinWaitForConfirmation(parameters)
      cache.invalidate(['balance', parameters.caipNetworkId])
      return confirmation
    },

    polkadotGetChainInfo: async (parameters: { caipNetworkId: string }) => (await polkadotApi()).polkadotGetChainInfo(parameters),
    /** Planck, cached for 30 s (SPEC §9) unless `force`; the store keeps `free`, the balance wallets show. */
    polkadotGetBalance: async ({ caipNetworkId, address, force = false }: { caipNetworkId: string; address: string; force?: boolean }) => {
      await hydrated
      const api = await polkadotApi()
      const balance = await cache.fetch(['balance', caipNetworkId, address, 'native'], () => api.polkadotGetBalance({ caipNetworkId, address }), { force })
      store.setState((s) => ({ balances: { ...s.balances, [balanceKey(caipNetworkId, address)]: { caipNetworkId, owner: address, token: null, value: balance.free, updatedAt: now() } } }))
      return balance
    },
    polkadotEstimateTransferFee: async (parameters: Parameters<PolkadotWorkerApi['polkadotEstimateTransferFee']>[0]) => (await polkadotApi()).polkadotEstimateTransferFee(parameters),
    polkadotBuildTransfer: async (parameters: Parameters<PolkadotWorkerApi['polkadotBuildTransfer']>[0]) => (await polkadotApi()).polkadotBuildTransfer(parameters),
    // A submitted transfer changes balances as soon as a block holds it: cached ones are stale.
    async polkadotSubmitTransfer(parameters: Parameters<PolkadotWorkerApi['polkadotSubmitTransfer']>[0]) {
      const submission = await (await polkadotApi()).polkadotSubmitTransfer(parameters)
      cache.invalidate(['balance', parameters.caipNetworkId])
      return submission
    },
    async polkadotWaitForTransaction(parameters: Parameters<PolkadotWorkerApi['polkadotWaitForTransaction']>[0]) {
      const inclusion = await (await polkadotApi()).polkadotWaitForTransaction(parameters)
      cache.invalidate(['balance', parameters.caipNetworkId])
      return inclusion
    },
  }

  /** Each family's native balance, in its smallest unit, as the mirrored store holds it under balanceKey(caipNetworkId, address). */
  const nativeBalanceOf: Record<ChainNamespace, (parameters: { caipNetworkId: string; address: string; force?: boolean }) => Promise<bigint>> = {
    eip155: ({ caipNetworkId, address, force }) => api.getBalance({ chainId: Number(parseCaipNetworkId(caipNetworkId)!.reference), address: address as Address, force }),
    solana: (parameters) => api.solanaGetBalance(parameters),
    bip122: async (parameters) => {
      const { confirmed, pending } = await api.bitcoinGetBalance(parameters)
      return confirmed + pending
    },
    polkadot: async (parameters) => (await api.polkadotGetBalance(parameters)).free,
  }
  const byNetwork = {
    /** The native balance of `address` on any configured network, by CAIP-2 id: wei, lamports, sats (confirmed and pending), planck (free). */
    getNativeBalance: async ({ caipNetworkId, address, force }: { caipNetworkId: string; address: string; force?: boolean }) => {
      const parsed = typeof caipNetworkId === 'string' ? parseCaipNetworkId(caipNetworkId) : undefined
      if (!parsed) throw createWidgetError('NETWORK_NOT_FOUND', { details: `"${String(caipNetworkId).slice(0, 100)}" is not a CAIP-2 network id` })
      return nativeBalanceOf[parsed.namespace]({ caipNetworkId, address, force })
    },
  }
  // The page calls this API through its protocol type: any drift is a type error here.
  return withWidgetErrors({ ...api, ...byNetwork } satisfies CoreWorkerApi)
}

export type WorkerApi = ReturnType<typeof createWorkerApi>

/**
 * One chain family's worker API in the core: loaded from its module by the `load` the config gives (at once, or at
 * its first call with `loadsAtFirstCall`); a load that failed is tried again by the next call; a new config destroys
 * the one loaded before. Without a config, a call says no network of the family is configured.
 */
function createFamilySlot<Api extends { destroy: () => unknown }>(label: string, { loadsAtFirstCall = false } = {}) {
  let load: (() => Promise<Api>) | undefined
  let loading: Promise<Api> | undefined
  const api = (): Promise<Api> => {
    if (!load) throw createWidgetError('NETWORK_NOT_FOUND', { details: `no ${label} network is configured in the core` })
    return (loading ??= load().catch((error: unknown) => {
      loading = undefined
      throw error
    }))
  }
  return {
    api,
    configure(next: (() => Promise<Api>) | undefined) {
      void loading?.then((previous) => previous.destroy()).catch(() => {})
      loading = undefined
      load = next
      if (next && !loadsAtFirstCall) api().catch(() => {})
    },
  }
}
