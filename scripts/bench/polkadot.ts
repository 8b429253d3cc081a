// `npm run bench:polkadot`: the time to a first Polkadot balance in Chromium, through the worker core, against the local
// chain (chopsticks). A cold page each run: the core worker starts, imports the Polkadot module (dedot),
// connects over WebSocket, reads the runtime's metadata and the account. Prints JSON (medians of RUNS runs).
import { fileURLToPath } from 'node:url'
import { chromium } from '@playwright/test'
import { freePorts } from '../../services/stack/ports'
import { serveViteApp } from '../../services/stack/startStack'
import { startLocalPolkadot } from '../../services/stack/startLocalPolkadot'
import type { StackManifest } from '../../services/stack/manifest'
import { chromiumArgs, chromiumPath } from '../../playwright.config'
import { median } from './stats'

const RUNS = Number(process.env.BENCH_RUNS ?? 5)

type Run = { firstBalanceMs: number; secondBalanceMs: number; longTasks: number; mainThreadTbtMs: number }

async function main() {
  const ports = await freePorts()
  const stops: (() => Promise<void>)[] = []
  try {
    const polkadot = await startLocalPolkadot({ port: ports.polkadot })
    stops.push(polkadot.stop)
    const { caipNetworkId, rpcUrl, devAccounts } = polkadot.manifest
    const manifest: StackManifest = { version: 1, chains: [], devAccounts: [], polkadot: polkadot.manifest, services: { api: '', projectId: '', relay: '' }, demo: null }
    const root = fileURLToPath(new URL('../../test/harness', import.meta.url))
    stops.push(await serveViteApp({ root, mode: 'preview', host: '127.0.0.1', port: ports.demo, manifest }))

    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
    stops.push(() => browser.close())
    const runs: Run[] = []
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext()
      const page = await context.newPage()
      await page.goto(`http://127.0.0.1:${ports.demo}/`)
      await page.locator('#status').getByText('ready').waitFor()
      runs.push(
        await page.evaluate(
          async ({ caipNetworkId, rpcUrl, address }) => {
            const durations: number[] = []
            const observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => durations.push(e.duration)))
            observer.observe({ type: 'longtask' })
            const started = performance.now()
            const core = window.tessera.createCore({ chains: [], polkadotChains: [{ caipNetworkId, rpcUrl }] })
            await core.polkadot.getBalance({ caipNetworkId, address })
            const first = performance.now()
            await core.polkadot.getBalance({ caipNetworkId, address, force: true })
            const second = performance.now()
            await new Promise((resolve) => setTimeout(resolve, 200))
            durations.push(...observer.takeRecords().map((e) => e.duration))
            observer.disconnect()
            core.destroy()
            return {
              firstBalanceMs: Math.round(first - started),
              secondBalanceMs: Math.round(second - first),
              longTasks: durations.length,
              mainThreadTbtMs: Math.round(durations.reduce((sum, d) => sum + Math.max(0, d - 50), 0)),
            }
          },
          { caipNetworkId, rpcUrl, address: devAccounts[0]!.address },
        ),
      )
      await context.close()
    }
    const pick = (key: keyof Run) => median(runs.map((run) => run[key]))
    console.log(
      JSON.stringify(
        {
          runs: RUNS,
          chain: `${polkadot.manifest.chainName} (chopsticks, ${caipNetworkId})`,
          firstBalanceMs: pick('firstBalanceMs'),
          secondBalanceMs: pick('secondBalanceMs'),
          longTasks: pick('longTasks'),
          mainThreadTbtMs: pick('mainThreadTbtMs'),
          perRun: runs,
        },
        null,
        2,
      ),
    )
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {})
  }
}

await main()
