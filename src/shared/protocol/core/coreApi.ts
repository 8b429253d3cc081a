import type { Abi, Address, Hex, Log, TransactionReceipt } from 'viem'
import type { CoreState, MessageTarget } from './coreState'
import type { BitcoinBalance, BitcoinChainConfig, BitcoinConfirmation, BitcoinFeeRates, BitcoinTransfer, BitcoinTransferParameters } from '../../families/bip122/coreApi'
import type { DataServiceMethod } from './dataService'
import type {
  PolkadotBalance,
  PolkadotChainConfig,
  PolkadotChainInfo,
  PolkadotInclusion,
  PolkadotSignerPayload,
  PolkadotSubmission,
  PolkadotTransfer,
  PolkadotTransferParameters,
} from '../../families/polkadot/coreApi'
import type { SolanaChainConfig, SolanaConfirmation, SolanaTokenBalance, SolanaTransfer, SolanaTransferParameters } from '../../families/solana/coreApi'

/** One EVM chain the core reads: its RPC URLs, in order of preference until ranking has run. */
export type Eip155ChainConfig = {
  chainId: number
  name?: string
  rpcUrls: readonly string[]
  /** Multicall3 address; defaults to the canonical one. */
  multicall3?: Address
}

/** What the page gives the core's worker. */
export type CoreConfig = {
  chains: readonly Eip155ChainConfig[]
  /** Solana clusters; their client loads in the worker only when there is one. */
  /** Where the core worker imports each configured family's client from (see src/main/core/familyModules.ts). */
  familyModules?: FamilyModules
  solanaChains?: readonly SolanaChainConfig[]
  /** Bitcoin networks and their Esplora APIs; their client (and bitcoinjs-lib) loads in the worker only when there is one. */
  bitcoinChains?: readonly BitcoinChainConfig[]
  /** Polkadot-SDK networks and their WebSocket RPC; their client (and @polkadot/api) loads in the worker only when there is one. */
  polkadotChains?: readonly PolkadotChainConfig[]
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
  /** SOL in lamports; kept in the store's balances under balanceKey(caipNetworkId, address). */
  solanaGetBalance(parameters: { caipNetworkId: string; address: string; force?: boolean }): Promise<bigint>
  solanaGetTokenBalances(parameters: { caipNetworkId: string; owner: string }): Promise<SolanaTokenBalance[]>
  /** The unsigned wire transaction for the wallet to sign. */
  solanaBuildTransfer(parameters: SolanaTransferParameters & { caipNetworkId: string }): Promise<SolanaTransfer>
  /** The fee in lamports a wire transaction would pay. */
  solanaEstimateFee(parameters: { caipNetworkId: string; transaction: Uint8Array }): Promise<bigint>
  /** Sends the wallet's signed wire transaction; answers its base58 signature. */
  solanaSendTransaction(parameters: { caipNetworkId: string; transaction: Uint8Array }): Promise<string>
  solanaWaitForConfirmation(parameters: { caipNetworkId: string; signature: string; lastValidBlockHeight: bigint; pollIntervalMs?: number; maxWaitMs?: number }): Promise<SolanaConfirmation>
  /** Sats; confirmed + pending kept in the store's balances under balanceKey(caipNetworkId, address). */
  bitcoinGetBalance(parameters: { caipNetworkId: string; address: string; force?: boolean }): Promise<BitcoinBalance>
  bitcoinGetFeeRates(parameters: { caipNetworkId: string }): Promise<BitcoinFeeRates>
  /** The unsigned PSBT for the wallet to sign, with its fee, inputs and change. */
  bitcoinBuildTransfer(parameters: BitcoinTransferParameters & { caipNetworkId: string }): Promise<BitcoinTransfer>
  /** Sends a signed raw transaction (hex); answers its txid. */
  bitcoinBroadcast(parameters: { caipNetworkId: string; txHex: string }): Promise<string>
  /** Finalizes the PSBT the wallet signed, extracts and sends it; answers its txid. */
  bitcoinFinalizeAndBroadcast(parameters: { caipNetworkId: string; psbtBase64: string }): Promise<string>
  bitcoinWaitForConfirmation(parameters: { caipNetworkId: string; txid: string; pollIntervalMs?: number; maxWaitMs?: number }): Promise<BitcoinConfirmation>
  polkadotGetChainInfo(parameters: { caipNetworkId: string }): Promise<PolkadotChainInfo>
  /** Planck; `free` kept in the store's balances under balanceKey(caipNetworkId, address). */
  polkadotGetBalance(parameters: { caipNetworkId: string; address: string; force?: boolean }): Promise<PolkadotBalance>
  polkadotEstimateTransferFee(parameters: PolkadotTransferParameters & { caipNetworkId: string }): Promise<bigint>
  /** The signing payload of a transferKeepAlive for the extension's signer, its fee and the era's end. */
  polkadotBuildTransfer(parameters: PolkadotTransferParameters & { caipNetworkId: string }): Promise<PolkadotTransfer>
  /** Adds the extension's signature to the payload and submits it. */
  polkadotSubmitTransfer(parameters: { caipNetworkId: string; payload: PolkadotSignerPayload; signature: string }): Promise<PolkadotSubmission>
  polkadotWaitForTransaction(parameters: {
    caipNetworkId: string
    submission: PolkadotSubmission
    until?: 'inBlock' | 'finalized'
    pollIntervalMs?: number
    maxWaitMs?: number
  }): Promise<PolkadotInclusion>
}

/** The URLs of the chain families' worker modules, by family. */
export type FamilyModules = { solana?: string; bitcoin?: string; polkadot?: string }
