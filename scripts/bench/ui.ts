// `npm run bench:ui`: what a visitor's browser pays for Tessera's button and modal, against a React page with a button
// and a dialog, in Debian's Chromium, timed the way a visitor sees it (and the way the peers are measured). Two pages,
// each with its own floor, measured in the same run:
// - `package`: a site's Vite app with the packed package installed by npm (`test/pack-apps/vite`, bench.html), against
//   the same app with React alone (floor.html), each built as a one-page site;
// - `source`: the test harness built from source (test/harness ui.html and floor.html), as the budget test measures it.
// Each in two settings: `quiet`, and `loaded` (a CPU-burning neighbour on every core, started and stopped here).
// `--quiet` or `--loaded` runs one of them; loaded, the package gets BENCH_LOADED_RUNS runs (3 × BENCH_RUNS unless
// set). Cold runs (a fresh browser context each), page and floor interleaved, each first in every other pair; per
// figure the median and the worst run of each, and widget − floor; prints JSON (see README, "Performance") with issue
// 37's goals for the package in each setting (`package.goals`, `goalsMissed`), and exits 1 if one is missed.
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from '@playwright/test'
import { freePorts } from '../../services/stack/ports'
import { serveViteApp, startStack } from '../../services/stack/startStack'
import { createHostApp, run, serveStatic } from '../../test/e2e/hostApps'
import { chromiumArgs, chromiumPath } from '../../playwright.config'
import { startCpuNeighbour } from './cpuNeighbour'
import { median } from './stats'

const RUNS = Number(process.env.BENCH_RUNS ?? 5)
/**
 * The package's runs under the neighbour. A loaded machine moves a load's times by tens of ms from one load to the next
 * (the package's button at 102–257 ms in 15 loads, its floor's at 102–287): the median of 5 swings by more than the
 * 10 ms judged.
 */
const LOADED_PACKAGE_RUNS = Number(process.env.BENCH_LOADED_RUNS ?? 3 * RUNS)
/** The load window: long tasks, TBT and CPU time are counted from navigation start to this. */
const LOAD_WINDOW_MS = 1_500
/** Every wait ends by this, with an error naming what was not seen. */
const DEADLINE_MS = 10_000
/** After the dialog is usable: the window in which the open's long tasks are counted. */
const OPEN_WINDOW_MS = 300

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits
const kib = (bytes: number) => round(bytes / 1024)
const mb = (bytes: number) => round(bytes / 1024 / 1024, 2)

/** Rejects with `what` once `ms` have passed without `promise` settling. */
async function withDeadline<T>(promise: Promise<T>, what: string, ms = DEADLINE_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms)))
  try {
    return await Promise.race([promise, deadline])
  } finally {
    clearTimeout(timer)
  }
}

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
 * Set up before the page's own scripts. Nothing of Playwright's runs in the page until the load window is over (its
 * injected scripts would be long tasks of their own): this script records the long tasks, watches each frame for the
 * button, and says on the console when the window is over. Every frame loop ends by DEADLINE_MS, saying what it saw.
 * - The button is "visible and usable" in the first frame where the first button of the page or of a widget's shadow
 *   root has a box, is not hidden (visibility, or opacity 0 on it or an ancestor) and is not disabled.
 * - `armOpen()` times the next click, from the click event's time stamp (its dispatch) to the first frame in which a
 *   dialog is visible by the same rule and its first row takes focus (the first button in a list item, else the first
 *   outside its header, else its first button: the widget's page lists no wallet in a bare browser, and its header's
 *   button comes in the same render as the view); the same rule for the widget and the floor, the row is reported.
 */
