import { spawn } from 'node:child_process'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { readManifest } from './manifest'
import { freePorts, stackPortsEnv, type StackPorts } from './ports'
import { isProcessRunning } from './testing/isProcessRunning'

/** Every process whose parent chain leads to pid. */
function descendants(pid: number): number[] {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number])
  const found: number[] = []
  const visit = (parent: number) => {
    for (const [child, ppid] of table) {
      if (ppid !== parent) continue
      found.push(child)
      visit(child)
    }
  }
  visit(pid)
  return found
}

async function jsonRpc(url: string, method: string, params: unknown[] = []) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await response.json()) as { result?: unknown; error?: unknown }
}


const isListening = (port: number) => fetch(`http://127.0.0.1:${port}`).then(
  () => true,
  () => false,
)

/**
 * `npm start` run the way a person or a process manager runs it (the real npm, which runs the script through `sh -c`), on
 * free ports with a database of its own. `seen` collects every process of its tree while it runs, those started
 * late included. Every run is in `started`, for the clean-up of a test that failed half-way.
 */
const started: { child: ReturnType<typeof spawn> }[] = []

function startNpm(ports: StackPorts, dataDir: string) {
  const child = spawn('npm', ['start'], {
    env: { ...process.env, ...stackPortsEnv(ports), TESSERA_MANIFEST: join(dataDir, 'stack.json'), TESSERA_DATA_DIR: join(dataDir, 'db') },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const seen = new Set<number>()
  const watch = setInterval(() => descendants(child.pid!).forEach((pid) => seen.add(pid)), 100)
  void exited.then(() => clearInterval(watch))
  started.push({ child })
  const waitFor = (pattern: RegExp, what: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (pattern.test(output)) {
          clearInterval(timer)
          resolve()
        } else if (child.exitCode !== null || child.signalCode !== null) {
          clearInterval(timer)
          reject(new Error(`npm start ended before ${what}:\n${output}`))
        }
      }, 50)
    })
  return { child, exited, seen, waitFor, output: () => output }
}

/** After `npm start` ended: nothing of its tree is left, and none of its ports answers. */
async function expectAllStopped(seen: Set<number>, ports: StackPorts) {
  expect(seen.size).toBeGreaterThanOrEqual(3) // start.mjs, the stack process, an anvil at least
  // Helpers such as the bundler's service process exit when their parent's pipe closes, a moment later.
  await expect.poll(() => [...seen].filter(isProcessRunning), { timeout: 10_000 }).toEqual([])
  await expect.poll(async () => (await Promise.all(Object.values(ports).map(async (port) => ((await isListening(port)) ? [port] : [])))).flat(), { timeout: 5_000 }).toEqual([])
}

describe('npm start', () => {
  const dataDirs: string[] = []
  const newDataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-start-'))
    dataDirs.push(dir)
    return dir
  }
  afterEach(() => {
    // A test that failed before npm ended leaves nothing running (only pids still in its tree: a pid may be reused).
    for (const { child } of started.splice(0)) {
      if (child.exitCode !== null || child.signalCode !== null) continue
      for (const pid of [...descendants(child.pid!), child.pid!]) process.kill(pid, 'SIGKILL')
    }
    for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  it('prints one URL to open, serves the demo and the chains (anvil and Solana), and leaves nothing running after npm alone gets SIGTERM (kill, a process manager)', async () => {
    const ports = await freePorts()
    const dataDir = newDataDir()
    const npm = startNpm(ports, dataDir)
    // The whole stack (the chains, the services, the bundler, the demo's and the frame's dev servers) took over 30 s
    // beside the other unit tests in a fresh-clone run on 2 cores: the wait has room for a busy machine.
    await npm.waitFor(/Tessera is running\. Open http/, 'printing its URL')
    const urls = [...npm.output().matchAll(/Open (http:\/\/127\.0\.0\.1:\d+)/g)].map((match) => match[1])
    expect(urls).toEqual([`http://127.0.0.1:${ports.demo}`])
    expect((await fetch(urls[0]!)).status).toBe(200)
    expect((await jsonRpc(`http://127.0.0.1:${ports.anvil}`, 'eth_chainId')).result).toBe('0x7a69')
    expect((await fetch(`http://127.0.0.1:${ports.api}/health`)).status).toBe(200)

    const { solana } = readManifest(join(dataDir, 'stack.json'))
    expect(npm.output()).toContain(`solana local on http://127.0.0.1:${ports.solana} (PubSub ws://127.0.0.1:${ports.solanaWs}, ${solana?.caipNetworkId})`)
    expect(solana).toMatchObject({ rpcUrl: `http://127.0.0.1:${ports.solana}`, wsUrl: `ws://127.0.0.1:${ports.solanaWs}`, mint: { symbol: 'TUSD', decimals: 6 } })
    expect(await jsonRpc(solana!.rpcUrl, 'getHealth')).toMatchObject({ result: 'ok' })
    expect(await jsonRpc(solana!.rpcUrl, 'getBalance', [solana!.devAccounts[1]])).toMatchObject({ result: { value: 1_000_000_000_000 } }) // 1,000 SOL

    // Only npm is signalled, not its process group (a terminal's Ctrl-C reaches the group: test/e2e/npmStart.spec.ts).
    npm.child.kill('SIGTERM')
    await npm.exited
    // Every process is gone and every port, the Solana RPC and PubSub included, is closed.
    await expectAllStopped(npm.seen, ports)
  }, 150_000)

  it('stops what it has started when npm alone gets SIGINT while the stack is still starting', async () => {
    const ports = await freePorts()
    const npm = startNpm(ports, newDataDir())
    // The first chain is up; the rest is still starting.
    await npm.waitFor(/anvil Tessera Local \(chain 31337\) on/, 'starting the first chain')
    // Only npm is signalled: it passes SIGINT on as it passes SIGTERM.
    npm.child.kill('SIGINT')
    await npm.exited
    await expectAllStopped(npm.seen, ports)
    expect(npm.output()).not.toContain('Tessera is running')
    // It stopped at its next step, not after starting the rest (the services come some 15 s after the first chain).
    expect(npm.output()).not.toMatch(/data service on|WalletConnect relay on|demo page on/)
  }, 60_000)

  it('says which port is taken and which variable to change', async () => {
    const ports = await freePorts()
    const { createServer } = await import('node:net')
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(ports.anvil, '127.0.0.1', resolve))
    try {
      const child = spawn(process.execPath, ['scripts/start.mjs'], {
        env: { ...process.env, TESSERA_ANVIL_PORT: String(ports.anvil), TESSERA_DEMO_PORT: String(ports.demo), TESSERA_RELAY_PORT: String(ports.relay) },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stderr = ''
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
      expect(code).toBe(1)
      expect(stderr.trim().split('\n').filter((l) => !l.includes('npm warn'))).toEqual([
        `Port ${ports.anvil} (anvil (chain 31337)) is already in use: set TESSERA_ANVIL_PORT to a free port.`,
      ])
    } finally {
      await new Promise((resolve) => blocker.close(resolve))
    }
  }, 30_000)
})
