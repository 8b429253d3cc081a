// `npm run bench:swap`: the data service's swap quotes per second on loopback, against anvil seeded with Uniswap V2
// (services/api/swap/testing/startSwapChain.ts), bounded in time (about a minute on 2 cores: per figure 2 s of
// unmeasured load, then BENCH_RUNS loads of BENCH_DURATION_S, medians reported, each run's req/s in rpsEveryRun).
// Prints JSON: { cached, uncached, firstQuoteOfBlock, ceilings: { httpHealth }, idleRssMb, loadRssMb, … }.
// - cached: the same quote again and again (same amount, same block): one eth_blockNumber per request (shared by the
//   requests in flight), the quote from the per-block cache;
// - uncached: another amount each request: the same block number read, the pools' reserves from the per-block reserve
//   cache, the amounts computed again;
// - firstQuoteOfBlock: one quote right after a new block, one at a time: the reserves read through Multicall3 too.
// Each load gives req/s, p50 and p99 latency, and the CPU ms per request of the service and of anvil. The data service
// runs as a child process from source under tsx (as `npm run services` runs it), so its RSS and CPU are its own.
import { execFileSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { createTestClient, http, parseEther } from 'viem'
import { startSwapChain } from '../../services/api/swap/testing/startSwapChain'
import { freePorts } from '../../services/stack/ports'
import { NATIVE_TOKEN_ADDRESS } from '../../src/shared/protocol/schemas/convert'
import { startDataService, stopProcess } from './serviceProcess'
import { median } from './stats'

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5)
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const WARMUP_S = 2
const CONNECTIONS = 10
const FIRST_OF_BLOCK_SAMPLES = 200
const PROJECT = 'bench'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const rssMb = (pid: number) => Math.round(Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)]).toString().trim()) / 1_024)
const CLOCK_TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim())
/** CPU time a process has used, user and system, in ms (/proc/<pid>/stat fields 14 and 15). */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1_000) / CLOCK_TICKS_PER_S
}
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!
const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits

type Load = { rps: number; p50Ms: number; p99Ms: number; errors: number; serviceCpuMsPerRequest: number; anvilCpuMsPerRequest: number }

/** Loads `url` (or each request's own path from `nextPath`) RUNS times after a warm-up; medians, and the child's highest RSS meanwhile. */
async function load(url: string, pids: { service: number; anvil: number }, nextPath?: () => string) {
  const runs: Load[] = []
  let highest = 0
  const sampler = setInterval(() => (highest = Math.max(highest, rssMb(pids.service))), 250)
  const options = { url, connections: CONNECTIONS, ...(nextPath ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: nextPath() }) }] } : {}) }
  try {
    await autocannon({ ...options, duration: WARMUP_S })
    for (let run = 0; run < RUNS; run++) {
      const before = { service: cpuMs(pids.service), anvil: cpuMs(pids.anvil) }
      const result = await autocannon({ ...options, duration: DURATION_S })
      const requests = Math.max(1, result.requests.total)
      runs.push({
        rps: Math.round(result.requests.average),
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        errors: result.errors + result.non2xx,
        serviceCpuMsPerRequest: round((cpuMs(pids.service) - before.service) / requests),
        anvilCpuMsPerRequest: round((cpuMs(pids.anvil) - before.anvil) / requests),
      })
    }
  } finally {
    clearInterval(sampler)
  }
  const medianOf = (pick: (load: Load) => number) => median(runs.map(pick))
  return {
    rps: medianOf((r) => r.rps),
    rpsEveryRun: runs.map((r) => r.rps),
    p50Ms: medianOf((r) => r.p50Ms),
    p99Ms: medianOf((r) => r.p99Ms),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    serviceCpuMsPerRequest: medianOf((r) => r.serviceCpuMsPerRequest),
    anvilCpuMsPerRequest: medianOf((r) => r.anvilCpuMsPerRequest),
    rssMb: highest,
  }
}

async function main() {
  const ports = await freePorts()
  const swapChain = await startSwapChain({ port: ports.anvil })
  const dir = mkdtempSync(join(tmpdir(), 'tessera-bench-swap-'))
  let child: ChildProcess | undefined
  try {
    const configPath = join(dir, 'config.json')
    // Indexing is not what is measured: the chain has no new transfers while the loads run (automine, no transactions).
    writeFileSync(configPath, JSON.stringify({ projects: [{ id: PROJECT, allowedOrigins: [] }], chains: [swapChain.chain], wallets: [] }))
    child = await startDataService({ DATABASE_URL: '', TESSERA_API_CONFIG: configPath, TESSERA_DATA_DIR: join(dir, 'data'), PORT: String(ports.api) })
    const pids = { service: child.pid!, anvil: swapChain.anvil.process.pid! }
    const base = `http://127.0.0.1:${ports.api}`
    const tusd = swapChain.seeded.tokens[0]!.address
    const quotePath = (amount: bigint) => `/v1/convert/quotes?projectId=${PROJECT}&from=eip155:31337:${NATIVE_TOKEN_ADDRESS}&to=eip155:31337:${tusd}&amount=${amount}`

    // The answer is a quote before anything is measured.
    const check = await fetch(`${base}${quotePath(parseEther('0.1'))}`)
    if (check.status !== 200) throw new Error(`bench: the quote answered ${check.status}: ${await check.text()}`)
    await sleep(1_000)
    const idleRssMb = rssMb(pids.service)

    // The HTTP layer alone (project check, JSON answer): the ceiling any route has here.
    const httpHealth = await load(`${base}/health`, pids)
    const cached = await load(`${base}${quotePath(parseEther('0.1'))}`, pids)
    let next = parseEther('0.001')
    const uncached = await load(base, pids, () => quotePath(next++))

    // One at a time, each right after a new block: the reserves are read from the chain again.
    const chain = createTestClient({ mode: 'anvil', transport: http(swapChain.anvil.rpcUrl) })
    const samples: number[] = []
    for (let i = 0; i < FIRST_OF_BLOCK_SAMPLES; i++) {
      await chain.mine({ blocks: 1 })
      const started = performance.now()
      const response = await fetch(`${base}${quotePath(parseEther('0.1') + BigInt(i))}`)
      await response.arrayBuffer()
      samples.push(performance.now() - started)
      if (response.status !== 200) throw new Error(`bench: a first quote of a block answered ${response.status}`)
    }
    samples.sort((a, b) => a - b)
    const firstQuoteOfBlock = { samples: samples.length, p50Ms: round(percentile(samples, 50), 2), p99Ms: round(percentile(samples, 99), 2) }

    const strip = ({ rssMb: _, ...figures }: Awaited<ReturnType<typeof load>>) => figures
    console.log(
      JSON.stringify(
        {
          cached: strip(cached),
          uncached: strip(uncached),
          firstQuoteOfBlock,
          ceilings: { httpHealth: strip(httpHealth) },
          idleRssMb,
          loadRssMb: Math.max(cached.rssMb, uncached.rssMb),
          loadRssMbByLeg: { httpHealth: httpHealth.rssMb, cached: cached.rssMb, uncached: uncached.rssMb },
          durationS: DURATION_S,
          runs: RUNS,
          connections: CONNECTIONS,
          route: 'ETH → TUSD (one pool), GET /v1/convert/quotes',
        },
        null,
        2,
      ),
    )
  } finally {
    if (child) await stopProcess(child)
    await swapChain.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
