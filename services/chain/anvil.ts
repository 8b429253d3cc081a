import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

export type AnvilParameters = {
  host?: string
  port: number
  chainId: number
  /** Interval mining; omit for instant (automine) blocks. */
  blockTimeSeconds?: number
}

export type Anvil = {
  rpcUrl: string
  chainId: number
  process: ChildProcess
  stop: () => Promise<void>
}

/** Finds the anvil binary: ANVIL_BIN, else the one the npm package ships for linux-x64. */
export function resolveAnvilBin(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ANVIL_BIN) return env.ANVIL_BIN
  const require = createRequire(import.meta.url)
  let packageJson: string
  try {
    packageJson = require.resolve('@foundry-rs/anvil-linux-amd64/package.json')
  } catch {
    throw new Error(
      'anvil was not found: @foundry-rs/anvil-linux-amd64 is not installed (it exists for linux-x64 only). Set ANVIL_BIN to an anvil binary.',
    )
  }
  const bin = join(dirname(packageJson), 'bin', 'anvil')
  if (!existsSync(bin)) throw new Error(`anvil was not found at ${bin}. Set ANVIL_BIN to an anvil binary.`)
  return bin
}

/**
 * Starts anvil and resolves once it answers eth_chainId.
 * @example const anvil = await startAnvil({ port: 8545, chainId: 31337 })
 */
export async function startAnvil({ host = '127.0.0.1', port, chainId, blockTimeSeconds }: AnvilParameters): Promise<Anvil> {
  const args = ['--host', host, '--port', String(port), '--chain-id', String(chainId), '--silent']
  if (blockTimeSeconds !== undefined) args.push('--block-time', String(blockTimeSeconds))
  const child = spawn(resolveAnvilBin(), args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const rpcUrl = `http://${host}:${port}`

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 2_000)
    await exited
    clearTimeout(timer)
  }

  const deadline = Date.now() + 15_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil on port ${port} exited with code ${child.exitCode}: ${stderr.trim()}`)
    try {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      })
      const body = (await response.json()) as { result?: string }
      if (Number(body.result) === chainId) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`anvil on port ${port} did not answer within 15 s: ${stderr.trim()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { rpcUrl, chainId, process: child, stop }
}
