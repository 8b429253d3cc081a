import { proxy, releaseProxy, wrap } from 'comlink'
import type { CoreConfig } from '../worker/api'
import type { ExposedWorkerApi as WorkerApi } from '../worker/worker'

export type CreateCoreParameters = CoreConfig & {
  /** Starts the worker; tests and hosts with their own bundling can pass one. */
  createWorker?: () => Worker
}

function startWorker() {
  return new Worker(new URL('../worker/worker.ts', import.meta.url), { type: 'module', name: 'tessera-core' })
}

/**
 * Starts Tessera's core in a dedicated Web Worker and returns its client.
 * @example const core = createCore({ chains: [{ chainId: 31337, rpcUrls: ['http://127.0.0.1:8545'] }] })
 */
export function createCore({ createWorker = startWorker, ...config }: CreateCoreParameters) {
  const worker = createWorker()
  const remote = wrap<WorkerApi>(worker)
  const ready = remote.configure(config)

  const call = async <T>(run: () => Promise<T>) => {
    await ready
    return run()
  }

  return {
    ping: () => call(() => remote.ping()),
    getBlockNumber: (parameters: { chainId: number }) => call(() => remote.getBlockNumber(parameters)),
    readContract: (parameters: Parameters<WorkerApi['readContract']>[0]) => call(() => remote.readContract(parameters)),
    multicall: (parameters: Parameters<WorkerApi['multicall']>[0]) => call(() => remote.multicall(parameters)),
    request: (parameters: Parameters<WorkerApi['request']>[0]) => call(() => remote.request(parameters)),
    /** Calls onBlockNumber with each new block; returns the function that stops watching. */
    watchBlockNumber(parameters: { chainId: number; pollingIntervalMs?: number }, onBlockNumber: (blockNumber: bigint) => void) {
      const unwatch = call(() => remote.watchBlockNumber(parameters, proxy(onBlockNumber)))
      return () => {
        void unwatch.then((stop) => stop())
      }
    },
    destroy() {
      remote[releaseProxy]()
      worker.terminate()
    },
  }
}

export type Core = ReturnType<typeof createCore>
