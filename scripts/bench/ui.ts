// `npm run bench:ui`: what a visitor's browser pays for Tessera's button and modal, in Debian's Chromium against the
// local stack. 5 cold runs (fresh browser context each), medians. Prints JSON (see README, "Performance").
import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from '@playwright/test'
import { freePorts } from '../../services/stack/ports'
import { serveViteApp, startStack } from '../../services/stack/startStack'
import { chromiumArgs, chromiumPath } from '../../playwright.config'

const RUNS = Number(process.env.BENCH_RUNS ?? 5)
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10

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

/**
 * Script URLs the document itself fetched (resource timing of the page; workers keep their own), split into those
 * the page loaded with (started before the load event) and those prefetched afterwards (the modal, on idle).
 */
const documentScripts = (page: Page) =>
  page.evaluate(() => {
    const loadEnd = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd
    const scripts = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.js'))
    return { initial: scripts.filter((e) => e.startTime < loadEnd).map((e) => e.name), prefetched: scripts.filter((e) => e.startTime >= loadEnd).map((e) => e.name) }
  })

const takeTbt = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[] }
    const tbt = w.__longTasks.reduce((sum, d) => sum + Math.max(0, d - 50), 0)
    w.__longTasks = []
    return Math.round(tbt)
  })

async function measureFloor(browser: Browser, base: string) {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.addInitScript(`window.__longTasks = []
    new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__longTasks.push(e.duration))).observe({ type: 'longtask', buffered: true })`)
  await page.goto(`${base}/floor.html`)
  await page.getByRole('button').waitFor()
  await page.waitForTimeout(500)
  const size = await gzKiB((await documentScripts(page)).initial)
  const loadTbtMs = await takeTbt(page)
  await context.close()
  return { size, loadTbtMs }
}

async function measureRun(browser: Browser, base: string) {
  const context = await browser.newContext()
  const page = await context.newPage()
  const hosts = new Set<string>()
  const allScripts = new Set<string>()
  page.on('request', (request) => {
    hosts.add(new URL(request.url()).hostname)
    if (request.resourceType() === 'script' || request.url().endsWith('.js')) allScripts.add(request.url())
  })
  await page.addInitScript(`window.__longTasks = []
    new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__longTasks.push(e.duration))).observe({ type: 'longtask', buffered: true })`)
  await page.goto(`${base}/ui.html`)
  const button = page.getByRole('button', { name: 'Connect Wallet' })
  await button.waitFor()
  const buttonVisibleMs = Math.round(await page.evaluate(() => performance.now()))
  await page.waitForTimeout(500)
  const isWorkerScript = (url: string) => /\/worker-[^/]*\.js$/.test(url)
  const scripts = await documentScripts(page)
  const jsBeforeInteractionGzKiB = await gzKiB(scripts.initial.filter((url) => !isWorkerScript(url)))
  const prefetchedJsGzKiB = await gzKiB(scripts.prefetched.filter((url) => !isWorkerScript(url)))
  const loadTbtMs = await takeTbt(page)

  await button.hover()
  await page.waitForTimeout(200)
  // Time from the click event to the first frame in which the Connect view is in the (shadow) DOM.
  // A string, not a closure: the TypeScript runner would wrap named helpers in code the page does not have.
  const clickToConnectViewMs = (await page.evaluate(`new Promise((resolve) => {
    const hosts = [...document.querySelectorAll('[data-tessera]')]
    const button = hosts.map((h) => h.shadowRoot && h.shadowRoot.querySelector('button')).find(Boolean)
    const started = performance.now()
    const check = () => {
      const dialog = hosts.map((h) => h.shadowRoot && h.shadowRoot.querySelector('[role="dialog"]')).find(Boolean)
      if (dialog) resolve(performance.now() - started)
      else requestAnimationFrame(check)
    }
    button.click()
    requestAnimationFrame(check)
  })`)) as number
  await page.getByRole('dialog', { name: 'Connect Wallet' }).waitFor()
  await page.waitForTimeout(300)
  const openTbtMs = await takeTbt(page)
  const cdp = await context.newCDPSession(page)
  await cdp.send('HeapProfiler.collectGarbage')
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }
  const workerJsGzKiB = await gzKiB([...allScripts].filter(isWorkerScript))
  await context.close()
  return {
    jsBeforeInteractionGzKiB,
    prefetchedJsGzKiB,
    workerJsGzKiB,
    buttonVisibleMs,
    clickToConnectViewMs: Math.round(clickToConnectViewMs * 10) / 10,
    loadTbtMs,
    openTbtMs,
    heapMbModalOpen: Math.round((usedSize / 1024 / 1024) * 100) / 100,
    externalRequests: [...hosts].filter((h) => h !== '127.0.0.1' && h !== 'localhost').length,
  }
}

async function main() {
  const ports = await freePorts()
  const stack = await startStack({ ports, demo: 'none' })
  const stops = [stack.stop]
  try {
    const root = fileURLToPath(new URL('../../test/harness', import.meta.url))
    stops.push(await serveViteApp({ root, mode: 'preview', host: '127.0.0.1', port: ports.demo, manifest: stack.manifest }))
    const base = `http://127.0.0.1:${ports.demo}`
    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
    stops.push(() => browser.close())
    const floors = []
    for (let i = 0; i < RUNS; i++) floors.push(await measureFloor(browser, base))
    const reactFloorGzKiB = floors[0]!.size
    const reactFloorLoadTbtMs = median(floors.map((f) => f.loadTbtMs))
    const runs: Awaited<ReturnType<typeof measureRun>>[] = []
    for (let i = 0; i < RUNS; i++) runs.push(await measureRun(browser, base))
    const pick = <K extends keyof (typeof runs)[number]>(key: K) => median(runs.map((r) => r[key] as number))
    const result = {
      jsBeforeInteractionGzKiB: pick('jsBeforeInteractionGzKiB'),
      prefetchedJsGzKiB: pick('prefetchedJsGzKiB'),
      workerJsGzKiB: pick('workerJsGzKiB'),
      reactFloorGzKiB,
      reactFloorLoadTbtMs,
      buttonVisibleMs: pick('buttonVisibleMs'),
      clickToConnectViewMs: pick('clickToConnectViewMs'),
      loadTbtMs: pick('loadTbtMs'),
      openTbtMs: pick('openTbtMs'),
      heapMbModalOpen: pick('heapMbModalOpen'),
      externalRequests: pick('externalRequests'),
    }
    const everyRun = { loadTbtMsEveryRun: runs.map((r) => r.loadTbtMs), reactFloorLoadTbtMsEveryRun: floors.map((f) => f.loadTbtMs), openTbtMsEveryRun: runs.map((r) => r.openTbtMs) }
    console.log(JSON.stringify({ ...result, overReactFloorGzKiB: Math.round((result.jsBeforeInteractionGzKiB - reactFloorGzKiB) * 10) / 10, ...everyRun, runs: RUNS }))
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {})
  }
}

await main()
