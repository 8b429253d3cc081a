// `npm run bench:api`: the data service with 1,000,000 transfers in its table, and the relay, loopback only, bounded in
// time (about 4 minutes on 2 cores; per figure 2 s of unmeasured load, then BENCH_RUNS loads of BENCH_DURATION_S,
// medians reported, each run's req/s in rpsEveryRun).
// Prints JSON: { balance, pricesPost, history, historyUncached, historyUncachedCursor, idleRssMb, loadRssMb,
// loadRssMbByLeg, relay, indexer, pglite, postgres }; the top-level figures are PGlite's. Each load gives req/s, p99
// and the service's CPU ms per request (and PostgreSQL's, on the uncached legs). The PostgreSQL leg runs with
// `-- --postgres` (a throwaway server, Debian's PostgreSQL 15) or DATABASE_URL (a database the bench may fill: it adds
// a million rows). The data service and the relay run as child processes, so each RSS is its own (sampled with ps).
// The data service runs compiled (services/api/build.ts, `node services/api/dist/main.js`), as `npm run api` runs
// it; `tsx` gives its RSS from source under tsx (as the test stack and `npm run services` run it). `ceilings` are
// what bounds uncached history: the HTTP layer alone (GET /health), the statement's plan and, for PGlite, one round
// trip and the history statement alone in one process.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { createWalletClient, erc20Abi, http, type Address } from 'viem'
import { foundry } from 'viem/chains'
import { buildApi } from '../../services/api/build'
import { openDatabase, type Database } from '../../services/api/db/createDatabase'
import { createIndexer } from '../../services/api/indexer'
import { historyQuery } from '../../services/api/routes/history'
import { startPostgres } from '../../services/api/testing/startPostgres'
import { startAnvil } from '../../services/chain/anvil'
import { seedChain } from '../../services/chain/seedChain'
import { connectRawClient } from '../../services/relay/testing/connectRawClient'
import { freePorts } from '../../services/stack/ports'
import { startSyntheticChain } from './syntheticChain'
import { startDataService, stopProcess, waitForLine } from './serviceProcess'
import { median } from './stats'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5)
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
/** Seconds of unmeasured load before each figure's runs. */
const WARMUP_S = 2
const CONNECTIONS = 10
const TRANSFERS_ON_ANVIL = 100
const SEEDED_TRANSFERS = 1_000_000
/** Accounts the seeded transfers go between; HOT_ACCOUNT is a party to every 20th (50,000 transfers). */
const ACCOUNTS = 10_000
const HOT_ACCOUNT = `0x${'0'.repeat(40)}`
const INDEXER_BLOCKS = Number(process.env.BENCH_INDEXER_BLOCKS ?? 100_000)
const LOGS_PER_BLOCK = 2
const SYNTHETIC_CHAIN_ID = 31338
const RELAY_PAIRS = 20
const isPostgresAsked = process.argv.includes('--postgres') || Boolean(process.env.DATABASE_URL)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10
const accountAddress = (n: number) => `0x${n.toString(16).padStart(40, '0')}`
/** Resident memory of a process in MB, as ps reports it. */
const rssMb = (pid: number) => Math.round(Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)]).toString().trim()) / 1_024)

type Load = { rps: number; p99Ms: number; errors: number; serviceCpuMsPerRequest: number; databaseCpuMsPerRequest?: number }

const CLOCK_TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim())
/** CPU time a process has used, user and system, in ms (/proc/<pid>/stat fields 14 and 15). */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1_000) / CLOCK_TICKS_PER_S
}
/** CPU time of every PostgreSQL server process on the machine (the throwaway server's, when the bench runs it). */
const postgresCpuMs = () =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .reduce((sum, pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres' ? sum + cpuMs(Number(pid)) : sum
      } catch {
        return sum // the process ended meanwhile
      }
    }, 0)

/**
 * Loads `url` (or each request's own path from `nextPath`) RUNS times; medians, the child's highest RSS meanwhile, and
 * the CPU time the service (and PostgreSQL's processes, with `withDatabaseCpu`) spent per request: what one core of
 * each could serve, whatever the load generator on the same two cores takes.
 */