const probe = `(() => {
  const bench = (window.__bench = { longTasks: [], buttonAt: undefined, buttonSeen: 'no frame yet' })
  new PerformanceObserver((list) => list.getEntries().forEach((e) => bench.longTasks.push({ start: e.startTime, duration: e.duration }))).observe({ type: 'longtask', buffered: true })
  const roots = () => [document, ...[...document.querySelectorAll('[data-tessera]')].map((host) => host.shadowRoot).filter(Boolean)]
  const find = (selector) => roots().map((root) => root.querySelector(selector)).find(Boolean)
  const isVisible = (element) => {
    const box = element.getBoundingClientRect()
    return box.width > 0 && box.height > 0 && element.checkVisibility({ visibilityProperty: true, opacityProperty: true })
  }
  const isDisabled = (button) => button.disabled || button.getAttribute('aria-disabled') === 'true'
  const watchButton = () => {
    const button = find('button')
    const now = performance.now()
    bench.buttonSeen = !button ? 'no button in the page or a [data-tessera] shadow root' : !isVisible(button) ? 'a button, not visible' : isDisabled(button) ? 'a visible button, disabled' : undefined
    if (!bench.buttonSeen) bench.buttonAt = now
    else if (now < ${DEADLINE_MS}) requestAnimationFrame(watchButton)
  }
  requestAnimationFrame(watchButton)
  // The page's first render committed: the first node React puts into #root (its mutation is seen at the end of that task).
  new MutationObserver((records, observer) => {
    if (!records.some((r) => r.target.id === 'root' && r.addedNodes.length > 0)) return
    bench.committedAt = performance.now()
    observer.disconnect()
  }).observe(document, { childList: true, subtree: true })
  setTimeout(() => console.debug('tessera-bench: load window over'), ${LOAD_WINDOW_MS + 20} - performance.now())
  bench.armOpen = () => {
    bench.opened = new Promise((resolve) => {
      const noClick = setTimeout(() => resolve({ error: 'no click reached the page' }), ${DEADLINE_MS})
      addEventListener('click', (event) => {
        clearTimeout(noClick)
        const clickedAt = (bench.clickedAt = event.timeStamp)
        let seen = 'no frame after the click'
        const check = () => {
          const now = performance.now()
          const dialog = find('[role="dialog"]')
          const buttons = dialog ? [...dialog.querySelectorAll('button')] : []
          const row = dialog && (dialog.querySelector('li button') ?? buttons.find((b) => !b.closest('header, .header')) ?? buttons[0])
          if (!dialog) seen = 'no [role="dialog"]'
          else if (!isVisible(dialog)) seen = 'a dialog, not visible'
          else if (!row) seen = 'a visible dialog without a row'
          else if (isDisabled(row) || (row.focus({ preventScroll: true }), row.getRootNode().activeElement !== row)) seen = 'a visible dialog whose first row does not take focus'
          else return resolve({ ms: now - clickedAt, row: (row.getAttribute('aria-label') || row.textContent).trim().replace(/\\s+/g, ' ').slice(0, 40) })
          if (now - clickedAt > ${DEADLINE_MS}) resolve({ error: seen + ' (' + ${DEADLINE_MS} + ' ms after the click)' })
          else requestAnimationFrame(check)
        }
        requestAnimationFrame(check)
      }, { capture: true, once: true })
    })
  }
})()`

type LongTask = { start: number; duration: number }
const tbt = (tasks: LongTask[]) => Math.round(tasks.reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0))

/** Script URLs the document fetched, split into those the page loaded with (before its load event) and those after (prefetch on idle). */
const documentScripts = (page: Page) =>
  page.evaluate(`(() => {
    const loadEnd = performance.getEntriesByType('navigation')[0].loadEventEnd
    const scripts = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.js'))
    return { initial: scripts.filter((e) => e.startTime < loadEnd).map((e) => e.name), prefetched: scripts.filter((e) => e.startTime >= loadEnd).map((e) => e.name) }
  })()`) as Promise<{ initial: string[]; prefetched: string[] }>

/** The page's heap as DevTools saves it (BENCH_UI_TRACES): what the widget's share of it is made of. */
async function writeHeapSnapshot(cdp: CDPSession, path: string) {
  const chunks: string[] = []
  const onChunk = ({ chunk }: { chunk: string }) => void chunks.push(chunk)
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk)
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false })
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk)
  writeFileSync(path, chunks.join(''))
}

