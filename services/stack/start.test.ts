import { spawn } from 'node:child_process'
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { readManifest } from './manifest'
import { freePorts, stackPortsEnv } from './ports'

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

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('npm start', () => {
  it('prints one URL to open, serves the demo and the chains (anvil and Solana), and leaves nothing running after Ctrl-C', async () => {
    const ports = await freePorts()
    const manifestPath = `test-results/start-test-${process.pid}.json`
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      env: { ...process.env, ...stackPortsEnv(ports), TESSERA_MANIFEST: manifestPath },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))

    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed within 30 s:\n${output}`)), 30_000)
      child.stdout.on('data', () => {
        const match = /Open (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
        if (!match) return
        clearTimeout(timer)
        resolve(match[1]!)
      })
    })
    expect(url).toBe(`http://127.0.0.1:${ports.demo}`)
    expect((await fetch(url)).status).toBe(200)
    expect((await jsonRpc(`http://127.0.0.1:${ports.anvil}`, 'eth_chainId')).result).toBe('0x7a69')
    expect((await fetch(`http://127.0.0.1:${ports.api}/health`)).status).toBe(200)

    const { solana } = readManifest(manifestPath)
    expect(output).toContain(`solana local on http://127.0.0.1:${ports.solana} (PubSub ws://127.0.0.1:${ports.solanaWs}, ${solana?.caipNetworkId})`)
    expect(solana).toMatchObject({ rpcUrl: `http://127.0.0.1:${ports.solana}`, wsUrl: `ws://127.0.0.1:${ports.solanaWs}`, mint: { symbol: 'TUSD', decimals: 6 } })
    expect(await jsonRpc(solana!.rpcUrl, 'getHealth')).toMatchObject({ result: 'ok' })
    expect(await jsonRpc(solana!.rpcUrl, 'getBalance', [solana!.devAccounts[1]])).toMatchObject({ result: { value: 1_000_000_000_000 } }) // 1,000 SOL

    const children = descendants(child.pid!)
    expect(children.length).toBeGreaterThanOrEqual(3) // the stack process and two anvils
    child.kill('SIGINT')
    expect(await exited).toBe(0)
    // Helpers such as the bundler's service process exit when their parent's pipe closes, a moment later.
    await expect.poll(() => children.filter(isAlive), { timeout: 5_000 }).toEqual([])
    // Every port, the Solana RPC and PubSub included, is closed. (The Solana chain runs inside the stack process.)
    for (const port of Object.values(ports)) {
      await expect(fetch(`http://127.0.0.1:${port}`)).rejects.toThrow()
    }
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
