import { gzipSync } from 'node:zlib'
import type { Page } from '@playwright/test'
import { expect, test } from '../fixtures'

/**
 * Size budgets of the UI issue, enforced on every `npm test` (sizes are deterministic; timings live in bench:ui). The
 * package's own first-click JS is held to 10 KiB by size-limit (`.size-limit.js`); this page, built from source by
 * Vite, also carries its own four network variants and Vite's chunk glue. It measured 36.3 KiB once e-mail login
 * landed; the views' CSS moving to the modal's chunk and the CSS compaction (issue 19) brought it to 34.6, and the
 * widget starting after the first frame (its code past the buttons loaded on idle) to 9.9.
 */
const OVER_REACT_FLOOR_KIB = 15
const WITH_WORKER_KIB = 150

async function initialScriptsGzKiB(page: Page, path: string, { withWorker = false } = {}) {
  await page.goto(path)
  await page.getByRole('button').first().waitFor()
  await page.waitForLoadState('load')
  await page.waitForTimeout(300)
  if (withWorker) {
    // The widget starts its worker when the visitor shows intent (or 2 s after the page's first idle time): a hover.
    await page.getByRole('button').first().hover()
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /\/worker-[^/]*\.js$/.test(e.name)))
  }
  // What the page loads with (started before its load event), and the worker's script whenever it came.
  const urls = await page.evaluate(() => {
    const loadEnd = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd
    const isWorker = (url: string) => /\/worker-[^/]*\.js$/.test(url)
    const scripts = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.js'))
    return { main: scripts.filter((e) => !isWorker(e.name) && e.startTime < loadEnd).map((e) => e.name), worker: scripts.filter((e) => isWorker(e.name)).map((e) => e.name) }
  })
  const gz = async (url: string) => gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer()), { level: 9 }).length
  let bytes = 0
  let workerBytes = 0
  for (const url of urls.main) bytes += await gz(url)
  for (const url of urls.worker) workerBytes += await gz(url)
  return { kib: bytes / 1024, workerKib: workerBytes / 1024 }
}

for (const [families, query] of [['EVM', ''], ['EVM and Solana', '?solana'], ['EVM, Solana and Bitcoin', '?solana&bitcoin'], ['all four families', '?solana&bitcoin&polkadot']] as const) {
  test(`the widget stays within its size budgets over a plain React page (${families} configured)`, async ({ page, stack }, testInfo) => {
    // Without the stack's Bitcoin chain the page would leave Bitcoin out and measure the variant before it.
    if (query.includes('bitcoin')) expect(stack.bitcoin, 'the stack runs its Bitcoin chain').toBeDefined()
    if (query.includes('polkadot')) expect(stack.polkadot, 'the stack runs its Polkadot chain').toBeDefined()
    const floor = await initialScriptsGzKiB(page, `${stack.harness!.url}/floor.html`)
    const ui = await initialScriptsGzKiB(page, `${stack.harness!.url}/ui.html${query}`, { withWorker: true })
    const overFloor = ui.kib - floor.kib
    testInfo.annotations.push({ type: 'size', description: `over the React floor ${overFloor.toFixed(1)} KiB gz (page ${ui.kib.toFixed(1)}, floor ${floor.kib.toFixed(1)}), worker ${ui.workerKib.toFixed(1)} KiB gz` })
    expect(ui.workerKib).toBeGreaterThan(0)
    expect(overFloor, `main-thread JS over the React floor: ${overFloor.toFixed(1)} KiB`).toBeLessThanOrEqual(OVER_REACT_FLOOR_KIB)
    expect(overFloor + ui.workerKib, `with the worker: ${(overFloor + ui.workerKib).toFixed(1)} KiB`).toBeLessThanOrEqual(WITH_WORKER_KIB)
  })
}