/** Heap after a GC of each dedicated worker (there is one context open at a time), through the browser's CDP session. */
async function workersHeapBytes(browser: Browser) {
  const cdp = await browser.newBrowserCDPSession()
  try {
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string; url: string }[] }
    let total = 0
    for (const { targetId, url } of targetInfos.filter((t) => t.type === 'worker')) {
      const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId, flatten: false })) as { sessionId: string }
      let onMessage: ((event: { sessionId: string; message: string }) => void) | undefined
      const answer = new Promise<number>((resolve) => {
        onMessage = (event) => {
          const message = JSON.parse(event.message) as { id: number; result?: { usedSize: number } }
          if (event.sessionId === sessionId && message.id === 2) resolve(message.result?.usedSize ?? 0)
        }
        cdp.on('Target.receivedMessageFromTarget', onMessage)
      })
      await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }) })
      await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: 2, method: 'Runtime.getHeapUsage' }) })
      try {
        total += await withDeadline(answer, `the heap of the worker ${url}`)
      } finally {
        cdp.off('Target.receivedMessageFromTarget', onMessage!)
        await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => {})
      }
    }
    return total
  } finally {
    await cdp.detach()
  }
}

/** CPU time (thread time of top-level tasks) of the page's main thread and of its workers in the load window, from a trace. */
function cpuFromTrace(path: string) {
  type Frame = { processId?: number; url?: string }
  type Args = { name?: string; frame?: string; data?: Frame & { frames?: Frame[]; documentLoaderURL?: string; isLoadingMainFrame?: boolean } }
  type TraceEvent = { ph: string; name: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number; args?: Args }
  const { traceEvents } = JSON.parse(readFileSync(path, 'utf8')) as { traceEvents: TraceEvent[] }
  // The page's renderer: the process its frames committed in (the trace also holds the browser's own renderers).
  const frames = traceEvents.flatMap((e): Frame[] => (e.name === 'FrameCommittedInBrowser' && e.args?.data ? [e.args.data] : e.name === 'TracingStartedInBrowser' ? (e.args?.data?.frames ?? []) : []))
  const pagePids = new Set(frames.filter((f) => f.url?.startsWith('http') && f.processId !== undefined).map((f) => f.processId!))
  // The window starts at the main frame's navigation to the page.
  const navigation = traceEvents.find((e) => e.name === 'navigationStart' && pagePids.has(e.pid) && e.args?.data?.isLoadingMainFrame && e.args.data.documentLoaderURL?.startsWith('http'))
  if (!navigation) throw new Error(`${path}: no navigationStart of the page in the trace`)
  const windowEnd = navigation.ts + LOAD_WINDOW_MS * 1_000
  const threads = new Map<string, string>()
  for (const e of traceEvents) if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args?.name ?? '')
  const cpu = { main: 0, workers: 0 }
  // The main thread's long tasks, by the wall clock (as the page's observer sees them) and by the thread's CPU time: a
  // task the system held off the CPU is long by the first and not by the second.
  const longTasks: { wallMs: number; cpuMs: number }[] = []
  for (const e of traceEvents) {
    if (e.ph !== 'X' || e.name !== 'RunTask' || !pagePids.has(e.pid) || e.ts < navigation.ts || e.ts >= windowEnd) continue
    const thread = threads.get(`${e.pid}:${e.tid}`)
    const ms = (e.tdur ?? e.dur ?? 0) / 1000
    if (thread === 'CrRendererMain') {
      cpu.main += ms
      if ((e.dur ?? 0) > 50_000) longTasks.push({ wallMs: Math.round(e.dur! / 1000), cpuMs: Math.round(ms) })
    } else if (thread === 'DedicatedWorker thread') cpu.workers += ms
  }
  return { mainCpuMs: Math.round(cpu.main), workersCpuMs: Math.round(cpu.workers), longTasks }
}

/**
 * Where the button's time goes, from the page's marks (`bench:entry` once its own code starts, its imports evaluated;
 * `bench:created` once the widget is made; the floor marks both at once) and the probe's: the page's scripts fetched
 * (the last of those before its code starts), evaluated (React and the widget's code), the widget made, the first
 * render committed, the frame that shows the button.
 */
const stagesScript = `(() => {
  const mark = (name) => performance.getEntriesByName(name, 'mark')[0]?.startTime
  const entry = mark('bench:entry')
  const scripts = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.js') && entry !== undefined && e.responseEnd <= entry)
  return { fetched: scripts.length > 0 ? Math.max(...scripts.map((e) => e.responseEnd)) : undefined, entry, created: mark('bench:created'), committed: window.__bench.committedAt }
})()`
type StageTimes = { fetched?: number; entry?: number; created?: number; committed?: number }
function buttonStages({ fetched, entry, created, committed }: StageTimes, buttonAt: number) {
  if (fetched === undefined || entry === undefined || created === undefined || committed === undefined) throw new Error(`the page's stage marks are missing: ${JSON.stringify({ fetched, entry, created, committed })}`)
  return { scriptFetchedMs: round(fetched), evaluateMs: round(entry - fetched), createMs: round(created - entry), renderMs: round(committed - created), paintMs: round(buttonAt - committed) }
}

