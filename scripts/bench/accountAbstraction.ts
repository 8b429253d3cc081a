// `tsx scripts/bench/accountAbstraction.ts`: sponsored ERC-4337 UserOperations end to end on loopback. Starts anvil,
// the bundler (Alto) and the paymaster service (compiled) as processes of their own, then sends OPERATIONS sponsored operations
// from ACCOUNTS new TesseraAccounts holding 0 ETH, one per account at a time and all accounts at once (rounds of
// ACCOUNTS in parallel; each account's first operation deploys it). Prints JSON: each process's RSS at rest and after
// the run, the time per operation from send (prepare: stub, estimate, paymaster signature, account signature) to its
// receipt (p50, p99), the paymaster's own round trips within it (p50, p99), and operations per second.
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { createPublicClient, http, type Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createBundlerClient, createPaymasterClient, type SmartAccount } from 'viem/account-abstraction'
import { canonicalAccountAbstractionAddresses, deployAccountAbstraction, tesseraAccountFactoryAddress } from '../../services/chain/accountAbstraction'
import { startAnvil } from '../../services/chain/anvil'
import { startBundler } from '../../services/chain/bundler'
import { buildPaymaster } from '../../services/paymaster/build'
import { deployPaymaster } from '../../services/paymaster/deployPaymaster'
import { freePorts } from '../../services/stack/ports'
import { toTesseraAccount } from '../../src/frame/smartAccount/toTesseraAccount'
import { stopProcess, waitForLine } from './serviceProcess'

const OPERATIONS = Number(process.env.BENCH_OPERATIONS ?? 1_000)
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 20)
const CHAIN_ID = 31337
const ENTRY_POINT = canonicalAccountAbstractionAddresses.entryPoint08
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const MB = 1_000_000
/**
 * Fixed fees. viem's default (twice the node's suggested tip) runs away on anvil: anvil suggests the tips of recent
 * blocks, so each block's tip doubles the next one's, and after ~200 operations each cost the paymaster over 1 ETH
 * (its 100 ETH deposit ran dry within 250). Base fees here stay under 0.5 gwei: blocks are far below their gas target.
 */
const FEES = { maxFeePerGas: 3_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n }

/** RSS of a process and every process in its group (Alto runs in a group of its own), from /proc. */
function groupRssBytes(leaderPid: number): number {
  let total = 0
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      // pgrp is the 5th field of /proc/pid/stat, after the parenthesised name (which may hold spaces).
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])
      if (Number(entry) !== leaderPid && pgrp !== leaderPid) continue
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))
      total += rss ? Number(rss[1]) * 1_024 : 0
    } catch {
      // gone meanwhile
    }
  }
  return total
}

/** The pid of the process whose command line holds all of `parts` (startBundler does not hand out Alto's). */
function findPid(parts: string[]): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')
      if (parts.every((part) => args.includes(part))) return Number(entry)
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`bench: no process with ${parts.join(' ')}`)
}

/** The paymaster's own report over IPC (services/paymaster/main.ts answers 'stats'). */
const askStats = (child: ChildProcess) =>
  new Promise<{ rssBytes: number; heapUsedBytes: number; trackedAccounts: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('bench: the paymaster did not answer stats in 5 s')), 5_000)
    child.once('message', (message) => {
      clearTimeout(timer)
      resolve(message as never)
    })
    child.send('stats')
  })

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits

async function main() {
  const ports = await freePorts()
  const stops: (() => Promise<void>)[] = []
  try {
    // 1. The chain with the EntryPoint, the account factory and the paymaster (100 ETH deposited).
    const anvil = await startAnvil({ port: ports.anvil, chainId: CHAIN_ID })
    stops.push(() => anvil.stop())
    await deployAccountAbstraction({ rpcUrl: anvil.rpcUrl })
    const signerKey = generatePrivateKey()
    const { address: paymasterAddress } = await deployPaymaster({ rpcUrl: anvil.rpcUrl, signerAddress: privateKeyToAccount(signerKey).address, minimumDeposit: 100n * 10n ** 18n })

    // 2. Alto, and the paymaster service compiled as it is deployed (services/paymaster/build.ts: under tsx it idles
    //    about 100 MB higher), with its key from the environment, not the configuration.
    const bundler = await startBundler({ rpcUrl: anvil.rpcUrl, port: ports.anvil2, entryPoints: [ENTRY_POINT] })
    stops.push(() => bundler.stop())
    const bundlerPid = findPid(['--port', String(ports.anvil2), '--entrypoints', ENTRY_POINT])
    const config = {
      // A cap on what the paymaster pays per gas, as a deployment should have (see FEES).
      chains: [{ chainId: CHAIN_ID, rpcUrl: anvil.rpcUrl, paymasterAddress, entryPointAddress: ENTRY_POINT, maxFeePerGasWei: '10000000000' }],
      projects: [{ id: 'bench', allowedOrigins: [], chainIds: [CHAIN_ID], dailyGasPerAccount: 1_000_000_000 }],
    }
    const paymaster = spawn(process.execPath, [await buildPaymaster()], {
      cwd: ROOT,
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(ports.api), TESSERA_PAYMASTER_CONFIG_JSON: JSON.stringify(config), TESSERA_PAYMASTER_SIGNER_KEY: signerKey },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    })
    stops.push(() => stopProcess(paymaster))
    await waitForLine(paymaster, 'Tessera paymaster on', 'the paymaster service')
    const paymasterUrl = `http://127.0.0.1:${ports.api}`

    const rss = () => ({ bundler: groupRssBytes(bundlerPid), anvil: groupRssBytes(anvil.process.pid!) })
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const atRest = { ...rss(), paymaster: (await askStats(paymaster)).rssBytes }

    // 3. The accounts (0 ETH each) and their clients, as the widget makes them.
    const chain = { id: CHAIN_ID, name: 'anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [anvil.rpcUrl] } } }
    const client = createPublicClient({ chain, transport: http(anvil.rpcUrl), pollingInterval: 50 })
    const paymasterClient = createPaymasterClient({ transport: http(paymasterUrl) })
    const accounts: SmartAccount[] = await Promise.all(
      Array.from({ length: ACCOUNTS }, () => toTesseraAccount({ client, owner: privateKeyToAccount(generatePrivateKey()), factoryAddress: tesseraAccountFactoryAddress })),
    )
    // The paymaster's share of each operation: its two round trips, timed where viem makes them.
    const paymasterCallsMs: number[] = []
    const timed =
      <P, R>(call: (parameters: P) => Promise<R>) =>
      async (parameters: P) => {
        const from = performance.now()
        try {
          return await call(parameters)
        } finally {
          paymasterCallsMs.push(performance.now() - from)
        }
      }
    const paymasterActions = { getPaymasterStubData: timed(paymasterClient.getPaymasterStubData), getPaymasterData: timed(paymasterClient.getPaymasterData) }
    const bundlerClients = accounts.map((account) =>
      createBundlerClient({
        account,
        client,
        transport: http(bundler.url),
        pollingInterval: 50,
        paymaster: paymasterActions,
        paymasterContext: { projectId: 'bench' },
        userOperation: { estimateFeesPerGas: async () => FEES },
      }),
    )
    const recipient: Address = privateKeyToAccount(generatePrivateKey()).address

    // 4. Rounds of one operation per account, all accounts at once.
    const durationsMs: number[] = []
    let failed = 0
    const started = performance.now()
    for (let sent = 0; sent < OPERATIONS; sent += ACCOUNTS) {
      await Promise.all(
        bundlerClients.slice(0, Math.min(ACCOUNTS, OPERATIONS - sent)).map(async (bundlerClient) => {
          const from = performance.now()
          try {
            const hash = await bundlerClient.sendUserOperation({ calls: [{ to: recipient, value: 0n, data: '0x' }] })
            const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, pollingInterval: 50, timeout: 30_000 })
            if (!receipt.success) failed++
            durationsMs.push(performance.now() - from)
          } catch (error) {
            failed++
            if (failed <= 3) console.error(`bench: an operation failed: ${(error as { shortMessage?: string }).shortMessage ?? String(error)}`)
          }
        }),
      )
    }
    const elapsedS = (performance.now() - started) / 1_000
    const paymasterStats = await askStats(paymaster)
    const after = { ...rss(), paymaster: paymasterStats.rssBytes }

    const sorted = [...durationsMs].sort((a, b) => a - b)
    const paymasterSorted = [...paymasterCallsMs].sort((a, b) => a - b)
    const inMB = (figures: Record<string, number>) => Object.fromEntries(Object.entries(figures).map(([name, bytes]) => [name, round(bytes / MB)]))
    console.log(
      JSON.stringify(
        {
          operations: OPERATIONS,
          accounts: ACCOUNTS,
          landed: durationsMs.length,
          failed,
          rssMB: { atRest: inMB(atRest), afterOperations: inMB(after) },
          perOperationMs: { p50: Math.round(percentile(sorted, 50)), p99: Math.round(percentile(sorted, 99)) },
          paymasterCallMs: { calls: paymasterSorted.length, p50: round(percentile(paymasterSorted, 50)), p99: round(percentile(paymasterSorted, 99)) },
          opsPerSecond: round(durationsMs.length / elapsedS),
          elapsedS: round(elapsedS),
          paymaster: { trackedAccounts: paymasterStats.trackedAccounts, heapUsedMB: round(paymasterStats.heapUsedBytes / MB) },
        },
        null,
        2,
      ),
    )
    if (failed > 0) process.exitCode = 1
  } finally {
    for (const stop of stops.reverse()) await stop()
  }
}

await main()
