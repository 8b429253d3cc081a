// `npm run bench:ui:compare -- <rev> [<rev> …]`: the button-visible time of the packed package at several commits,
// against the React floor, in one browser: BENCH_RUNS (15) cold loads of each page, interleaved (each page taking each
// place in turn), so the machine's load hits them alike. Each commit is checked out in a temporary worktree (sharing
// this checkout's node_modules), its package built with Vite and packed, and installed into a fresh copy of
// test/pack-apps/vite as a site would. `working` stands for this checkout as it is. Prints JSON: per page, the median,
// every load's time and long tasks.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from '@playwright/test'
import { chromiumArgs, chromiumPath } from '../../playwright.config'
import { hostEnv, serveStatic } from '../../test/e2e/hostApps'
import { freePorts } from '../../services/stack/ports'
import { median } from './stats'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const RUNS = Number(process.env.BENCH_RUNS ?? 15)
const HOST_DEPENDENCIES = { vite: '8.3.8', '@vitejs/plugin-react': '6.3.0', react: '19.3.1', 'react-dom': '19.3.1' }

const sh = (command: string, args: string[], cwd: string, env: Record<string, string> = {}) => execFileSync(command, args, { cwd, stdio: 'pipe', env: { ...hostEnv, ...env } })

/** The first frame with a button (in the page or a widget's shadow root), and the long tasks until then and after. */
const probe = `window.__bench = { longTasks: [] }
new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__bench.longTasks.push(Math.round(e.duration)))).observe({ type: 'longtask', buffered: true })
const check = () => [document, ...[...document.querySelectorAll('[data-tessera]')].map((h) => h.shadowRoot).filter(Boolean)].some((r) => r.querySelector('button')) ? (window.__bench.buttonAt = performance.now()) : requestAnimationFrame(check)
requestAnimationFrame(check)`

/** The site built with the package of `rev` (`working`: this checkout), and with `floor` its React-only page too. */
function buildSite(rev: string, work: string, { floor }: { floor: boolean }) {
  let source = ROOT
  if (rev !== 'working') {
    source = join(work, `checkout-${rev.replace(/\W/g, '_')}`)
    sh('git', ['worktree', 'add', '--detach', '-f', source, rev], ROOT)
    symlinkSync(join(ROOT, 'node_modules'), join(source, 'node_modules'))
  }
  // The JavaScript only: the declarations' build refuses a node_modules reached through a link, and a site's bundler needs none.
  sh('npx', ['vite', 'build', '-c', 'vite.lib.config.ts'], source)
  const packed = mkdtempSync(join(work, 'pack-'))
  sh('npm', ['pack', '--ignore-scripts', '--pack-destination', packed], source)
  const tarball = join(packed, readdirSync(packed).find((file) => file.endsWith('.tgz'))!)
  const site = mkdtempSync(join(work, 'site-'))
  cpSync(join(ROOT, 'test/pack-apps/vite'), site, { recursive: true })
  writeFileSync(join(site, 'package.json'), JSON.stringify({ name: 'compare-site', private: true, type: 'module', dependencies: { tessera: `file:${tarball}`, ...HOST_DEPENDENCIES } }))
  sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], site)
  const vite = join(site, 'node_modules/.bin/vite')
  sh(vite, ['build', '--outDir', 'dist-widget'], site, { HOST_PAGES: 'bench' })
  if (floor) sh(vite, ['build', '--outDir', 'dist-floor'], site, { HOST_PAGES: 'floor' })
  return { site, checkout: source === ROOT ? undefined : source }
}

async function main() {
  const revs = process.argv.slice(2)
  if (revs.length === 0) throw new Error('Name the commits to compare: npm run bench:ui:compare -- <rev> [<rev> …] (working: this checkout)')
  const work = mkdtempSync(join(tmpdir(), 'tessera-ui-compare-'))
  const stops: (() => unknown)[] = [() => rmSync(work, { recursive: true, force: true })]
  try {
    const sites = revs.map((rev, index) => ({ rev, ...buildSite(rev, work, { floor: index === 0 }) }))
    for (const { checkout } of sites) if (checkout) stops.push(() => sh('git', ['worktree', 'remove', '--force', checkout], ROOT))
    const pages: { name: string; url: string }[] = []
    const serve = async (dir: string, page: string, name: string) => {
      const port = (await freePorts()).demo
      const server = await serveStatic(dir, port)
      stops.push(() => server.close())
      // An RPC URL that answers nothing: the start-up measured needs no chain.
      pages.push({ name, url: `http://127.0.0.1:${port}/${page}?rpc=${encodeURIComponent('http://127.0.0.1:9')}` })
    }
    await serve(join(sites[0]!.site, 'dist-floor'), 'floor.html', 'floor')
    for (const { rev, site } of sites) await serve(join(site, 'dist-widget'), 'bench.html', rev)
    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
    stops.push(() => browser.close())
    const loads = new Map(pages.map(({ name }) => [name, [] as { buttonAt: number; longTasks: number[] }[]]))
    for (let run = 0; run < RUNS; run++) {
      // Each page takes each place in turn: the one after another's teardown, or first, is not always the same.
      for (const { name, url } of pages.map((_, index) => pages[(index + run) % pages.length]!)) {
        const context = await browser.newContext()
        const page = await context.newPage()
        await page.addInitScript(probe)
        await page.goto(url)
        await page.waitForTimeout(1_500)
        const { buttonAt, longTasks } = (await page.evaluate('window.__bench')) as { buttonAt?: number; longTasks: number[] }
        if (buttonAt === undefined) throw new Error(`${name}: no button within 1.5 s`)
        loads.get(name)!.push({ buttonAt: Math.round(buttonAt), longTasks })
        await context.close()
      }
    }
    const floorMs = median(loads.get('floor')!.map((l) => l.buttonAt))
    const figures = Object.fromEntries(
      [...loads].map(([name, runs]) => {
        const buttonVisibleMs = median(runs.map((l) => l.buttonAt))
        return [name, { buttonVisibleMs, overFloorMs: buttonVisibleMs - floorMs, buttonVisibleMsEveryLoad: runs.map((l) => l.buttonAt), longTasksEveryLoad: runs.map((l) => l.longTasks) }]
      }),
    )
    console.log(JSON.stringify({ runs: RUNS, pages: figures }))
  } finally {
    for (const stop of stops.reverse()) await Promise.resolve(stop()).catch(() => {})
  }
}

await main()
