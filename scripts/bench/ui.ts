// `npm run bench:ui`: what a visitor's browser pays for Tessera's button and modal, against a React page with a button
// and a dialog, in Debian's Chromium. Two settings, each with its own floor, measured in the same run:
// - `package`: a site's Vite app with the packed package installed by npm (`test/pack-apps/vite`, bench.html), against
//   the same app with React alone (floor.html), each built as a one-page site;
// - `source`: the test harness built from source (test/harness ui.html and floor.html), as the budget test measures it.
// Cold runs (a fresh browser context each), medians; prints JSON (see README, "Performance").
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from '@playwright/test'
import { freePorts } from '../../services/stack/ports'
import { serveViteApp, startStack } from '../../services/stack/startStack'
import { createHostApp, run, serveStatic } from '../../test/e2e/hostApps'
import { chromiumArgs, chromiumPath } from '../../playwright.config'
import { median } from './stats'

const RUNS = Number(process.env.BENCH_RUNS ?? 5)
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits
const kib = (bytes: number) => round(bytes / 1024)
const mb = (bytes: number) => round(bytes / 1024 / 1024, 2)

/** Gzipped size (level 9) of each script URL, fetched once. */
const gzSizes = new Map<string, number>()
async function gzKiB(urls: Iterable<string>) {
  let total = 0
  for (const url of urls) {
    if (!gzSizes.has(url)) gzSizes.set(url, gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer()), { level: 9 }).length)
    total += gzSizes.get(url)!
  }
  return kib(total)
}
const isWorkerScript = (url: string) => /\/worker-[^/]*\.js$/.test(url)

/**
 * Set up before the page's own scripts: long tasks, and the first frame with a button in the page or in a widget's
 * shadow root. Nothing of Playwright's runs in the page until the load window is over (its injected scripts would be
 * long tasks of their own).
 */
const probe = `window.__bench = { longTasks: [], buttonAt: undefined }
new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__bench.longTasks.push(e.duration))).observe({ type: 'longtask', buffered: true })
window.__roots = () => [document, ...[...document.querySelectorAll('[data-tessera]')].map((h) => h.shadowRoot).filter(Boolean)]
window.__find = (selector) => window.__roots().map((r) => r.querySelector(selector)).find(Boolean)
const check = () => (window.__find('button') ? (window.__bench.buttonAt = performance.now()) : requestAnimationFrame(check))
requestAnimationFrame(check)`

const tbt = (durations: number[]) => Math.round(durations.reduce((sum, d) => sum + Math.max(0, d - 50), 0))

/** Script URLs the document fetched, split into those the page loaded with (before its load event) and those after (prefetch on idle). */
const documentScripts = (page: Page) =>
  page.evaluate(`(() => {
    const loadEnd = performance.getEntriesByType('navigation')[0].loadEventEnd
    const scripts = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.js'))
    return { initial: scripts.filter((e) => e.startTime < loadEnd).map((e) => e.name), prefetched: scripts.filter((e) => e.startTime >= loadEnd).map((e) => e.name) }
  })()`) as Promise<{ initial: string[]; prefetched: string[] }>

/** Heap of each dedicated worker of the page (there is one context open at a time), through the browser's CDP session. */
async function workersHeapBytes(browser: Browser) {
  const cdp = await browser.newBrowserCDPSession()
  try {
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string }[] }
    let total = 0
    for (const { targetId } of targetInfos.filter((t) => t.type === 'worker')) {
      const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId, flatten: false })) as { sessionId: string }
      const answer = new Promise<number>((resolve) => {
        cdp.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
          const message = JSON.parse(event.message) as { id: number; result?: { usedSize: number } }
          if (event.sessionId === sessionId && message.id === 2) resolve(message.result?.usedSize ?? 0)
        })
      })
      await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }) })
      await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: 2, method: 'Runtime.getHeapUsage' }) })
      total += await answer
      await cdp.send('Target.detachFromTarget', { sessionId })
    }
    return total
  } finally {
    await cdp.detach()
  }
}

