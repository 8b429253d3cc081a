import {
  createClient,
  decodeEventLog,
  erc20Abi,
  type Abi,
  type Address,
  type Client,
  type Hex,
  type Log,
} from 'viem'
import {
  getBalance,
  getBlockNumber,
  getLogs,
  multicall,
  readContract,
  waitForTransactionReceipt,
} from 'viem/actions'
import { fallbackTransport } from '../rpc-transport/fallback'
import { httpTransport } from '../rpc-transport/http'
import type { TransportRanking } from '../rpc-transport/ranking'
import type { ContractCall, DecodedLog, Eip155ChainConfig, MulticallResult } from '../../shared/protocol/core/coreApi'

const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11'
const MULTICALL_BATCH_SIZE_BYTES = 1_024

/** Decodes raw logs against an ABI; logs that match no event of it are left out. */
export function decodeLogs({ abi, logs, eventName }: { abi: Abi; logs: readonly Log[]; eventName?: string }): DecodedLog[] {
  const decoded: DecodedLog[] = []
  for (const log of logs) {
    try {
      const event = decodeEventLog({ abi, data: log.data, topics: log.topics, eventName, strict: true })
      decoded.push({
        eventName: event.eventName,
        args: event.args,
        address: log.address,
        blockNumber: log.blockNumber,
        transactionHash: log.transactionHash,
        logIndex: log.logIndex,
      })
    } catch {
      // not one of the ABI's events
    }
  }
  return decoded
}

/**
 * A viem client for one EVM chain, living in the worker: our HTTP transports behind a ranked fallback,
 * reads batched through Multicall3, results and logs decoded here so the main thread gets plain values.
 */
export function createEip155Client({
  chainId,
  name = `eip155:${chainId}`,
  rpcUrls,
  multicall3 = MULTICALL3_ADDRESS,
  rank = true,
  onRanking,
}: Eip155ChainConfig & {
  /** Rank the RPC URLs by latency and stability (SPEC §4): on, so requests start on the best node and hedges are timed by it. */
  rank?: boolean
  onRanking?: (ranking: TransportRanking) => void
}) {
  const client: Client = createClient({
    chain: {
      id: chainId,
      name,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [...rpcUrls] } },
      contracts: { multicall3: { address: multicall3 } },
    },
    transport: fallbackTransport(
      rpcUrls.map((url) => httpTransport(url)),
      { rank, onRanking },
    ),
    batch: { multicall: { batchSize: MULTICALL_BATCH_SIZE_BYTES, wait: 0 } },
    cacheTime: 0,
  })

  return {
    chainId,
    getBlockNumber: () => getBlockNumber(client, { cacheTime: 0 }),
    readContract: (call: ContractCall) => readContract(client, call),
    multicall: async (contracts: readonly ContractCall[]): Promise<MulticallResult[]> => {
      const results = await multicall(client, { contracts, allowFailure: true, batchSize: MULTICALL_BATCH_SIZE_BYTES })
      return results.map((r) =>
        r.status === 'success'
          ? { status: 'success', result: r.result }
          : { status: 'failure', error: { name: r.error.name, message: r.error.message } },
      )
    },
    /** The native balance, or an ERC-20 balance when `token` is given (batched with other reads through Multicall3). */
    getBalance: ({ address, token }: { address: Address; token?: Address | null }) =>
      token
        ? readContract(client, { address: token, abi: erc20Abi, functionName: 'balanceOf', args: [address] })
        : getBalance(client, { address }),
    getLogs: async ({ address, abi, eventName, fromBlock, toBlock }: {
      address?: Address | Address[]
      abi: Abi
      eventName?: string
      fromBlock?: bigint
      toBlock?: bigint
    }) => {
      const event = eventName ? abi.find((item) => item.type === 'event' && item.name === eventName) : undefined
      const logs = await getLogs(client, { address, event: event as never, fromBlock, toBlock })
      return decodeLogs({ abi, logs: logs as Log[], eventName })
    },
    waitForTransactionReceipt: ({ hash, timeoutMs = 180_000, retryCount = 6, confirmations = 1, pollingIntervalMs }: {
      hash: Hex
      timeoutMs?: number
      retryCount?: number
      confirmations?: number
      pollingIntervalMs?: number
    }) => waitForTransactionReceipt(client, { hash, timeout: timeoutMs, retryCount, confirmations, pollingInterval: pollingIntervalMs }),
    request: (method: string, params: readonly unknown[] = [], signal?: AbortSignal) =>
      client.request({ method, params } as never, signal ? ({ signal } as never) : undefined) as Promise<unknown>,
  }
}

export type Eip155Client = ReturnType<typeof createEip155Client>
