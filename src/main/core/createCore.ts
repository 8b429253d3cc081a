import { transfer, transferHandlers, type Remote } from 'comlink'
import type { Abi, Address, Hex, Log } from 'viem'
// A URL, not worker code on the page: the bundler emits the review engine as a file of its own, like the families'.
// eslint-disable-next-line no-restricted-imports -- a URL, like new URL(…) for the workers
import reviewModule from '../../worker/review/reviewModule.ts?worker&url'
import { createWidgetError, installErrorTransferHandler } from '../../shared/protocol/errors'
import { isSafeRpcMethod } from '../../shared/protocol/rpcMethods'
import type {
  ChainReviewQuery,
  ContractCall,
  CoreConfig,
  CoreFamilies,
  CoreWorkerApi,
  DecodedLog,
  FamilyCallRule,
  FamilyNamespace,
  LogFilter,
  LogSet,
  MulticallResult,
  TypedDataReviewQuery,
} from '../../shared/protocol/core/coreApi'
import type { CallToReview, TransactionToReview } from '../../shared/protocol/review'
import { dataServiceMethods, type DataServiceApi } from '../../shared/protocol/core/dataService'
import { coreFamilies, familyModulesFor } from './familyModules'
import { createStoreMirror } from './createStoreMirror'
import { createWorkerClient, type WorkerClient } from './createWorkerClient'
import { PageWorker as Worker, pageWorkerUrl } from './pageWorker'
import { START_UP_IDLE_TIMEOUT_MS, yieldToPage } from './whenPageIdle'

/** A native balance asked by CAIP-2 network id, on any family. */
export type BalanceByNetwork = { caipNetworkId: string; address: string; force?: boolean }

/** An EVM chain by CAIP-2 id (`eip155:<n>`), as every family's calls take it, or by numeric `chainId` (kept for hosts). */
export type EvmChainParameters = { caipNetworkId: string } | { chainId: number }

/** A log filter whose chain is named either way (see EvmChainParameters). */
export type LogQuery = Omit<LogFilter, 'chainId'> & EvmChainParameters

/**
 * A request to review on an EVM chain named either way (see EvmChainParameters), with the site's ERC-7730 calldata
 * descriptors (JSON) and how long the page waits for the review (REVIEW_TIMEOUT_MS unless given).
 */
export type ReviewQuery = EvmChainParameters & Omit<ChainReviewQuery, 'chainId'> & { timeoutMs?: number }

export type CreateCoreParameters = CoreConfig & {
  /** Starts the worker; hosts with their own bundling (and tests) can pass one. */
  createWorker?: () => Worker
  /** How long one call may take before it fails with CORE_TIMEOUT. */
  callTimeoutMs?: number
  /** @deprecated `familyChains.solana`, taken as well. */
  solanaChains?: readonly CoreFamilies['solana']['chain'][]
  /** @deprecated `familyChains.bip122`, taken as well. */
  bitcoinChains?: readonly CoreFamilies['bip122']['chain'][]
  /** @deprecated `familyChains.polkadot`, taken as well. */
  polkadotChains?: readonly CoreFamilies['polkadot']['chain'][]
}

/** The chain families' members of the core, by the name the core gives each (`core.bitcoin` for bip122): their calls, made in the worker. */
export type CoreFamilyMembers = { [N in FamilyNamespace as (typeof coreFamilies)[N]['member']]: CoreFamilies[N]['api'] }

/** The data-service calls as the main thread sees them: same names and arguments, answered by the worker. */
export type CoreDataService = DataServiceApi

function startWorker() {
  // Worker is PageWorker: see pageWorker.ts.
  return new Worker(new URL('../../worker/worker.ts', import.meta.url), { type: 'module', name: 'tessera-core' })
}

const isPageVisible = () => typeof document === 'undefined' || document.visibilityState !== 'hidden'