async function load(url: string, pid: number, nextPath?: () => string, { withDatabaseCpu = false, post }: { withDatabaseCpu?: boolean; post?: unknown } = {}): Promise<Load & { rssMb: number; rpsEveryRun: number[] }> {
  const runs: Load[] = []
  let highest = 0
  const sampler = setInterval(() => (highest = Math.max(highest, rssMb(pid))), 250)
  const requestOptions = {
    url,
    connections: CONNECTIONS,
    ...(post === undefined ? {} : { method: 'POST' as const, headers: { 'content-type': 'application/json' }, body: JSON.stringify(post) }),
    ...(nextPath ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: nextPath() }) }] } : {}),
  }
  try {
    // Unmeasured: the route's code is compiled and optimised, and the database's pages are read in, before the runs.
    await autocannon({ ...requestOptions, duration: WARMUP_S })
    for (let run = 0; run < RUNS; run++) {
      const [serviceBefore, databaseBefore] = [cpuMs(pid), withDatabaseCpu ? postgresCpuMs() : 0]
      const result = await autocannon({ ...requestOptions, duration: DURATION_S })
      const requests = Math.max(1, result.requests.total)
      const perRequest = (ms: number) => Math.round((ms / requests) * 1_000) / 1_000
      runs.push({
        rps: Math.round(result.requests.average),
        p99Ms: result.latency.p99,
        errors: result.errors + result.non2xx,
        serviceCpuMsPerRequest: perRequest(cpuMs(pid) - serviceBefore),
        ...(withDatabaseCpu ? { databaseCpuMsPerRequest: perRequest(postgresCpuMs() - databaseBefore) } : {}),
      })
    }
  } finally {
    clearInterval(sampler)
  }
  const medianOf = (pick: (load: Load) => number | undefined) => median(runs.map((r) => pick(r) ?? 0))
  return {
    rps: medianOf((r) => r.rps),
    rpsEveryRun: runs.map((r) => r.rps),
    p99Ms: medianOf((r) => r.p99Ms),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    serviceCpuMsPerRequest: medianOf((r) => r.serviceCpuMsPerRequest),
    ...(withDatabaseCpu ? { databaseCpuMsPerRequest: medianOf((r) => r.databaseCpuMsPerRequest) } : {}),
    rssMb: highest,
  }
}

/** One statement: 1,000,000 transfers between ACCOUNTS accounts (HOT_ACCOUNT in every 20th), 4 per block, a few named parties. */
async function seedTransfers(db: Database) {
  const started = performance.now()
  await db.query(
    `insert into transfers (chain_id, block_number, tx_hash, log_index, from_address, to_address, token, value, status, timestamp)
     select 31337, 1000000 + g / 4, '0x' || lpad(to_hex(g), 64, '0'), (g % 4)::integer,
            '0x' || lpad(to_hex(case when g % 20 = 0 then 0 else (g * 7919) % ${ACCOUNTS} + 1 end), 40, '0'),
            '0x' || lpad(to_hex((g * 104729) % ${ACCOUNTS} + 1), 40, '0'),
            null, g, 'confirmed', 1700000000 + g / 4
       from generate_series(1::bigint, ${SEEDED_TRANSFERS}::bigint) as g
     on conflict do nothing`,
  )
  await db.query(`insert into names (name, address, coin_type) select 'bench' || g || '.tessera.id', '0x' || lpad(to_hex(g), 40, '0'), 60 from generate_series(1, 1000) as g on conflict do nothing`)
  // What the data service's vacuum schedule does after the indexers write (createVacuumSchedule): history pages are
  // then read from the index alone.
  await db.query('vacuum (analyze) transfers')
  return seconds(started)
}

/** Calls `run` for `ms` milliseconds, one at a time; calls per second. */
async function rate(run: (i: number) => Promise<unknown>, ms = 3_000) {
  const started = performance.now()
  let calls = 0
  while (performance.now() - started < ms) await run(calls++)
  return Math.round(calls / ((performance.now() - started) / 1_000))
}

/**
 * What the seeded database gives in this process, without HTTP: the history statement's plan (index-only range scans
 * with LIMIT, no sort, no heap fetch), and for PGlite its ceilings: `select 1` round trips and the history statement alone, a
 * different account each call.
 */
