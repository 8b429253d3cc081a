import { createClient, fallback, http, type Abi, type Address, type Client, type Hex } from 'viem'
import { getBlockNumber, multicall, readContract, watchBlockNumber } from 'viem/actions'

export type Eip155ChainConfig = {
  chainId: number
  name?: string
  rpcUrls: readonly string[]
  /** Multicall3 address; defaults to the canonical one. */
  multicall3?: Address
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

const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11'
const MULTICALL_BATCH_SIZE_BYTES = 1_024

export type Eip155Client = ReturnType<typeof createEip155Client>

/**
 * A viem client for one EVM chain, living in the worker: reads are batched through Multicall3 and
 * results are decoded here, so the main thread only receives plain values.
 */
export function createEip155Client({ chainId, name = `eip155:${chainId}`, rpcUrls, multicall3 = MULTICALL3_ADDRESS }: Eip155ChainConfig) {
  const client: Client = createClient({
    chain: {
      id: chainId,
      name,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [...rpcUrls] } },
      contracts: { multicall3: { address: multicall3 } },
    },
    transport: fallback(rpcUrls.map((url) => http(url))),
    batch: { multicall: { batchSize: MULTICALL_BATCH_SIZE_BYTES, wait: 0 } },
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
    watchBlockNumber: (onBlockNumber: (blockNumber: bigint) => void, { pollingIntervalMs = 1_000 } = {}) =>
      watchBlockNumber(client, { onBlockNumber, emitOnBegin: true, poll: true, pollingInterval: pollingIntervalMs }),
    request: (method: string, params: readonly unknown[] = []) =>
      client.request({ method, params } as never) as Promise<unknown>,
  }
}

export type { Hex }
