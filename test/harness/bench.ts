import { createPublicClient, encodeEventTopics, erc20Abi, http, parseAbiItem, parseEventLogs, type Address } from 'viem'
import { createCore } from '../../src/main'

/** The heavy-dApp scenario of `npm run bench:core`: `holderCount` balanceOf reads, then the emitter's Transfer logs decoded. */
export type BenchInput = { chainId: number; rpcUrl: string; multicall3: Address; token: Address; emitter: Address; holderCount: number }
/**
 * How the core gets the logs: `slice` keeps them in the worker and reads the first page (what a heavy dApp should do),
 * `pages` reads every page through iterateLogs, `copy` is getLogs (every decoded log copied to the page at once).
 */
export type CoreLogsMode = 'slice' | 'pages' | 'copy'
export type BenchResult = { wallMs: number; readsMs: number; logsMs: number; longTasks: number; mainThreadTbtMs: number; reads: number; logs: number }

const FIRST_PAGE = 100
const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')

export function observeLongTasks() {
  const durations: number[] = []
  const observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => durations.push(e.duration)))
  observer.observe({ type: 'longtask' })
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 200))
    durations.push(...observer.takeRecords().map((e) => e.duration))
    observer.disconnect()
    return durations
  }
}

/**
 * Runs the reads, then the logs (skipped when `logs` is undefined), timing each and the whole. The calls are built
 * before, in a task that ends before the long tasks are observed: an observer made during a long task is told of it,
 * and building 32,000 calls is the page's own work, not the library's.
 */
async function measure({ reads, logs }: { reads: () => Promise<number>; logs?: () => Promise<number> }): Promise<BenchResult> {
  await new Promise((resolve) => setTimeout(resolve, 0))
  const stop = observeLongTasks()
  const started = performance.now()
  const readCount = await reads()
  const readsDone = performance.now()
  const logCount = logs ? await logs() : 0
  const done = performance.now()
  const durations = await stop()
  return {
    wallMs: Math.round(done - started),
    readsMs: Math.round(readsDone - started),
    logsMs: Math.round(done - readsDone),
    longTasks: durations.length,
    mainThreadTbtMs: Math.round(durations.reduce((sum, d) => sum + Math.max(0, d - 50), 0)),
    reads: readCount,
    logs: logCount,
  }
}

const holderAt = (i: number) => `0x${(0x10000 + i).toString(16).padStart(40, '0')}` as Address

const balanceCalls = ({ token, holderCount }: BenchInput) =>
  Array.from({ length: holderCount }, (_, i) => ({ address: token, abi: erc20Abi, functionName: 'balanceOf' as const, args: [holderAt(i)] as const }))

const transferFilter = (input: BenchInput) => ({ address: input.emitter, abi: [transferEvent], eventName: 'Transfer', fromBlock: 0n })

/** Through the worker core. The count of logs is the set's (slice), or what reached the page (pages, copy). */
async function runCore(input: BenchInput, logsMode?: CoreLogsMode) {
  const core = createCore({ chains: [{ chainId: input.chainId, rpcUrls: [input.rpcUrl], multicall3: input.multicall3 }] })
  await core.ping()
  const chainId = input.chainId
  const logs = {
    async slice() {
      const set = await core.queryLogs({ chainId, ...transferFilter(input) })
      const firstPage = await core.readLogs(set, { offset: 0, limit: FIRST_PAGE })
      if (firstPage.length !== Math.min(FIRST_PAGE, set.count)) throw new Error(`read ${firstPage.length} logs of the first page`)
      return set.count
    },
    async pages() {
      const set = await core.queryLogs({ chainId, ...transferFilter(input) })
      let count = 0
      for await (const page of core.iterateLogs(set, { pageSize: 1_000 })) count += page.length
      return count
    },
    copy: async () => (await core.getLogs({ chainId, ...transferFilter(input) })).length,
  }
  const contracts = balanceCalls(input)
  const result = await measure({
    reads: async () => (await core.multicall({ chainId, contracts })).length,
    logs: logsMode && logs[logsMode],
  })
  core.destroy()
  return result
}

/**
 * viem's public client on the main thread, as a dApp without the core would do it: getLogs decodes every log
 * (`decodeAll`), or the raw eth_getLogs answer is kept and only the first page decoded (`slice`, the core's way).
 */
async function runBaseline(input: BenchInput, logsMode: 'decodeAll' | 'slice' = 'decodeAll') {
  const client = createPublicClient({
    chain: {
      id: input.chainId,
      name: 'bench',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [input.rpcUrl] } },
      contracts: { multicall3: { address: input.multicall3 } },
    },
    transport: http(input.rpcUrl),
  })
  const contracts = balanceCalls(input)
  return measure({
    reads: async () => (await client.multicall({ contracts })).length,
    logs:
      logsMode === 'decodeAll'
        ? async () => (await client.getLogs({ address: input.emitter, event: transferEvent, fromBlock: 0n })).length
        : async () => {
            const raw = await client.request({ method: 'eth_getLogs', params: [{ address: input.emitter, topics: encodeEventTopics({ abi: [transferEvent] }), fromBlock: '0x0' }] })
            const firstPage = parseEventLogs({ abi: [transferEvent], logs: raw.slice(0, FIRST_PAGE) })
            if (firstPage.length !== Math.min(FIRST_PAGE, raw.length)) throw new Error(`decoded ${firstPage.length} logs of the first page`)
            return raw.length
          },
  })
}

declare global {
  interface Window {
    bench: { runCore: typeof runCore; runBaseline: typeof runBaseline }
  }
}

window.bench = { runCore, runBaseline }
document.getElementById('status')!.textContent = 'ready'
