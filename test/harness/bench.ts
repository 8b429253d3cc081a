import { createPublicClient, erc20Abi, http, parseAbiItem, type Address } from 'viem'
import { createCore } from '../../src/main'

/** The heavy-dApp scenario of `npm run bench:core`: 2,000 balanceOf reads, then 10,000 Transfer logs decoded. */
export type BenchInput = { chainId: number; rpcUrl: string; multicall3: Address; token: Address; emitter: Address; holders: Address[] }
export type BenchResult = { wallMs: number; longTasks: number; mainThreadTbtMs: number; reads: number; logs: number }

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

async function measure(scenario: () => Promise<{ reads: number; logs: number }>): Promise<BenchResult> {
  const stop = observeLongTasks()
  const started = performance.now()
  const counts = await scenario()
  const wallMs = performance.now() - started
  const durations = await stop()
  return {
    wallMs: Math.round(wallMs),
    longTasks: durations.length,
    mainThreadTbtMs: Math.round(durations.reduce((sum, d) => sum + Math.max(0, d - 50), 0)),
    ...counts,
  }
}

const balanceCalls = ({ token, holders }: BenchInput) =>
  holders.map((holder) => ({ address: token, abi: erc20Abi, functionName: 'balanceOf' as const, args: [holder] as const }))

async function runCore(input: BenchInput) {
  const core = createCore({ chains: [{ chainId: input.chainId, rpcUrls: [input.rpcUrl], multicall3: input.multicall3 }] })
  await core.ping()
  const result = await measure(async () => {
    const reads = await core.multicall({ chainId: input.chainId, contracts: balanceCalls(input) })
    const logs = await core.getLogs({ chainId: input.chainId, address: input.emitter, abi: [transferEvent], eventName: 'Transfer', fromBlock: 0n })
    return { reads: reads.length, logs: logs.length }
  })
  core.destroy()
  return result
}

async function runBaseline(input: BenchInput) {
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
  return measure(async () => {
    const reads = await client.multicall({ contracts: balanceCalls(input) })
    const logs = await client.getLogs({ address: input.emitter, event: transferEvent, fromBlock: 0n })
    return { reads: reads.length, logs: logs.length }
  })
}

declare global {
  interface Window {
    bench: { runCore: typeof runCore; runBaseline: typeof runBaseline }
  }
}

window.bench = { runCore, runBaseline }
document.getElementById('status')!.textContent = 'ready'
