// `npm run bench:wc`: main-thread blocking while a WalletConnect pairing runs (load the client, show the URI, a real
// wallet approves through our relay, one personal_sign), with the client on the main thread and in a worker.
// Prints JSON { main, worker }: medians of RUNS cold runs each (a fresh browser per run), the worst long task, and how
// many runs had one.
import { chromium } from '@playwright/test'
import { fileURLToPath } from 'node:url'
import { createRelay } from '../../services/relay/createRelay'
import { createNodeWallet } from '../../services/relay/testing/createNodeWallet'
import { freePorts } from '../../services/stack/ports'
import { serveViteApp } from '../../services/stack/startStack'
import type { StackManifest } from '../../services/stack/manifest'
import { chromiumArgs, chromiumPath } from '../../playwright.config'
import type { WcBenchResult } from '../../test/harness/wc'
import { median } from './stats'

const RUNS = Number(process.env.BENCH_RUNS ?? 5)
/** Chromium's CPU throttling, as for a mid-range phone (BENCH_CPU_SLOWDOWN=1 for this machine's speed). */
const CPU_SLOWDOWN = Number(process.env.BENCH_CPU_SLOWDOWN ?? 4)

async function main() {
  const ports = await freePorts()
  const relay = createRelay({ port: ports.relay })
  await relay.ready
  const stops: (() => Promise<void>)[] = [async () => relay.close()]
  try {
    const wallet = await createNodeWallet({ relayUrl: relay.url, chains: [{ chainId: 31337, rpcUrl: 'http://127.0.0.1:1' }] })
    stops.push(() => wallet.close())
    const manifest: StackManifest = { version: 1, chains: [], devAccounts: [], services: { api: '', projectId: '', relay: relay.url }, demo: null }
    const root = fileURLToPath(new URL('../../test/harness', import.meta.url))
    stops.push(await serveViteApp({ root, mode: 'preview', host: '127.0.0.1', port: ports.demo, manifest }))
    const runs: Record<'main' | 'worker', WcBenchResult[]> = { main: [], worker: [] }
    for (let i = 0; i < RUNS; i++) {
      for (const mode of ['main', 'worker'] as const) {
        // A fresh browser each run: nothing compiled or cached from the run before.
        const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
        const page = await browser.newPage()
        const cdp = await page.context().newCDPSession(page)
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
        await page.goto(`http://127.0.0.1:${ports.demo}/wc.html`)
        await page.locator('#status').getByText('ready').waitFor()
        const result = page.evaluate(({ mode, relayUrl }) => window.wcBench.run(mode, relayUrl), { mode, relayUrl: relay.url })
        const uri = await page.waitForFunction(() => window.wcBench.uri).then((handle) => handle.jsonValue() as Promise<string>)
        await wallet.pair(uri)
        runs[mode].push(await result)
        await browser.close()
      }
    }
    const summary = (list: WcBenchResult[]) => ({
      mainThreadTbtMs: median(list.map((r) => r.mainThreadTbtMs)),
      longTasks: median(list.map((r) => r.longTasks)),
      longestTaskMs: median(list.map((r) => r.longestTaskMs)),
      worstLongestTaskMs: Math.max(...list.map((r) => r.longestTaskMs)),
      runsWithLongTasks: list.filter((r) => r.longTasks > 0).length,
      uriMs: median(list.map((r) => r.uriMs)),
      wallMs: median(list.map((r) => r.wallMs)),
    })
    console.log(JSON.stringify({ main: summary(runs.main), worker: summary(runs.worker), runs: RUNS, cpuSlowdown: CPU_SLOWDOWN }, null, 2))
    await wallet.close()
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {})
  }
}

await main()
// The wallet's sign client keeps timers of its own; the figures are out, so the script ends here.
process.exit(0)
