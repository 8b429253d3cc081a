import { createEip155Client, type ContractCall, type Eip155ChainConfig, type Eip155Client } from './chain-clients/eip155'

export type CoreConfig = { chains: readonly Eip155ChainConfig[] }

/**
 * The worker's API, exposed to the main thread with comlink. Each worker holds its own clients:
 * two widgets on one page start two workers and share nothing.
 */
export function createWorkerApi() {
  const clients = new Map<number, Eip155Client>()

  const clientFor = (chainId: number) => {
    const client = clients.get(chainId)
    if (!client) throw new Error(`Network not found: eip155:${chainId} is not configured in the core`)
    return client
  }

  return {
    ping: () => ({ isWorker: typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined', at: Date.now() }),
    configure({ chains }: CoreConfig) {
      clients.clear()
      for (const chain of chains) clients.set(chain.chainId, createEip155Client(chain))
    },
    getBlockNumber: ({ chainId }: { chainId: number }) => clientFor(chainId).getBlockNumber(),
    readContract: ({ chainId, ...call }: ContractCall & { chainId: number }) => clientFor(chainId).readContract(call),
    multicall: ({ chainId, contracts }: { chainId: number; contracts: readonly ContractCall[] }) =>
      clientFor(chainId).multicall(contracts),
    request: ({ chainId, method, params }: { chainId: number; method: string; params?: readonly unknown[] }) =>
      clientFor(chainId).request(method, params),
    watchBlockNumber: (
      { chainId, pollingIntervalMs }: { chainId: number; pollingIntervalMs?: number },
      onBlockNumber: (blockNumber: bigint) => void,
    ) => clientFor(chainId).watchBlockNumber(onBlockNumber, { pollingIntervalMs }),
  }
}

export type WorkerApi = ReturnType<typeof createWorkerApi>
