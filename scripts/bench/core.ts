// `npm run bench:core`: the heavy-dApp scenario in Chromium against anvil, through widget.core and with viem on the
// main thread. Prints JSON { core, baseline } (medians of RUNS runs each).
import { chromium } from '@playwright/test'
import { createPublicClient, createTestClient, createWalletClient, http, type Abi, type Address, type Hex } from 'viem'
import { anvil as anvilChain } from 'viem/chains'
import { fileURLToPath } from 'node:url'
import artifacts from '../../services/chain/contracts.generated.json' with { type: 'json' }
import { startAnvil } from '../../services/chain/anvil'
import { seedChain } from '../../services/chain/seedChain'
import { freePorts } from '../../services/stack/ports'
import { serveViteApp } from '../../services/stack/startStack'
import type { StackManifest } from '../../services/stack/manifest'
import { chromiumArgs, chromiumPath } from '../../playwright.config'
import type { BenchInput, BenchResult } from '../../test/harness/bench'

const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const HOLDERS = 2_000
const LOGS = 10_000
const LOGS_PER_TX = 2_500

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function main() {
  const ports = await freePorts()
  const anvil = await startAnvil({ port: ports.anvil, chainId: 31337 })
  const stops: (() => Promise<void>)[] = [anvil.stop]
  try {
    const seeded = await seedChain({ rpcUrl: anvil.rpcUrl })
    const transport = http(anvil.rpcUrl)
    const test = createTestClient({ mode: 'anvil', transport })
    const wallet = createWalletClient({ account: seeded.devAccounts[0]!, transport, chain: anvilChain })
    const deploy = await wallet.deployContract({ abi: artifacts.TransferEmitter.abi as Abi, bytecode: artifacts.TransferEmitter.bytecode as Hex })
    const reader = createPublicClient({ transport })
    const emitter = (await reader.waitForTransactionReceipt({ hash: deploy, pollingInterval: 20 })).contractAddress!
    for (let start = 0; start < LOGS; start += LOGS_PER_TX) {
      const hash = await wallet.writeContract({ address: emitter, abi: artifacts.TransferEmitter.abi as Abi, functionName: 'emitTransfers', args: [BigInt(start), BigInt(LOGS_PER_TX)], gas: 29_000_000n })
      await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    }
    await test.mine({ blocks: 1 })

    const holders = Array.from({ length: HOLDERS }, (_, i) => `0x${(0x10000 + i).toString(16).padStart(40, '0')}` as Address)
    const input: BenchInput = { chainId: 31337, rpcUrl: anvil.rpcUrl, multicall3: seeded.multicall3, token: seeded.tokens[0]!.address, emitter, holders }
    const manifest: StackManifest = { version: 1, chains: [], devAccounts: [], services: { api: '', projectId: '', relay: '' }, demo: null }
    const root = fileURLToPath(new URL('../../test/harness', import.meta.url))
    stops.push(await serveViteApp({ root, mode: 'preview', host: '127.0.0.1', port: ports.demo, manifest }))

    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
    stops.push(() => browser.close())
    const runs: Record<'core' | 'baseline', (BenchResult & { httpRequests: number })[]> = { core: [], baseline: [] }
    for (let i = 0; i < RUNS; i++) {
      for (const mode of ['core', 'baseline'] as const) {
        const page = await browser.newPage()
        await page.goto(`http://127.0.0.1:${ports.demo}/bench.html`)
        await page.locator('#status').getByText('ready').waitFor()
        let httpRequests = 0
        page.on('request', (request) => {
          if (request.url().startsWith(anvil.rpcUrl)) httpRequests++
        })
        const result = await page.evaluate(
          ({ mode, input }) => (mode === 'core' ? window.bench.runCore(input) : window.bench.runBaseline(input)),
          { mode, input },
        )
        if (result.reads !== HOLDERS || result.logs !== LOGS) throw new Error(`${mode} read ${result.reads} balances and ${result.logs} logs`)
        runs[mode].push({ ...result, httpRequests })
        await page.close()
      }
    }
    const summary = (list: (BenchResult & { httpRequests: number })[]) => ({
      mainThreadTbtMs: median(list.map((r) => r.mainThreadTbtMs)),
      longTasks: median(list.map((r) => r.longTasks)),
      wallMs: median(list.map((r) => r.wallMs)),
      httpRequests: median(list.map((r) => r.httpRequests)),
    })
    console.log(JSON.stringify({ core: summary(runs.core), baseline: summary(runs.baseline), runs: RUNS, scenario: { balanceReads: HOLDERS, transferLogs: LOGS } }, null, 2))
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {})
  }
}

await main()
