import {
  createClient,
  encodeEventTopics,
  erc20Abi,
  numberToHex,
  type Abi,
  type Address,
  type Client,
  type Hex,
  type RpcLog,
} from 'viem'
import {
  getBalance,
  getBlockNumber,
  readContract,
  waitForTransactionReceipt,
} from 'viem/actions'
import { fallbackTransport } from '../../rpc-transport/fallback'
import { httpTransport } from '../../rpc-transport/http'
import type { TransportRanking } from '../../rpc-transport/ranking'
import type { ContractCall, DecodedLog, Eip155ChainConfig, LogFilter, MulticallResult } from '../../../shared/protocol/core/coreApi'
import { createLogDecoder, type AnyLog } from './createLogDecoder'
import { multicall } from './multicall'

const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11'
const MULTICALL_BATCH_SIZE_BYTES = 1_024
const MAX_ERROR_MESSAGE_LENGTH = 1_000

// viem's messages quote the whole request body: a failed batch of thousands of reads would copy megabytes per read.
const capMessage = (message: string) => (message.length > MAX_ERROR_MESSAGE_LENGTH ? `${message.slice(0, MAX_ERROR_MESSAGE_LENGTH)}…` : message)

/** Decodes logs (as the node sent them or formatted by viem) against an ABI; logs that match no event of it are left out. */
export function decodeLogs({ abi, logs, eventName }: { abi: Abi; logs: readonly AnyLog[]; eventName?: string }): DecodedLog[] {
  const decoder = createLogDecoder({ abi, eventName })
  const decoded: DecodedLog[] = []
  for (const log of logs) {
    const one = decoder.decode(log)
    if (one) decoded.push(one)
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
  blockTime,
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
      // viem polls for a receipt twice per block (0.5 to 4 s); every 4 s without it.
      blockTime,
    },
    transport: fallbackTransport(
      rpcUrls.map((url) => httpTransport(url)),
      { rank, onRanking },
    ),
    batch: { multicall: { batchSize: MULTICALL_BATCH_SIZE_BYTES, wait: 0 } },
    cacheTime: 0,
  })

  // An explicit multicall is chunked into aggregate3 calls already: not through the client's read batching again.
  const unbatchedClient: Client = { ...client, batch: undefined }

  /** The node's eth_getLogs answer, undecoded (hex quantities); with `eventName`, the event's topic filters it. */
  const fetchLogs = ({ address, abi, eventName, fromBlock, toBlock }: Omit<LogFilter, 'chainId'>) => {
    const event = eventName ? abi.find((item) => item.type === 'event' && item.name === eventName) : undefined
    const topics = event ? encodeEventTopics({ abi: [event] }) : []
    const blockTag = (block: bigint | undefined) => (block === undefined ? undefined : numberToHex(block))
    return client.request({
      method: 'eth_getLogs',
      params: [{ address, topics, fromBlock: blockTag(fromBlock), toBlock: blockTag(toBlock) }],
    } as never) as Promise<RpcLog[]>
  }

  return {
    chainId,
    getBlockNumber: () => getBlockNumber(client, { cacheTime: 0 }),
    readContract: (call: ContractCall) => readContract(client, call),
    multicall: async (contracts: readonly ContractCall[]): Promise<MulticallResult[]> => {
      const results = await multicall(unbatchedClient, { contracts, multicallAddress: multicall3, batchSize: MULTICALL_BATCH_SIZE_BYTES })
      return results.map((r) =>
        r.status === 'success'
          ? { status: 'success', result: r.result }
          : { status: 'failure', error: { name: r.error.name, message: capMessage(r.error.message) } },
      )
    },
    /** The native balance, or an ERC-20 balance when `token` is given (batched with other reads through Multicall3). */
    getBalance: ({ address, token }: { address: Address; token?: Address | null }) =>
      token
        ? readContract(client, { address: token, abi: erc20Abi, functionName: 'balanceOf', args: [address] })
        : getBalance(client, { address }),
    fetchLogs,
    /** The logs decoded once, here (viem's getLogs would decode them a first time). */
    getLogs: async (filter: Omit<LogFilter, 'chainId'>) => decodeLogs({ abi: filter.abi, eventName: filter.eventName, logs: await fetchLogs(filter) }),
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