/** CPU time (thread time of top-level tasks) of the page's main thread and of its workers, from a trace of the load. */
function cpuFromTrace(path: string) {
  type Frame = { processId?: number; url?: string }
  type TraceEvent = { ph: string; name: string; pid: number; tid: number; dur?: number; tdur?: number; args?: { name?: string; data?: Frame & { frames?: Frame[] } } }
  const { traceEvents } = JSON.parse(readFileSync(path, 'utf8')) as { traceEvents: TraceEvent[] }
  // The page's renderer: the process its frames committed in (the trace also holds the browser's own renderers).
  const frames = traceEvents.flatMap((e): Frame[] => (e.name === 'FrameCommittedInBrowser' && e.args?.data ? [e.args.data] : e.name === 'TracingStartedInBrowser' ? (e.args?.data?.frames ?? []) : []))
  const pagePids = new Set(frames.filter((f) => f.url?.startsWith('http') && f.processId !== undefined).map((f) => f.processId!))
  const threads = new Map<string, string>()
  for (const e of traceEvents) if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args?.name ?? '')
  const cpu = { main: 0, workers: 0 }
  for (const e of traceEvents) {
    if (e.ph !== 'X' || e.name !== 'RunTask' || !pagePids.has(e.pid)) continue
    const thread = threads.get(`${e.pid}:${e.tid}`)
    const ms = (e.tdur ?? e.dur ?? 0) / 1000
    if (thread === 'CrRendererMain') cpu.main += ms
    else if (thread === 'DedicatedWorker thread') cpu.workers += ms
  }
  return { mainCpuMs: Math.round(cpu.main), workersCpuMs: Math.round(cpu.workers) }
}

type Run = {
  jsBeforeInteractionGzKiB: number
  prefetchedJsGzKiB: number
  workerJsGzKiB: number
  buttonVisibleMs: number
  loadTbtMs: number
  clickToOpenMs: number
  openTbtMs: number
  heapMbOpen: number
  workersHeapMbAtLoad: number
  externalRequests: number
}

/** One cold load of `url`: load figures, then the click on the page's first button until a dialog is in the DOM. */
async function measureRun(browser: Browser, url: string): Promise<Run> {
  const context: BrowserContext = await browser.newContext()
  const page = await context.newPage()
  const hosts = new Set<string>()
  const workerScripts = new Set<string>()
  page.on('request', (request) => {
    hosts.add(new URL(request.url()).hostname)
    if (isWorkerScript(request.url())) workerScripts.add(request.url())
  })
  await page.addInitScript(probe)
  await page.goto(url)
  await page.waitForTimeout(1_500)
  const loaded = (await page.evaluate('({ buttonAt: window.__bench.buttonAt, longTasks: window.__bench.longTasks.splice(0) })')) as { buttonAt?: number; longTasks: number[] }
  if (loaded.buttonAt === undefined) throw new Error(`${url}: no button within 1.5 s`)
  const scripts = await documentScripts(page)
  const workersHeap = await workersHeapBytes(browser)
  await page.locator('button').first().hover()
  await page.waitForTimeout(200)
  // From the click to the first frame in which a dialog is in the (shadow) DOM.
  const clickToOpenMs = (await page.evaluate(`new Promise((resolve) => {
    const button = window.__find('button')
    const started = performance.now()
    const check = () => (window.__find('[role="dialog"]') ? resolve(performance.now() - started) : requestAnimationFrame(check))
    button.click()
    requestAnimationFrame(check)
  })`)) as number
  await page.waitForTimeout(300)
  const openLongTasks = (await page.evaluate('window.__bench.longTasks.splice(0)')) as number[]
  const cdp: CDPSession = await context.newCDPSession(page)
  await cdp.send('HeapProfiler.collectGarbage')
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }
  await context.close()
  return {
    jsBeforeInteractionGzKiB: await gzKiB(scripts.initial.filter((u) => !isWorkerScript(u))),
    prefetchedJsGzKiB: await gzKiB(scripts.prefetched.filter((u) => !isWorkerScript(u))),
    workerJsGzKiB: await gzKiB(workerScripts),
    buttonVisibleMs: Math.round(loaded.buttonAt),
    loadTbtMs: tbt(loaded.longTasks),
    clickToOpenMs: round(clickToOpenMs),
    openTbtMs: tbt(openLongTasks),
    heapMbOpen: mb(usedSize),
    workersHeapMbAtLoad: mb(workersHeap),
    externalRequests: [...hosts].filter((h) => h !== '127.0.0.1' && h !== 'localhost').length,
  }
}

