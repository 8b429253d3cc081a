import type { Abi, Address, Hex, Log, TransactionReceipt } from 'viem'
import type { CoreState, MessageTarget } from './coreState'
import type { BitcoinChainConfig, BitcoinCoreApi } from '../../families/bip122/coreApi'
import type { DataServiceMethod } from './dataService'
import type { PolkadotChainConfig, PolkadotCoreApi } from '../../families/polkadot/coreApi'
import type { CallToReview, CallsReview, NativeCurrency, TransactionReview, TransactionToReview, TypedDataReview, TypedDataToReview } from '../review'
import type { SolanaChainConfig, SolanaCoreApi } from '../../families/solana/coreApi'

/** One EVM chain the core reads: its RPC URLs, in order of preference until ranking has run. */
export type Eip155ChainConfig = {
  chainId: number
  name?: string
  rpcUrls: readonly string[]
  /** Multicall3 address; defaults to the canonical one. */
  multicall3?: Address
  /** Milliseconds between blocks: a receipt is looked for every half block (viem's rule: 0.5 to 4 s; 4 s unless given). */
  blockTime?: number
}

/**
 * The chain families the core serves besides EVM, by namespace: each one's calls (`core.solana`, `core.bitcoin`, …)
 * and the config of one of its networks, as its folder in src/shared/families declares them. The family tables of the
 * page (src/main/core/familyModules.ts) and of the worker (src/worker/families/index.ts) have a line for each.
 */
export type CoreFamilies = {
  solana: { api: SolanaCoreApi; chain: SolanaChainConfig }
  bip122: { api: BitcoinCoreApi; chain: BitcoinChainConfig }
  polkadot: { api: PolkadotCoreApi; chain: PolkadotChainConfig }
}

export type FamilyNamespace = keyof CoreFamilies

/**
 * How the core treats one of a family's calls: `maxWaitMs`, how long a call that waits on the chain waits unless told
 * (the page 5 s more); `changesBalances`, the worker's cached balances of the network are stale once it answers.
 */
export type FamilyCallRule = { maxWaitMs?: number; changesBalances?: boolean }

/** A family's calls by name, each with its rule (`<family>CoreCalls` in src/shared/families/<namespace>/coreApi.ts). */
export type FamilyCalls<N extends FamilyNamespace> = { [M in keyof CoreFamilies[N]['api']]: FamilyCallRule }

/** What `core.<family>.<method>` takes. */
export type FamilyCallParameters<N extends FamilyNamespace, M extends keyof CoreFamilies[N]['api']> = CoreFamilies[N]['api'][M] extends (parameters: infer P) => unknown ? P : never

/** What `core.<family>.<method>` answers. */
export type FamilyCallAnswer<N extends FamilyNamespace, M extends keyof CoreFamilies[N]['api']> = CoreFamilies[N]['api'][M] extends (...parameters: never[]) => infer A ? A : never

/** What the page gives the core's worker. */
export type CoreConfig = {
  chains: readonly Eip155ChainConfig[]
  /**
   * The other families' networks by namespace (`{ solana: [...], bip122: [...], polkadot: [...] }`); a family's client
   * (and its libraries: @solana/kit, bitcoinjs-lib, dedot) loads in the worker only when it has one.
   */
  familyChains?: { [N in FamilyNamespace]?: readonly CoreFamilies[N]['chain'][] }
  /** Where the core worker imports each configured family's client from (see src/main/core/familyModules.ts). */
  familyModules?: FamilyModules
  /** Where the core worker imports the review engine from at the first review (src/worker/review/reviewModule.ts). */
  reviewModule?: string
  /** Rank each chain's RPC URLs by latency and stability (SPEC §4); on unless set to false. */
  rankTransports?: boolean
  /** How often watched block numbers are polled. */
  blockPollingIntervalMs?: number
  /** Our data service and wallet registry; without it, data-service calls fail with SERVICE_NOT_CONFIGURED. */
  dataService?: { baseUrl: string; walletRegistryUrl?: string; projectId: string; sdkVersion: string; supportedCaipNetworkIds?: readonly string[] }
}

export type ContractCall = {
  address: Address
  abi: Abi
  functionName: string
  args?: readonly unknown[]
}

export type MulticallResult =
  | { status: 'success'; result: unknown }
  | { status: 'failure'; error: { name: string; message: string } }

export type DecodedLog = {
  eventName: string | undefined
  args: unknown
  address: Address
  blockNumber: bigint | null
  transactionHash: Hex | null
  logIndex: number | null
}

/** Which logs to fetch: eth_getLogs's filter, with the ABI they are decoded against. */
export type LogFilter = { chainId: number; abi: Abi; address?: Address | Address[]; eventName?: string; fromBlock?: bigint; toBlock?: bigint }

/** Logs held in the worker, read by slices: `count` of them, from offset 0 to count - 1. */
export type LogSet = { id: string; chainId: number; count: number }