/**
 * How long the page waits for a review: the worker asks the node twice in a row (the simulation with the gas price,
 * then the tokens' symbols and decimals), each bounded by the transport's 10 s, and answers with what it could not
 * check rather than fail. So a hung node still gives a review, not CORE_TIMEOUT.
 */
const REVIEW_TIMEOUT_MS = 25_000

/** The review engine's module as the worker imports it: from the page's origin (see pageWorker.ts); with no page (Node), next to this module. */
const reviewModuleUrl = () => pageWorkerUrl(new URL(reviewModule, globalThis.location?.href ?? import.meta.url)).href

/** Calls per message to the worker: copying one part (structured clone) stays far below a 50 ms task. */
const MULTICALL_PART_SIZE = 2_048

/**
 * The parameters as the worker takes them, keyed by numeric `chainId`: `eip155:<n>` becomes n. Any other CAIP-2 id
 * throws NETWORK_NOT_FOUND naming it.
 */
function withChainId<P extends EvmChainParameters>(parameters: P): Omit<P, 'caipNetworkId'> & { chainId: number } {
  // Without caipNetworkId, P is the `{ chainId: number }` side, which TypeScript does not narrow a type parameter to.
  if (!('caipNetworkId' in parameters)) return parameters as P & { chainId: number }
  const { caipNetworkId, ...rest } = parameters
  // A regular expression, not caip.ts: that module's chunk would join the page's first-click JS.
  const reference = typeof caipNetworkId === 'string' ? /^eip155:([1-9]\d*)$/.exec(caipNetworkId)?.[1] : undefined
  const chainId = reference === undefined ? Number.NaN : Number(reference)
  if (!Number.isSafeInteger(chainId)) throw createWidgetError('NETWORK_NOT_FOUND', { details: `"${String(caipNetworkId).slice(0, 100)}" is not an EVM network id (eip155:<chain id>)` })
  return { ...rest, chainId }
}

/**
 * A family's member of the core (`core.solana`, …): each of its calls made in the worker. A call that waits on the
 * chain gets its `maxWaitMs` (the family's default unless given), and the page waits 5 s more for the answer.
 */
function createFamilyMember(namespace: FamilyNamespace, calls: Readonly<Record<string, FamilyCallRule>>, { call }: Pick<WorkerClient<CoreWorkerApi>, 'call'>): Record<string, unknown> {
  // The worker's familyCall is typed per family and call; here both are data.
  type FamilyCall = (familyCall: { namespace: FamilyNamespace; method: string; args: unknown }) => Promise<unknown>
  const callFamily = (method: string, args: unknown, timeoutMs?: number) => call((r) => (r.familyCall as unknown as FamilyCall)({ namespace, method, args }), { timeoutMs })
  return Object.fromEntries(
    Object.entries(calls).map(([method, rule]) => [
      method,
      (args: { maxWaitMs?: number }) => {
        if (rule.maxWaitMs === undefined) return callFamily(method, args)
        const { maxWaitMs = rule.maxWaitMs } = args
        return callFamily(method, { ...args, maxWaitMs }, maxWaitMs + 5_000)
      },
    ]),
  )
}

/**
 * Starts Tessera's core in a dedicated Web Worker and returns its client (`widget.core`). Every call has a
 * timeout; if the worker dies, pending calls fail with CORE_WORKER_DIED and a fresh worker takes over.
 * @example
 * const core = createCore({ chains: [{ chainId: 31337, rpcUrls: ['http://127.0.0.1:8545'] }] })
 * const blockNumber = await core.getBlockNumber({ caipNetworkId: 'eip155:31337' })
 */
