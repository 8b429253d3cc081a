import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

import { createPublicClient, http, keccak256, parseEther, stringToHex, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

/**
 * The bundler's keys: the executor sends the handleOps transactions, the utility key deploys Alto's simulation contracts
 * and refills executors. Keys of their own (not dev accounts, whose balances and nonces the tests read), funded with
 * anvil_setBalance. TEST-ONLY, derivable by anyone: never send real funds to them.
 */
export const bundlerExecutorKey: Hex = keccak256(stringToHex('tessera local bundler executor'))
export const bundlerUtilityKey: Hex = keccak256(stringToHex('tessera local bundler utility'))

export type StartBundlerParameters = {
  /** The anvil chain's RPC URL. */
  rpcUrl: string
  port: number
  /** Where the bundler listens (Alto 0.0.20 has no host option: altoListenHost.mjs, preloaded, moves it off 0.0.0.0). */
  host?: string
  entryPoints: readonly Address[]
  executorKey?: Hex
  utilityKey?: Hex
  readyTimeoutMs?: number
}

export type Bundler = {
  url: string
  /** Ends Alto (its whole process group) and resolves once it has exited and the port is free. */
  stop: () => Promise<void>
}

/** Finds Alto's CLI in node_modules (the dev-only workspace `services/chain/binaries` installs it). */
export function resolveAltoCli(): string {
  const require = createRequire(import.meta.url)
  let entry: string
  try {
    // (Its exports map hides package.json: resolve the entry, esm/index.js, and go up.)
    entry = require.resolve('@pimlico/alto')
  } catch {
    throw new Error('The bundler was not found: @pimlico/alto is not installed (it comes with the services/chain/binaries workspace).')
  }
  const packageDir = join(dirname(entry), '..')
  const { bin } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { bin: { alto: string } }
  return join(packageDir, bin.alto)
}

/**
 * Starts the Alto ERC-4337 bundler against an anvil chain, with its keys funded, and resolves once it answers
 * eth_supportedEntryPoints with the given entry points.
 * @example const bundler = await startBundler({ rpcUrl: anvil.rpcUrl, port: 4337, entryPoints: [entryPoint08Address] })
 */
export async function startBundler({
  rpcUrl,
  port,
  host = '127.0.0.1',
  entryPoints,
  executorKey = bundlerExecutorKey,
  utilityKey = bundlerUtilityKey,
  readyTimeoutMs = 20_000,
}: StartBundlerParameters): Promise<Bundler> {
  // 1. Fund both keys: Alto's first act is to deploy its simulation contracts, paid by the utility key.
  const chain = createPublicClient({ transport: http(rpcUrl) })
  await Promise.all(
    [executorKey, utilityKey].map(async (key) => {
      const { address } = privateKeyToAccount(key)
      if ((await chain.getBalance({ address })) >= parseEther('10')) return
      await chain.request({ method: 'anvil_setBalance' as never, params: [address, `0x${parseEther('1000').toString(16)}`] as never })
    }),
  )

  // 2. Alto in a process group of its own, so stop() ends it and anything it started.
  const args = [
    ['--import', new URL('./altoListenHost.mjs', import.meta.url).href],
    resolveAltoCli(),
    ['--rpc-url', rpcUrl],
    ['--port', String(port)],
    ['--entrypoints', entryPoints.join(',')],
    ['--executor-private-keys', executorKey],
    ['--utility-private-key', utilityKey],
    // anvil has no debug_traceCall tracer for ERC-7562 rules.
    ['--safe-mode', 'false'],
    // Automine: a block per transaction, so poll more often than a public chain's 1 s.
    ['--block-time', '100'],
    ['--utility-wallet-monitor', 'false'],
    // The widget calls it from a browser page on another port.
    ['--enable-cors', 'true'],
    ['--log-level', 'warn'],
  ].flat()
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TESSERA_ALTO_HOST: host } })
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000)
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  child.once('error', (error) => keep(Buffer.from(String(error))))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const hasExited = () => child.exitCode !== null || child.signalCode !== null
  const url = `http://${host}:${port}`

  const stop = async () => {
    if (hasExited()) return
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, name)
      } catch {
        // the group is gone already
      }
    }
    signal('SIGTERM')
    const timer = setTimeout(() => signal('SIGKILL'), 2_000)
    await exited
    clearTimeout(timer)
  }

  // 3. Ready when it lists the entry points.
  const deadline = Date.now() + readyTimeoutMs
  const wanted = entryPoints.map((address) => address.toLowerCase()).sort().join()
  for (;;) {
    if (hasExited()) throw new Error(`The bundler on port ${port} exited with code ${child.exitCode}: ${output.trim()}`)
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_supportedEntryPoints', params: [] }),
      })
      const { result } = (await response.json()) as { result?: string[] }
      if (result?.map((address) => address.toLowerCase()).sort().join() === wanted) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`The bundler on port ${port} did not answer within ${readyTimeoutMs} ms: ${output.trim()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { url, stop }
}