/** A traced cold load: CPU time of the main thread and the workers until 1.5 s after navigation. */
async function measureCpu(browser: Browser, url: string) {
  const context = await browser.newContext()
  const page = await context.newPage()
  const path = `/tmp/tessera-bench-ui-${process.pid}.json`
  await browser.startTracing(page, { path, categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline'] })
  await page.goto(url)
  await page.waitForTimeout(1_500)
  await browser.stopTracing()
  await context.close()
  return cpuFromTrace(path)
}

/** Cold runs of a page and of its floor, interleaved (the machine's load hits both alike); medians, and every run's TBT. */
async function compare(browser: Browser, widgetUrl: string, floorUrl: string) {
  const widget: Run[] = []
  const floor: Run[] = []
  const widgetCpu: ReturnType<typeof cpuFromTrace>[] = []
  const floorCpu: ReturnType<typeof cpuFromTrace>[] = []
  for (let i = 0; i < RUNS; i++) {
    floor.push(await measureRun(browser, floorUrl))
    widget.push(await measureRun(browser, widgetUrl))
  }
  for (let i = 0; i < Math.min(RUNS, 3); i++) {
    floorCpu.push(await measureCpu(browser, floorUrl))
    widgetCpu.push(await measureCpu(browser, widgetUrl))
  }
  const pick = <K extends keyof Run>(runs: Run[], key: K) => median(runs.map((r) => r[key]))
  const w = <K extends keyof Run>(key: K) => pick(widget, key)
  const f = <K extends keyof Run>(key: K) => pick(floor, key)
  return {
    jsBeforeInteractionGzKiB: w('jsBeforeInteractionGzKiB'),
    reactFloorGzKiB: f('jsBeforeInteractionGzKiB'),
    overReactFloorGzKiB: round(w('jsBeforeInteractionGzKiB') - f('jsBeforeInteractionGzKiB')),
    prefetchedJsGzKiB: w('prefetchedJsGzKiB'),
    workerJsGzKiB: w('workerJsGzKiB'),
    buttonVisibleMs: w('buttonVisibleMs'),
    floorButtonVisibleMs: f('buttonVisibleMs'),
    buttonVisibleOverFloorMs: w('buttonVisibleMs') - f('buttonVisibleMs'),
    clickToConnectViewMs: w('clickToOpenMs'),
    floorClickToOpenMs: f('clickToOpenMs'),
    clickOverFloorMs: round(w('clickToOpenMs') - f('clickToOpenMs')),
    loadTbtMs: w('loadTbtMs'),
    openTbtMs: w('openTbtMs'),
    floorLoadTbtMs: f('loadTbtMs'),
    heapMbModalOpen: w('heapMbOpen'),
    floorHeapMbOpen: f('heapMbOpen'),
    heapOverFloorMb: round(w('heapMbOpen') - f('heapMbOpen'), 2),
    workersHeapMbAtLoad: w('workersHeapMbAtLoad'),
    mainCpuMsAtLoad: median(widgetCpu.map((c) => c.mainCpuMs)),
    floorMainCpuMsAtLoad: median(floorCpu.map((c) => c.mainCpuMs)),
    workersCpuMsAtLoad: median(widgetCpu.map((c) => c.workersCpuMs)),
    externalRequests: w('externalRequests'),
    loadTbtMsEveryRun: widget.map((r) => r.loadTbtMs),
    floorLoadTbtMsEveryRun: floor.map((r) => r.loadTbtMs),
    openTbtMsEveryRun: widget.map((r) => r.openTbtMs),
  }
}

async function main() {
  const ports = await freePorts()
  const stack = await startStack({ ports, demo: 'none' })
  const stops: (() => Promise<unknown>)[] = [stack.stop]
  try {
    // The site: the packed package installed into a fresh Vite app, the widget's page and the floor built apart.
    const app = await createHostApp('vite', { vite: '8.3.8', '@vitejs/plugin-react': '6.3.0', react: '19.3.1', 'react-dom': '19.3.1' })
    stops.push(async () => app.remove())
    run(app.bin('vite'), ['build', '--outDir', 'dist-widget'], app.dir, { HOST_PAGES: 'bench' })
    run(app.bin('vite'), ['build', '--outDir', 'dist-floor'], app.dir, { HOST_PAGES: 'floor' })
    const [sitePort, floorPort] = [ports.demo, (await freePorts()).demo]
    const siteServer = await serveStatic(`${app.dir}/dist-widget`, sitePort)
    const floorServer = await serveStatic(`${app.dir}/dist-floor`, floorPort)
    stops.push(async () => siteServer.close(), async () => floorServer.close())
    // The harness, from source.
    const harnessPort = (await freePorts()).api
    const root = fileURLToPath(new URL('../../test/harness', import.meta.url))
    stops.push(await serveViteApp({ root, mode: 'preview', host: '127.0.0.1', port: harnessPort, manifest: stack.manifest }))
    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
    stops.push(() => browser.close())
    const rpc = encodeURIComponent(stack.manifest.chains[0]!.rpcUrl)
    const pkg = await compare(browser, `http://127.0.0.1:${sitePort}/bench.html?rpc=${rpc}`, `http://127.0.0.1:${floorPort}/floor.html`)
    const source = await compare(browser, `http://127.0.0.1:${harnessPort}/ui.html`, `http://127.0.0.1:${harnessPort}/floor.html`)
    console.log(JSON.stringify({ runs: RUNS, package: pkg, source }))
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {})
  }
}

await main()
