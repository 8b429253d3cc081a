import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { extname, join, normalize, resolve } from 'node:path'
import type { Page, Request } from '@playwright/test'

const repo = resolve('.')
// A clean environment: the npm running these tests passes its own settings (npm_config_*) to children.
export const hostEnv = { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_config_'))), NEXT_TELEMETRY_DISABLED: '1' }
/** Runs a command in a host app; a failure's message carries what the command printed. */
export function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  try {
    return execFileSync(command, args, { cwd, env: { ...hostEnv, ...env }, stdio: 'pipe', timeout: 300_000 })
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer }
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${String(stdout ?? '').slice(-4_000)}\n${String(stderr ?? '').slice(-4_000)}`, { cause: error })
  }
}

let packed: Promise<string> | undefined
/**
 * `npm pack` of this repository, once per test run: the tarball's path. Its prepack builds the package, unless `npm test`
 * built it already in this run (its size step: TESSERA_DIST_IS_FRESH).
 */
export function packTessera(): Promise<string> {
  packed ??= Promise.resolve().then(() => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-pack-'))
    const skipBuild = process.env.TESSERA_DIST_IS_FRESH === '1' ? ['--ignore-scripts'] : []
    run('npm', ['pack', ...skipBuild, '--pack-destination', dir], repo)
    return join(dir, readdirSync(dir).find((f) => f.endsWith('.tgz'))!)
  })
  return packed
}

export type HostApp = { dir: string; bin: (name: string) => string; remove: () => void }

/**
 * A site's app: `test/pack-apps/<template>` copied to a fresh folder, with the packed package and `dependencies`
 * installed by npm as a site would.
 */
export async function createHostApp(template: string, dependencies: Record<string, string>): Promise<HostApp> {
  const tarball = await packTessera()
  const dir = mkdtempSync(join(tmpdir(), `tessera-${template}-`))
  cpSync(join(repo, 'test/pack-apps', template), dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: `host-${template}`, private: true, type: 'module', dependencies: { tessera: `file:${tarball}`, ...dependencies } }, null, 2)}\n`)
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], dir)
  return hostAppAt(dir)
}

/** The host app installed in `dir`: its binaries, and its removal. */
export const hostAppAt = (dir: string): HostApp => ({ dir, bin: (name) => join(dir, 'node_modules/.bin', name), remove: () => rmSync(dir, { recursive: true, force: true }) })

/** Starts a server for the app and resolves once it answers 200 on `url`; the process to kill after. */
export async function startServer(command: string, args: string[], { cwd, url, env = {} }: { cwd: string; url: string; env?: Record<string, string> }): Promise<ChildProcess> {
  const server = spawn(command, args, { cwd, env: { ...hostEnv, ...env }, stdio: 'ignore' })
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if ((await fetch(url).then((r) => r.status, () => 0)) === 200) return server
    await new Promise((done) => setTimeout(done, 250))
  }
  server.kill()
  throw new Error(`${command} did not answer on ${url} within 60 s`)
}

const contentTypes: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm', '.svg': 'image/svg+xml' }

/** A plain static file server for a built app: a missing file is a 404, never the index page. */
export function serveStatic(root: string, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://host').pathname)
    let path = normalize(join(root, pathname))
    if (path.startsWith(root) && existsSync(path) && statSync(path).isDirectory()) path = join(path, 'index.html')
    if (!path.startsWith(root) || !existsSync(path)) return void response.writeHead(404).end('not found')
    response.writeHead(200, { 'content-type': contentTypes[extname(path)] ?? 'application/octet-stream' }).end(readFileSync(path))
  })
  return new Promise((done) => server.listen(port, '127.0.0.1', () => done(server)))
}

/**
 * What a page failed to load: responses of 400 and more, failed requests, and scripts served as HTML (a host's server
 * answering a missing chunk with its index page). Requests from the page's workers are included.
 */
export function recordLoadFailures(page: Page): string[] {
  const failed: string[] = []
  page.on('response', (response) => {
    const type = response.headers()['content-type'] ?? ''
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`)
    else if (/\.m?js(\?|$)/.test(new URL(response.url()).pathname) && type.includes('text/html')) failed.push(`HTML served as script: ${response.url()}`)
  })
  // A reload or a navigation aborts what is in flight: the chain reads (the worker's polls), a module the worker was
  // importing (the review engine, prefetched once an account is connected). That is not code that failed to load.
  let navigations = 0
  const navigationsBefore = new WeakMap<Request, number>()
  page.on('request', (request) => {
    navigationsBefore.set(request, navigations)
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigations++
  })
  page.on('requestfailed', (request) => {
    if (request.failure()?.errorText === 'net::ERR_ABORTED' && ['fetch', 'xhr'].includes(request.resourceType())) return
    if (request.failure()?.errorText === 'net::ERR_ABORTED' && (navigationsBefore.get(request) ?? navigations) < navigations) return
    failed.push(`failed ${request.url()}: ${request.failure()?.errorText}`)
  })
  page.on('pageerror', (error) => void failed.push(`page error: ${error.message}`))
  return failed
}

/** The dev EIP-6963 wallet (demo/devWallet) as a page's init script, for host apps that have no wallet of their own. */
export async function devWalletScript(config: { chains: { chainId: number; name: string; rpcUrl: string }[]; accounts: string[] }): Promise<string> {
  const { build } = await import('vite')
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, lib: { entry: join(repo, 'test/pack-apps/devWallet.ts'), formats: ['iife'], name: 'tesseraDevWalletScript' } },
  })) as { output: { code?: string }[] }[]
  return `window.tesseraDevWallet = ${JSON.stringify(config)};\n${output[0]!.output[0]!.code}`
}