type Awaitable<T> = T | Promise<T>

/**
 * A request to review on an EVM chain (issue #36): `descriptors` are ERC-7730 calldata descriptors the site provides,
 * as JSON; `nativeCurrency` is ETH's unless given.
 */
export type ChainReviewQuery = { chainId: number; descriptors?: readonly unknown[]; nativeCurrency?: NativeCurrency }

/** Typed data to review, as eth_signTypedData_v4 carries it; `chainId`, the connected chain, calls out a mismatch. */
export type TypedDataReviewQuery = { typedData: TypedDataToReview | string; chainId?: number }

/**
 * The core worker's API as the page calls it over comlink (every call answers a promise on the page). The worker's
 * implementation is checked against it, so the two cannot drift apart.
 */
export type CoreWorkerApi = {
  ping(): Awaitable<{ isWorker: boolean; at: number }>
  configure(config: CoreConfig): Awaitable<void>
  /** Starts publishing the store to the page over `port`. */
  connectStore(port: MessageTarget): Awaitable<void>
  /** The page tells the worker when it is hidden: polling pauses until it is visible again. */
  setVisibility(visible: boolean): Awaitable<void>
  getBlockNumber(parameters: { chainId: number }): Promise<bigint>
  watchBlockNumber(parameters: { watchId: string; chainId: number }): Awaitable<void>
  unwatchBlockNumber(parameters: { watchId: string }): Awaitable<void>
  readContract(parameters: ContractCall & { chainId: number }): Promise<unknown>
  multicall(parameters: { chainId: number; contracts: readonly ContractCall[] }): Promise<MulticallResult[]>
  getBalance(parameters: { chainId: number; address: Address; token?: Address | null; force?: boolean }): Promise<bigint>
  /** The native balance on any configured network by CAIP-2 id, in its smallest unit (what the store mirrors for it). */
  getNativeBalance(parameters: { caipNetworkId: string; address: string; force?: boolean }): Promise<bigint>
  getLogs(parameters: LogFilter): Promise<DecodedLog[]>
  /** Fetches the logs and keeps them in the worker; answers how many there are. */
  queryLogs(parameters: LogFilter): Promise<LogSet>
  /** `limit` logs of a set from `offset`, decoded. */
  readLogs(parameters: { id: string; offset: number; limit: number }): Awaitable<DecodedLog[]>
  /** Forgets a set; answers whether the worker held it. */
  releaseLogs(parameters: { id: string }): Awaitable<boolean>
  decodeEventLogs(parameters: { abi: Abi; logs: readonly Log[]; eventName?: string }): Awaitable<DecodedLog[]>
  waitForTransactionReceipt(parameters: { chainId: number; hash: Hex; timeoutMs?: number; pollingIntervalMs?: number }): Promise<TransactionReceipt>
  /** A JSON-RPC request to the chain's nodes; `requestId` lets abort() cancel it. */
  request(parameters: { chainId: number; method: string; params?: readonly unknown[]; requestId?: string }): Promise<unknown>
  abort(parameters: { requestId: string }): Awaitable<void>
  invalidateBalances(parameters: { chainId: number; address: Address }): Awaitable<number>
  /** One call to the data service (its methods: dataServiceMethods), cached by kind where SPEC §9 gives a lifetime. */
  callDataService(parameters: { method: DataServiceMethod; args?: Record<string, unknown> }): Promise<unknown>
  getState(): Awaitable<CoreState>
  /** What a transaction will do before the wallet is asked: decoded, simulated on the chain's node, its fee and warnings. */
  reviewTransaction(parameters: ChainReviewQuery & { request: TransactionToReview }): Promise<TransactionReview>
  /** What a wallet_sendCalls batch will do, call by call, simulated as one. */
  reviewCalls(parameters: ChainReviewQuery & { from: Address; calls: readonly CallToReview[] }): Promise<CallsReview>
  /** Typed data's domain and message field by field, approvals called out; no node is asked. */
  reviewTypedData(parameters: TypedDataReviewQuery): Awaitable<TypedDataReview>
  /** Loads the review engine's module ahead of the first review (an account connected): it then answers at once. */
  prefetchReview(): Promise<void>
  /**
   * One call of a family's worker API, `core.<family>.<method>(args)` on the page: getBalance is cached (30 s, SPEC §9,
   * unless `force`) and its native amount kept in the store's balances under balanceKey(caipNetworkId, address).
   * @example await remote.familyCall({ namespace: 'bip122', method: 'getFeeRates', args: { caipNetworkId } })
   */
  familyCall<N extends FamilyNamespace, M extends keyof CoreFamilies[N]['api']>(call: { namespace: N; method: M; args: FamilyCallParameters<N, M> }): FamilyCallAnswer<N, M>
}

/** The URLs of the chain families' worker modules, by namespace. */
export type FamilyModules = { [N in FamilyNamespace]?: string }