export function createCore({ createWorker = startWorker, callTimeoutMs = 30_000, solanaChains, bitcoinChains, polkadotChains, ...config }: CreateCoreParameters) {
  // Here rather than on import: a page that imports Tessera but starts no core keeps comlink as it was.
  installErrorTransferHandler(transferHandlers)
  const mirror = createStoreMirror()
  // Before familyChains, each family's networks had a key of their own: hosts may still give them so.
  const familyChains = { solana: solanaChains, bip122: bitcoinChains, polkadot: polkadotChains, ...config.familyChains }
  // The families' client modules load (and their URLs are computed) only for a config that has such networks.
  const configureWithFamilies = async (remote: Remote<CoreWorkerApi>) =>
    remote.configure({ ...config, familyChains, familyModules: config.familyModules ?? familyModulesFor(familyChains), reviewModule: config.reviewModule ?? reviewModuleUrl() })
  const blockWatches = new Map<string, { chainId: number }>()
  let nextId = 0
  // The worker starts once the page is idle (or at the first call), not in the page's task that creates the core.
  const client = createWorkerClient<CoreWorkerApi>({
    createWorker,
    callTimeoutMs,
    warmUpWithinMs: START_UP_IDLE_TIMEOUT_MS,
    setUp(remote) {
      const channel = new MessageChannel()
      channel.port1.onmessage = (event) => mirror.apply(event.data)
      const ready = Promise.all([
        configureWithFamilies(remote),
        remote.connectStore(transfer(channel.port2, [channel.port2])),
        remote.setVisibility(isPageVisible()),
        ...[...blockWatches].map(([watchId, { chainId }]) => remote.watchBlockNumber({ watchId, chainId })),
      ])
      return { ready, tearDown: () => channel.port1.close() }
    },
  })
  const { call } = client

  const readLogs = (logs: LogSet, { offset = 0, limit = 100 }: { offset?: number; limit?: number } = {}) =>
    call((r) => r.readLogs({ id: logs.id, offset, limit }))
  async function* iterateLogs(logs: LogSet, { pageSize = 500 }: { pageSize?: number } = {}): AsyncGenerator<DecodedLog[], void, undefined> {
    for (let offset = 0; offset < logs.count; offset += pageSize) yield await readLogs(logs, { offset, limit: pageSize })
  }

  const onVisibilityChange = () => void (client.isRunning() && client.remote().setVisibility(isPageVisible()).catch(() => {}))
  if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisibilityChange)

  return {
    /** The worker's state, mirrored read-only: block numbers, balances, pending transactions, transport ranks. */
    store: mirror.store,
    ping: () => call((r) => r.ping()),
    /**
     * A JSON-RPC request to the chain's nodes, made in the worker. Requests other than safe read methods can be
     * aborted with `signal` ('Request was aborted'). Like every EVM call below, it takes the chain by `caipNetworkId`
     * (`eip155:<n>`) or by numeric `chainId`; another id rejects with NETWORK_NOT_FOUND.
     * @example await core.request({ caipNetworkId: 'eip155:1', method: 'eth_gasPrice' })
     */
    async request(parameters: EvmChainParameters & { method: string; params?: readonly unknown[]; signal?: AbortSignal; timeoutMs?: number }) {
      const { chainId, method, params, signal, timeoutMs } = withChainId(parameters)
      if (!signal || isSafeRpcMethod(method)) return call((r) => r.request({ chainId, method, params }), { timeoutMs })
      const requestId = `${++nextId}`
      return call((r) => r.request({ chainId, method, params, requestId }), {
        timeoutMs,
        signal,
        onAbort: () => void client.remote().abort({ requestId }).catch(() => {}),
      })
    },
    async getBlockNumber(parameters: EvmChainParameters) {
      const { chainId } = withChainId(parameters)
      return call((r) => r.getBlockNumber({ chainId }))
    },
    async readContract(parameters: ContractCall & EvmChainParameters) {
      const contractCall = withChainId(parameters)
      return call((r) => r.readContract(contractCall))
    },
    /**
     * Contract reads batched through Multicall3 in the worker, results in the order of `contracts`. Thousands of calls
     * are posted in parts of 2,048, each in a task of its own, so copying them never blocks the page; the worker
     * starts on a part as it arrives.
     */
    async multicall(parameters: EvmChainParameters & { contracts: readonly ContractCall[] }): Promise<MulticallResult[]> {
      const { chainId, contracts } = withChainId(parameters)
      if (contracts.length <= MULTICALL_PART_SIZE) return call((r) => r.multicall({ chainId, contracts }))
      const parts: Promise<MulticallResult[]>[] = []
      for (let start = 0; start < contracts.length; start += MULTICALL_PART_SIZE) {
        if (start > 0) await yieldToPage()
        const part = call((r) => r.multicall({ chainId, contracts: contracts.slice(start, start + MULTICALL_PART_SIZE) }))
        // Handled below by Promise.all; until then a part that fails early is not an unhandled rejection.
        part.catch(() => {})
        parts.push(part)
      }
      return (await Promise.all(parts)).flat()
    },
    /**
     * A balance through the worker (cached 30 s unless `force`), into the mirrored store. By CAIP-2 id on any family:
     * the native balance in its smallest unit (wei, lamports, sats confirmed and pending, planck free). On EVM, also
     * an ERC-20's with `token`, and by numeric `chainId` (kept for hosts).
     * @example await core.getBalance({ caipNetworkId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', address })
     */
    async getBalance(parameters: BalanceByNetwork | (EvmChainParameters & { address: Address; token?: Address | null; force?: boolean })): Promise<bigint> {
      if ('token' in parameters && parameters.token) {
        const tokenBalance = withChainId(parameters)
        return call((r) => r.getBalance(tokenBalance))
      }
      if ('caipNetworkId' in parameters) return call((r) => r.getNativeBalance(parameters))
      return call((r) => r.getBalance(parameters))
    },
    async invalidateBalances(parameters: EvmChainParameters & { address: Address }) {
      const { chainId, address } = withChainId(parameters)
      return call((r) => r.invalidateBalances({ chainId, address }))
    },
    /** Tessera's data service and wallet registry (SPEC §7), called and cached in the worker. */
    dataService: Object.fromEntries(
      dataServiceMethods.map((method) => [method, (args?: Record<string, unknown>) => call((r) => r.callDataService({ method, args }))]),
    ) as unknown as CoreDataService,
    /** Logs fetched and decoded in the worker, every one copied to the page: for thousands of logs, queryLogs. */
    async getLogs(parameters: LogQuery) {
      const filter = withChainId(parameters)
      return call((r) => r.getLogs(filter))
    },
    /**
     * Fetches logs into the worker and answers `{ id, chainId, count }`; nothing is decoded or copied to the page until
     * readLogs (or iterateLogs) asks for a slice. The worker holds the 16 sets read last: releaseLogs frees one sooner.
     * @example
     * const transfers = await core.queryLogs({ caipNetworkId: 'eip155:1', address: token, abi: erc20Abi, eventName: 'Transfer', fromBlock: 0n })
     * const firstPage = await core.readLogs(transfers, { offset: 0, limit: 50 })
     */
    async queryLogs(parameters: LogQuery) {
      const filter = withChainId(parameters)
      return call((r) => r.queryLogs(filter))
    },
    /** `limit` logs (100 unless given, at most 10,000) of a set from `offset`, decoded in the worker. */
    readLogs,
    /** Every log of a set in order, `pageSize` (500 unless given) at a time: `for await (const page of core.iterateLogs(set))`. */
    iterateLogs,
    /** Frees a set in the worker; answers whether it was still held. */
    releaseLogs: (logs: LogSet) => call((r) => r.releaseLogs({ id: logs.id })),
    decodeEventLogs: (parameters: { abi: Abi; logs: readonly Log[]; eventName?: string }) => call((r) => r.decodeEventLogs(parameters)),
    async waitForTransactionReceipt(parameters: EvmChainParameters & { hash: Hex; timeoutMs?: number; pollingIntervalMs?: number }) {
      const { timeoutMs = 180_000, ...receiptQuery } = withChainId(parameters)
      return call((r) => r.waitForTransactionReceipt({ ...receiptQuery, timeoutMs }), { timeoutMs: timeoutMs + 5_000 })
    },
    /**
     * Calls onBlockNumber with each new block number of the chain; returns the function that stops watching. A CAIP-2
     * id that is not `eip155:<n>` throws NETWORK_NOT_FOUND at once.
     */
    watchBlockNumber(parameters: EvmChainParameters, onBlockNumber: (blockNumber: bigint) => void) {
      const { chainId } = withChainId(parameters)
      const watchId = `${++nextId}`
      blockWatches.set(watchId, { chainId })
      let last = mirror.store.getState().blockNumbers[chainId]
      if (last !== undefined) onBlockNumber(last)
      const unsubscribe = mirror.store.subscribe((state) => {
        const blockNumber = state.blockNumbers[chainId]
        if (blockNumber === undefined || blockNumber === last) return
        last = blockNumber
        onBlockNumber(blockNumber)
      })
      void call((r) => r.watchBlockNumber({ watchId, chainId })).catch(() => {})
      return () => {
        unsubscribe()
        blockWatches.delete(watchId)
        void call((r) => r.unwatchBlockNumber({ watchId })).catch(() => {})
      }
    },
    /**
     * What a transaction will do, worked out in the worker before the wallet is asked (issue #36): the call decoded,
     * the account's balance changes simulated on the chain's node, the fee, and warnings (an unlimited approval with
     * token and spender, a revert and why, what could not be checked).
     * @example const review = await core.reviewTransaction({ caipNetworkId: 'eip155:1', request: { from, to: usdc, data } })
     */
    async reviewTransaction(parameters: ReviewQuery & { request: TransactionToReview }) {
      const { timeoutMs = REVIEW_TIMEOUT_MS, ...review } = withChainId(parameters)
      return call((r) => r.reviewTransaction(review), { timeoutMs })
    },
    /**
     * What a wallet_sendCalls batch will do: each call decoded, the batch simulated as one, in order.
     * @example const review = await core.reviewCalls({ caipNetworkId: 'eip155:1', from, calls: [{ to: usdc, data }] })
     */
    async reviewCalls(parameters: ReviewQuery & { from: Address; calls: readonly CallToReview[] }) {
      const { timeoutMs = REVIEW_TIMEOUT_MS, ...review } = withChainId(parameters)
      return call((r) => r.reviewCalls(review), { timeoutMs })
    },
    /**
     * Typed data (eth_signTypedData_v4) laid out in the worker: its domain, its message field by field, approvals
     * called out. The connected chain, by `caipNetworkId` or `chainId`, is optional: typed data for another is flagged.
     * @example const review = await core.reviewTypedData({ caipNetworkId: 'eip155:1', typedData })
     */
    async reviewTypedData({ caipNetworkId, ...parameters }: TypedDataReviewQuery & { caipNetworkId?: string }) {
      const query = caipNetworkId === undefined ? parameters : { ...parameters, ...withChainId({ caipNetworkId }) }
      return call((r) => r.reviewTypedData(query))
    },
    /** Loads the review engine in the worker ahead of the first review; a failure is the first review's to report. */
    prefetchReview() {
      void call((r) => r.prefetchReview()).catch(() => {})
    },
    // core.solana, core.bitcoin, core.polkadot: each family's calls (src/shared/families/<namespace>/coreApi.ts).
    ...(Object.fromEntries(Object.entries(coreFamilies).map(([namespace, { member, calls }]) => [member, createFamilyMember(namespace as FamilyNamespace, calls, client)])) as CoreFamilyMembers),
    /** How many times a dead worker was replaced. */
    getRestartCount: client.getRestartCount,
    /** Ends the worker, its store port and every pending call; nothing of the core is left running. */
    destroy() {
      if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisibilityChange)
      client.destroy()
    },
  }
}

export type Core = ReturnType<typeof createCore>