async function probeDatabase(db: Database) {
  const sql = historyQuery({ hasChainId: true, hasCursor: false })
  const plan = (await db.query<{ 'QUERY PLAN': string }>(`explain analyze ${sql}`, [accountAddress(4242), 31337])).map((row) => row['QUERY PLAN']).join('\n')
  const historyPlan = {
    indexOnlyRangeScans: /Index Only Scan using transfers_from_page/.test(plan) && /Index Only Scan using transfers_to_page/.test(plan) && /Index Cond: .*chain_id = /.test(plan),
    namesByIndex: /Index (Only )?Scan using names_first/.test(plan),
    heapFetches: [...plan.matchAll(/Heap Fetches: (\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0),
    sortsTransfers: /Sort {2}\(cost[^\n]*\n[^\n]*\n?\s*Sort Key: transfers/.test(plan) || /Seq Scan on transfers/.test(plan),
    executionMs: Number(/Execution Time: ([\d.]+)/.exec(plan)?.[1]),
  }
  if (db.kind !== 'pglite') return { historyPlan }
  const select1PerS = await rate(() => db.prepared('bench_select_one', 'select 1', []))
  const historyStatementPerS = await rate((i) => db.prepared('bench_history', sql, [accountAddress(((i * 7) % ACCOUNTS) + 1), 31337]))
  return { historyPlan, select1PerS, historyStatementPerS }
}

/** Starts the data service (compiled as `npm run api` runs it, or from source under tsx) as a child process; resolves once it listens. */
type Chain = { rpcUrl: string; multicall3: Address; tokens: { address: Address; name: string; symbol: string; decimals: number }[]; receiver: Address }

/** One database: seeded, then served by the data service in its own process, idle and under load. */
async function benchDataService({ chain, port, env, seed, entry }: { chain: Chain; port: number; env: Record<string, string>; seed: () => Promise<{ seedS: number; probe: Awaited<ReturnType<typeof probeDatabase>> }>; entry: string }) {
  const { seedS, probe } = await seed()
  const dir = mkdtempSync(join(tmpdir(), 'tessera-bench-config-'))
  const configPath = join(dir, 'config.json')
  const chains = [{ chainId: 31337, name: 'Local', rpcUrl: chain.rpcUrl, multicall3: chain.multicall3, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, tokens: chain.tokens }]
  writeFileSync(configPath, JSON.stringify({ projects: [{ id: 'bench', allowedOrigins: [] }], chains, prices: { ETH: 3_000, TUSD: 1, TSR: 2.5 } }))
  const serviceEnv = { ...env, TESSERA_API_CONFIG: configPath, PORT: String(port) }
  const url = `http://127.0.0.1:${port}`
  const query = 'projectId=bench&chainId=eip155:31337'
  // Uncached: another account each request, or another cursor down the busy account's 50,000 transfers; none asked
  // before (the 1 s cache cannot help).
  let nextAccount = 0
  const uncachedPath = () => `/v1/account/${accountAddress((nextAccount++ % ACCOUNTS) + 1)}/history?${query}`
  let nextCursor = 0
  const cursorPath = () => {
    const n = nextCursor++
    // Seeded transfer g is in block 1,000,000 + g / 4 with id g; the busy account's are g = 20k.
    const g = SEEDED_TRANSFERS - ((n * 20 * 37) % (SEEDED_TRANSFERS - 2_000))
    return `/v1/account/${HOT_ACCOUNT}/history?${query}&cursor=${Buffer.from(`${1_000_000 + Math.floor(g / 4)}:${g}`).toString('base64url')}`
  }
  const child = await startDataService(serviceEnv, entry)
  let figures
  try {
    // The indexer catches up with the small anvil chain, then the service idles.
    await sleep(3_000)
    const idleRssMb = rssMb(child.pid!)
    const httpCeiling = await load(`${url}/health`, child.pid!)
    const balance = await load(`${url}/v1/account/${chain.receiver}/balance?${query}`, child.pid!)
    // A request with a JSON body (prices of the chain's tokens): the body is read and validated, nothing is stored.
    const pricesPost = await load(`${url}/v1/fungible/price?projectId=bench`, child.pid!, undefined, {
      post: { currency: 'usd', addresses: chain.tokens.map((token) => `eip155:31337:${token.address}`), projectId: 'bench' },
    })
    // The account in 50,000 of the million transfers; its first page again and again (the 1 s cache answers most).
    const history = await load(`${url}/v1/account/${HOT_ACCOUNT}/history?${query}`, child.pid!)
    const withDatabaseCpu = Boolean(env.DATABASE_URL)
    const historyUncached = await load(url, child.pid!, uncachedPath, { withDatabaseCpu })
    const historyUncachedCursor = await load(url, child.pid!, cursorPath, { withDatabaseCpu })
    const loadRssMb = Math.max(httpCeiling.rssMb, balance.rssMb, pricesPost.rssMb, history.rssMb, historyUncached.rssMb, historyUncachedCursor.rssMb)
    const strip = ({ rssMb: _, ...figures }: Load & { rssMb: number; rpsEveryRun: number[] }) => figures
    figures = {
      seededTransfers: SEEDED_TRANSFERS,
      seedS,
      idleRssMb,
      loadRssMb,
      loadRssMbByLeg: { httpHealth: httpCeiling.rssMb, balance: balance.rssMb, pricesPost: pricesPost.rssMb, history: history.rssMb, historyUncached: historyUncached.rssMb, historyUncachedCursor: historyUncachedCursor.rssMb },
      balance: strip(balance),
      pricesPost: strip(pricesPost),
      history: strip(history),
      historyUncached: strip(historyUncached),
      historyUncachedCursor: strip(historyUncachedCursor),
      ceilings: { httpHealth: strip(httpCeiling), ...probe },
    }
  } finally {
    await stopProcess(child)
  }
  // The same service from source under tsx: its RSS idle and under uncached history.
  const tsxChild = await startDataService(serviceEnv, 'services/api/main.ts')
  try {
    await sleep(3_000)
    const idleRssMb = rssMb(tsxChild.pid!)
    const { rssMb: loadRssMb, rps } = await load(url, tsxChild.pid!, uncachedPath)
    return { ...figures, tsx: { idleRssMb, loadRssMb, historyUncachedRps: rps } }
  } finally {
    await stopProcess(tsxChild)
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A catch-up of INDEXER_BLOCKS blocks served by a synthetic node (anvil takes minutes to mine them), into `db`. */
async function benchIndexer(db: Database) {
  const token: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
  // Its own chain id: the rows of the served chain (31337) stay as they are.
  const node = await startSyntheticChain({ blocks: INDEXER_BLOCKS, logsPerBlock: LOGS_PER_BLOCK, token, chainId: SYNTHETIC_CHAIN_ID })
  try {
    const chain = { chainId: SYNTHETIC_CHAIN_ID, name: 'Synthetic', rpcUrl: node.rpcUrl, multicall3: token, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, tokens: [{ address: token, name: 'T', symbol: 'T', decimals: 18 }] }
    let transfers = 0
    const indexer = createIndexer({ db, chain, onIndexed: (indexed) => void (transfers += indexed.transfers) })
    const started = performance.now()
    await indexer.catchUp()
    const catchUpS = (performance.now() - started) / 1_000
    return {
      source: 'synthetic JSON-RPC node (scripts/bench/syntheticChain.ts)',
      blocks: INDEXER_BLOCKS,
      transfers,
      catchUpS: Math.round(catchUpS * 10) / 10,
      blocksPerS: Math.round(INDEXER_BLOCKS / catchUpS),
      transfersPerS: Math.round(transfers / catchUpS),
    }
  } finally {
    await node.stop()
  }
}

/** The relay alone: idle, then RELAY_PAIRS pairs publishing small messages to each other for DURATION_S. */
async function benchRelay(port: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/relay/main.ts'], { cwd: ROOT, env: { ...process.env, HOST: '127.0.0.1', PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
  await waitForLine(child, 'WalletConnect relay on', 'the relay')
  const url = `ws://127.0.0.1:${port}`
  const clients: Awaited<ReturnType<typeof connectRawClient>>[] = []
  try {
    await sleep(1_000)
    const idleRssMb = rssMb(child.pid!)
    let highest = idleRssMb
    const sampler = setInterval(() => (highest = Math.max(highest, rssMb(child.pid!))), 250)
    let published = 0
    const deadline = Date.now() + DURATION_S * 1_000
    await Promise.all(
      Array.from({ length: RELAY_PAIRS }, async (_, pair) => {
        const [a, b] = await Promise.all([connectRawClient(url), connectRawClient(url)])
        clients.push(a, b)
        const topic = pair.toString(16).padStart(64, '0')
        await b.request('irn_subscribe', { topic })
        while (Date.now() < deadline) {
          const reply = await a.request('irn_publish', { topic, message: 'x'.repeat(512), ttl: 300, tag: 1108 })
          if (reply.result === true) published += 1
        }
      }),
    )
    clearInterval(sampler)
    return { idleRssMb, loadRssMb: highest, pairs: RELAY_PAIRS, publishesPerS: Math.round(published / DURATION_S) }
  } finally {
    for (const client of clients) client.close()
    await stopProcess(child)
  }
}

async function main() {
  const ports = await freePorts()
  const anvil = await startAnvil({ port: ports.anvil, chainId: 31337 })
  const stops: (() => unknown)[] = [() => anvil.stop()]
  try {
    const seeded = await seedChain({ rpcUrl: anvil.rpcUrl })
    const [sender, receiver] = seeded.devAccounts
    const wallet = createWalletClient({ chain: foundry, transport: http(anvil.rpcUrl) })
    for (let i = 0; i < TRANSFERS_ON_ANVIL; i++) {
      await wallet.writeContract({ account: sender!, address: seeded.tokens[0]!.address, abi: erc20Abi, functionName: 'transfer', args: [receiver!, BigInt(i + 1)] })
    }
    const chain: Chain = { rpcUrl: anvil.rpcUrl, multicall3: seeded.multicall3, tokens: seeded.tokens, receiver: receiver! }

    // PGlite: seeded in this process, then served by the child (one process at a time may open a PGlite directory).
    const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-pglite-'))
    stops.push(() => rmSync(dataDir, { recursive: true, force: true }))
    const entry = await buildApi()
    const pglite = await benchDataService({
      entry,
      chain,
      port: ports.api,
      env: { TESSERA_DATA_DIR: dataDir, DATABASE_URL: '' },
      seed: async () => {
        const db = await openDatabase({ dataDir })
        try {
          return { seedS: await seedTransfers(db), probe: await probeDatabase(db) }
        } finally {
          await db.close()
        }
      },
    })
    const indexerDir = mkdtempSync(join(tmpdir(), 'tessera-bench-indexer-'))
    stops.push(() => rmSync(indexerDir, { recursive: true, force: true }))
    const indexerDb = await openDatabase({ dataDir: indexerDir })
    const indexer = await benchIndexer(indexerDb).finally(() => indexerDb.close())

    let postgres: (Awaited<ReturnType<typeof benchDataService>> & { indexer: Awaited<ReturnType<typeof benchIndexer>> }) | null = null
    if (isPostgresAsked) {
      let databaseUrl = process.env.DATABASE_URL
      if (!databaseUrl) {
        const server = await startPostgres()
        stops.push(() => server.stop())
        databaseUrl = server.url
      }
      const figures = await benchDataService({
        entry,
        chain,
        port: ports.api,
        env: { DATABASE_URL: databaseUrl },
        seed: async () => {
          const db = await openDatabase({ databaseUrl })
          try {
            return { seedS: await seedTransfers(db), probe: await probeDatabase(db) }
          } finally {
            await db.close()
          }
        },
      })
      const db = await openDatabase({ databaseUrl })
      postgres = { ...figures, indexer: await benchIndexer(db).finally(() => db.close()) }
    }
    const relay = await benchRelay(ports.relay)

    const { balance, history, historyUncached, historyUncachedCursor, idleRssMb, loadRssMb } = pglite
    console.log(
      JSON.stringify(
        { balance, history, historyUncached, historyUncachedCursor, idleRssMb, loadRssMb, relay, indexer, pglite, postgres, durationS: DURATION_S, runs: RUNS, connections: CONNECTIONS },
        null,
        2,
      ),
    )
  } finally {
    for (const stop of stops.reverse()) await stop()
  }
}

await main()