type Run = {
  jsBeforeInteractionGzKiB: number
  prefetchedJsGzKiB: number
  workerJsGzKiB: number
  buttonUsableMs: number
  scriptFetchedMs: number
  evaluateMs: number
  createMs: number
  renderMs: number
  paintMs: number
  loadLongTasks: number
  loadLongestTaskMs: number
  loadTbtMs: number
  clickToDialogUsableMs: number
  openTbtMs: number
  heapMbDialogOpen: number
  workersHeapMbDialogOpen: number
  externalRequests: number
  firstRow: string
}

/**
 * One cold load of `url`: the load window's figures, then a hover and a real click on the page's first button (through
 * Playwright's locator, which pierces open shadow roots) until the dialog is usable, then the heaps after a GC.
 */
async function measureRun(browser: Browser, url: string): Promise<Run> {
  const context: BrowserContext = await browser.newContext()
  try {
    const page = await context.newPage()
    page.setDefaultTimeout(DEADLINE_MS)
    const hosts = new Set<string>()
    const workerScripts = new Set<string>()
    page.on('request', (request) => {
      hosts.add(new URL(request.url()).hostname)
      if (isWorkerScript(request.url())) workerScripts.add(request.url())
    })
    await page.addInitScript(probe)
    const windowOver = page.waitForEvent('console', { predicate: (message) => message.text() === 'tessera-bench: load window over', timeout: LOAD_WINDOW_MS + DEADLINE_MS }).then(
      () => true,
      () => false,
    )
    await page.goto(url, { timeout: 3 * DEADLINE_MS })
    if (!(await windowOver)) throw new Error(`${url}: the load window's end was not signalled on the console`)
    // A button that comes after the window is still timed (a loaded machine), until the deadline.
    let button = (await page.evaluate('({ at: window.__bench.buttonAt, seen: window.__bench.buttonSeen, now: performance.now() })')) as { at?: number; seen?: string; now: number }
    while (button.at === undefined && button.now < DEADLINE_MS) {
      await page.waitForTimeout(100)
      button = (await page.evaluate('({ at: window.__bench.buttonAt, seen: window.__bench.buttonSeen, now: performance.now() })')) as typeof button
    }
    if (button.at === undefined) throw new Error(`${url}: no visible and usable button within ${DEADLINE_MS} ms of navigation; last seen: ${button.seen}`)
    const loadTasks = ((await page.evaluate('window.__bench.longTasks')) as LongTask[]).filter((t) => t.start < LOAD_WINDOW_MS)
    const stages = buttonStages((await page.evaluate(stagesScript)) as StageTimes, button.at)
    const scripts = await documentScripts(page)
    await page.locator('button').first().hover()
    await page.waitForTimeout(200)
    await page.evaluate('window.__bench.armOpen()')
    const keep = process.env.BENCH_UI_TRACES
    if (keep) await browser.startTracing(page, { path: `${keep}/click${new URL(url).pathname.replace(/\W+/g, '-')}-${Date.now()}.json`, categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-v8.cpu_profiler', 'v8.execute'] })
    await page.locator('button').first().click()
    const opened = (await withDeadline(page.evaluate('window.__bench.opened'), `${url}: the dialog after the click`, DEADLINE_MS + 5_000)) as { ms?: number; row?: string; error?: string }
    if (keep) await browser.stopTracing()
    if (opened.ms === undefined) throw new Error(`${url}: the dialog was not visible with a focusable first row: ${opened.error}`)
    await page.waitForTimeout(OPEN_WINDOW_MS)
    const clickedAt = (await page.evaluate('window.__bench.clickedAt')) as number
    const openTasks = ((await page.evaluate('window.__bench.longTasks')) as LongTask[]).filter((t) => t.start >= clickedAt - 1)
    const cdp: CDPSession = await context.newCDPSession(page)
    await cdp.send('HeapProfiler.collectGarbage')
    const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }
    if (keep) await writeHeapSnapshot(cdp, `${keep}/heap${new URL(url).pathname.replace(/\W+/g, '-')}-${Date.now()}.heapsnapshot`)
    const workersHeap = await workersHeapBytes(browser)
    return {
      jsBeforeInteractionGzKiB: await gzKiB(scripts.initial.filter((u) => !isWorkerScript(u))),
      prefetchedJsGzKiB: await gzKiB(scripts.prefetched.filter((u) => !isWorkerScript(u))),
      workerJsGzKiB: await gzKiB(workerScripts),
      buttonUsableMs: Math.round(button.at),
      ...stages,
      loadLongTasks: loadTasks.length,
      loadLongestTaskMs: Math.round(Math.max(0, ...loadTasks.map((t) => t.duration))),
      loadTbtMs: tbt(loadTasks),
      clickToDialogUsableMs: round(opened.ms),
      openTbtMs: tbt(openTasks),
      heapMbDialogOpen: mb(usedSize),
      workersHeapMbDialogOpen: mb(workersHeap),
      externalRequests: [...hosts].filter((h) => h !== '127.0.0.1' && h !== 'localhost').length,
      firstRow: opened.row ?? '',
    }
  } finally {
    await context.close()
  }
}

/** A traced cold load: CPU time of the main thread and the workers in the load window. */
async function measureCpu(browser: Browser, url: string) {
  const context = await browser.newContext()
  // BENCH_UI_TRACES=<folder> keeps each trace there, with the JS profiler's samples, to see where the time goes.
  const keep = process.env.BENCH_UI_TRACES
  const path = keep ? `${keep}/${new URL(url).pathname.replace(/\W+/g, '-')}-${Date.now()}.json` : `/tmp/tessera-bench-ui-${process.pid}.json`
  try {
    const page = await context.newPage()
    const profiler = keep ? ['disabled-by-default-v8.cpu_profiler', 'v8.execute', 'disabled-by-default-v8.compile'] : []
    await browser.startTracing(page, { path, categories: ['toplevel', 'blink.user_timing', 'devtools.timeline', 'disabled-by-default-devtools.timeline', ...profiler] })
    // goto resolves at the load event, after navigation start: the window is over once LOAD_WINDOW_MS more have passed.
    await page.goto(url, { timeout: 3 * DEADLINE_MS })
    await page.waitForTimeout(LOAD_WINDOW_MS)
    await browser.stopTracing()
    return cpuFromTrace(path)
  } finally {
    await context.close()
    if (!keep) rmSync(path, { force: true })
  }
}

/** A figure of the widget's page and its floor: medians, worst runs (the highest), widget − floor of each. */
function figure(widget: number[], floor: number[], digits = 1) {
  const worst = (values: number[]) => Math.max(...values)
  const [w, f, ww, fw] = [median(widget), median(floor), worst(widget), worst(floor)]
  return { widget: w, floor: f, overFloor: round(w - f, digits), widgetWorst: ww, floorWorst: fw, overFloorWorst: round(ww - fw, digits) }
}

/** Issue 37's goals, each against the floor of the same run: widget − floor at most this (load TBT: 0 in every run). */
const GOALS = { buttonUsableMs: 10, clickToDialogUsableMs: 10, heapMbDialogOpen: 1.0, mainCpuMsLoadWindow: 25, jsBeforeInteractionGzKiB: 10 }

/**
 * Whether the package's figures meet issue 37's goals, which judge it as the peers are judged: in a site's own build.
 * (The harness, built from source and served as Vite's preview serves it, is measured for the budget test, not judged.)
 */
function goalsOf(figures: Awaited<ReturnType<typeof compare>>) {
  const overFloor = (key: Exclude<keyof typeof GOALS, 'jsBeforeInteractionGzKiB'>) => ({
    goal: `widget − floor <= ${GOALS[key]}`,
    overFloor: figures[key].overFloor,
    isMet: figures[key].overFloor <= GOALS[key],
  })
  const everyRun = figures.loadTbtMsEveryRun
  return {
    buttonUsableMs: overFloor('buttonUsableMs'),
    clickToDialogUsableMs: overFloor('clickToDialogUsableMs'),
    heapMbDialogOpen: overFloor('heapMbDialogOpen'),
    mainCpuMsLoadWindow: overFloor('mainCpuMsLoadWindow'),
    loadTbtMsEveryRun: { goal: '0 in every run', widget: everyRun.widget, floor: everyRun.floor, isMet: everyRun.widget.every((ms) => ms === 0) },
    jsBeforeInteractionGzKiB: {
      goal: `widget − floor <= ${GOALS.jsBeforeInteractionGzKiB}`,
      overFloor: figures.jsBeforeInteractionGzKiB.overFloor,
      isMet: figures.jsBeforeInteractionGzKiB.overFloor <= GOALS.jsBeforeInteractionGzKiB,
    },
  }
}

/**
 * `runs` cold runs of a page and of its floor, interleaved (the machine's load hits both alike), each page first in
 * every other pair (neither always follows the other's teardown).
 */
async function compare(browser: Browser, widgetUrl: string, floorUrl: string, runs = RUNS) {
  const widget: Run[] = []
  const floor: Run[] = []
  const widgetCpu: ReturnType<typeof cpuFromTrace>[] = []
  const floorCpu: ReturnType<typeof cpuFromTrace>[] = []
  const inTurn = async (i: number, measureFloor: () => Promise<unknown>, measureWidget: () => Promise<unknown>) => {
    const [first, second] = i % 2 === 0 ? [measureFloor, measureWidget] : [measureWidget, measureFloor]
    await first()
    await second()
  }
  for (let i = 0; i < runs; i++) {
    await inTurn(
      i,
      async () => floor.push(await measureRun(browser, floorUrl)),
      async () => widget.push(await measureRun(browser, widgetUrl)),
    )
  }
  for (let i = 0; i < Math.min(runs, 3); i++) {
    await inTurn(
      i,
      async () => floorCpu.push(await measureCpu(browser, floorUrl)),
      async () => widgetCpu.push(await measureCpu(browser, widgetUrl)),
    )
  }
  const of = (key: Exclude<keyof Run, 'firstRow'>, digits = 1) => figure(widget.map((r) => r[key]), floor.map((r) => r[key]), digits)
  const sizes = (key: 'jsBeforeInteractionGzKiB' | 'prefetchedJsGzKiB' | 'workerJsGzKiB') => median(widget.map((r) => r[key]))
  return {
    firstRow: { widget: widget[0]!.firstRow, floor: floor[0]!.firstRow },
    jsBeforeInteractionGzKiB: { widget: sizes('jsBeforeInteractionGzKiB'), floor: median(floor.map((r) => r.jsBeforeInteractionGzKiB)), overFloor: round(sizes('jsBeforeInteractionGzKiB') - median(floor.map((r) => r.jsBeforeInteractionGzKiB))) },
    prefetchedJsGzKiB: sizes('prefetchedJsGzKiB'),
    workerJsGzKiB: sizes('workerJsGzKiB'),
    buttonUsableMs: of('buttonUsableMs'),
    // The button's time by stage (see stagesScript): what the widget adds to each.
    buttonStagesMs: { scriptFetched: of('scriptFetchedMs'), evaluate: of('evaluateMs'), create: of('createMs'), render: of('renderMs'), paint: of('paintMs') },
    clickToDialogUsableMs: of('clickToDialogUsableMs'),
    loadTbtMs: of('loadTbtMs'),
    loadLongTasks: of('loadLongTasks'),
    loadLongestTaskMs: of('loadLongestTaskMs'),
    openTbtMs: of('openTbtMs'),
    heapMbDialogOpen: of('heapMbDialogOpen', 2),
    workersHeapMbDialogOpen: of('workersHeapMbDialogOpen', 2),
    mainCpuMsLoadWindow: figure(widgetCpu.map((c) => c.mainCpuMs), floorCpu.map((c) => c.mainCpuMs)),
    workersCpuMsLoadWindow: figure(widgetCpu.map((c) => c.workersCpuMs), floorCpu.map((c) => c.workersCpuMs)),
    // The traced loads' main-thread tasks over 50 ms (wall), each with its CPU time.
    tracedLoadLongTasks: { widget: widgetCpu.flatMap((c) => c.longTasks), floor: floorCpu.flatMap((c) => c.longTasks) },
    loadTbtMsEveryRun: { widget: widget.map((r) => r.loadTbtMs), floor: floor.map((r) => r.loadTbtMs) },
    buttonUsableMsEveryRun: { widget: widget.map((r) => r.buttonUsableMs), floor: floor.map((r) => r.buttonUsableMs) },
    openTbtMsEveryRun: { widget: widget.map((r) => r.openTbtMs), floor: floor.map((r) => r.openTbtMs) },
    externalRequests: median(widget.map((r) => r.externalRequests)),
  }
}

async function main() {
  const settings = process.argv.includes('--quiet') ? ['quiet'] : process.argv.includes('--loaded') ? ['loaded'] : ['quiet', 'loaded']
  const ports = await freePorts()
  // The pages configure the EVM chain alone: the other families' local chains (chopsticks, bcoin, LiteSVM) would only
  // be busy beside the browser.
  const stack = await startStack({ ports, demo: 'none', solana: false, bitcoin: false, polkadot: false })
  const stops: (() => unknown)[] = [stack.stop]
  try {
    // The site: the packed package installed into a fresh Vite app, the widget's page and the floor built apart.
    const app = await createHostApp('vite', { vite: '8.3.8', '@vitejs/plugin-react': '6.3.0', react: '19.3.1', 'react-dom': '19.3.1' })
    stops.push(() => app.remove())
    run(app.bin('vite'), ['build', '--outDir', 'dist-widget'], app.dir, { HOST_PAGES: 'bench' })
    run(app.bin('vite'), ['build', '--outDir', 'dist-floor'], app.dir, { HOST_PAGES: 'floor' })
    const [sitePort, floorPort] = [ports.demo, (await freePorts()).demo]
    const siteServer = await serveStatic(`${app.dir}/dist-widget`, sitePort)
    const floorServer = await serveStatic(`${app.dir}/dist-floor`, floorPort)
    stops.push(() => siteServer.close(), () => floorServer.close())
    // The harness, from source.
    const harnessPort = (await freePorts()).api
    const root = fileURLToPath(new URL('../../test/harness', import.meta.url))
    stops.push(await serveViteApp({ root, mode: 'preview', host: '127.0.0.1', port: harnessPort, manifest: stack.manifest }))
    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
    stops.push(() => browser.close())
    const rpc = encodeURIComponent(stack.manifest.chains[0]!.rpcUrl)
    const measure = async (packageRuns: number) => {
      const site = await compare(browser, `http://127.0.0.1:${sitePort}/bench.html?rpc=${rpc}`, `http://127.0.0.1:${floorPort}/floor.html`, packageRuns)
      const source = await compare(browser, `http://127.0.0.1:${harnessPort}/ui.html`, `http://127.0.0.1:${harnessPort}/floor.html`)
      return { package: { ...site, goals: goalsOf(site) }, source }
    }
    const results: Record<string, unknown> = { runs: RUNS, loadWindowMs: LOAD_WINDOW_MS }
    for (const setting of settings) {
      if (setting === 'quiet') {
        results.quiet = await measure(RUNS)
        continue
      }
      const neighbour = startCpuNeighbour()
      stops.push(neighbour.stop)
      try {
        results.loaded = { neighbour: { processes: neighbour.processes, niceness: neighbour.niceness }, packageRuns: LOADED_PACKAGE_RUNS, ...(await measure(LOADED_PACKAGE_RUNS)) }
      } finally {
        neighbour.stop()
      }
    }
    // Issue 37's goals: which the package missed, setting by setting; the bench exits 1 if it missed one.
    const missed = settings.flatMap((setting) => {
      const { goals } = (results[setting] as { package: { goals: ReturnType<typeof goalsOf> } }).package
      return Object.entries(goals)
        .filter(([, goal]) => !goal.isMet)
        .map(([name]) => `${setting} ${name}`)
    })
    results.goalsMissed = missed
    console.log(JSON.stringify(results))
    if (missed.length > 0) process.exitCode = 1
  } finally {
    for (const stop of stops.reverse()) {
      await Promise.resolve()
        .then(stop)
        .catch(() => {})
    }
  }
}

await main()
