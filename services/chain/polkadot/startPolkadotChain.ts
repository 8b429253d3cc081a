import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ApiPromise, WsProvider } from '@polkadot/api'
import { writeAssetHubChainSpec } from './chainSpec'
import { derivePolkadotDevAccounts, type PolkadotDevAccount } from './devAccounts'

export type PolkadotChainParameters = {
  host?: string
  port: number
  /** What each dev account holds at start, in whole tokens (the chain's decimals apply). */
  fundedUnits?: bigint
  /** How long chopsticks may take to build its genesis and listen. */
  startTimeoutMs?: number
}

export type PolkadotChain = {
  /** `polkadot:` + the first 32 hex characters of the genesis hash (CAIP-2). */
  caipNetworkId: `polkadot:${string}`
  /** JSON-RPC over WebSocket, what @polkadot/api speaks. */
  rpcUrl: string
  /** The same JSON-RPC over HTTP POST (no subscriptions). */
  httpUrl: string
  genesisHash: `0x${string}`
  chainName: string
  /** The runtime's own SS58 prefix (System.SS58Prefix): the format of its addresses. */
  ss58Prefix: number
  token: { symbol: string; decimals: number }
  /** Planck: an account holding less is removed. */
  existentialDeposit: bigint
  /** //Alice … //Ferdie, each holding `fundedUnits` tokens. */
  devAccounts: PolkadotDevAccount[]
  /** Planck each dev account held at start. */
  fundedPlanck: bigint
  /** The chopsticks process id (one Node process: its block builder runs in worker threads of it; it exits with its parent). */
  pid: number
  stop: () => Promise<void>
}

const require = createRequire(import.meta.url)

/** chopsticks' command-line entry (its package bin), run with this Node. */
function chopsticksBin(): string {
  // The package's main is dist/cjs/index.js; its bin sits at the package root.
  return join(dirname(require.resolve('@acala-network/chopsticks')), '..', '..', 'chopsticks.cjs')
}

/** Makes the chopsticks process exit when this one is gone, however it went. */
const exitWithParent = fileURLToPath(new URL('./exitWithParent.cjs', import.meta.url))

/** chopsticks' line once its server is up; it moves to the next port when the one asked for is taken, so the port is read. */
const listeningLine = /RPC listening on http:\/\/(\S+):(\d+) and ws:/
/** Output kept for an error message: only the tail, chopsticks logs every block. */
const MAX_OUTPUT_CHARS = 8_000

/**
 * Starts a local Polkadot-SDK chain: chopsticks (`@acala-network/chopsticks` 1.5.1) as a child process, building the
 * Rococo Asset Hub runtime from its genesis spec, a block on each transaction (`--build-block-mode Instant`), every block
 * final at once. The dev accounts //Alice … //Ferdie are funded with `dev_setStorage` before the promise resolves.
 * stop() ends the process (SIGTERM, SIGKILL after 3 s); the process also exits by itself when this one dies.
 * @example const chain = await startPolkadotChain({ port: 9944 }); await chain.stop()
 */
export async function startPolkadotChain({ host = '127.0.0.1', port, fundedUnits = 1_000_000n, startTimeoutMs = 60_000 }: PolkadotChainParameters): Promise<PolkadotChain> {
  const specPath = writeAssetHubChainSpec()
  const child = spawn(process.execPath, ['--require', exitWithParent, chopsticksBin(), '--genesis', specPath, '--host', host, '--port', String(port), '--build-block-mode', 'Instant'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'info' },
  })
  let output = ''
  // 'error' when the process could not start at all (no 'exit' then).
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve())
    child.once('error', (error) => {
      output += `\n${error.message}`
      resolve()
    })
  })
  let onOutput = () => {}
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-MAX_OUTPUT_CHARS)
    onOutput()
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)

  let api: ApiPromise | undefined
  const stop = async () => {
    await api?.disconnect().catch(() => {})
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 3_000)
      await exited
      clearTimeout(timer)
    }
  }

  try {
    // 1. Wait for chopsticks to listen, and check it took the port it was given.
    const listenedPort = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`chopsticks did not listen within ${startTimeoutMs} ms: ${output.trim().slice(-1_000)}`)), startTimeoutMs)
      onOutput = () => {
        const match = listeningLine.exec(output)
        if (match) {
          clearTimeout(timer)
          resolve(Number(match[2]))
        }
      }
      void exited.then(() => {
        clearTimeout(timer)
        reject(new Error(`chopsticks exited before it listened (code ${child.exitCode}): ${output.trim().slice(-1_000)}`))
      })
      onOutput()
    })
    onOutput = () => {}
    if (listenedPort !== port) throw new Error(`Port ${port} was taken: chopsticks moved to ${listenedPort}`)

    // 2. Read what the chain is (its runtime's SS58 prefix, token, existential deposit) over WebSocket.
    const rpcUrl = `ws://${host}:${port}`
    const provider = new WsProvider(rpcUrl, false)
    await provider.connect()
    api = await ApiPromise.create({ provider, noInitWarn: true, throwOnConnect: true })
    const genesisHash = api.genesisHash.toHex()
    const ss58Prefix = api.registry.chainSS58
    const [symbol] = api.registry.chainTokens
    const [decimals] = api.registry.chainDecimals
    if (ss58Prefix === undefined || !symbol || decimals === undefined) throw new Error('The chain gave no SS58 prefix, token symbol or decimals')
    const existentialDeposit = BigInt(api.consts.balances!.existentialDeposit!.toString())
    const chainName = (await api.rpc.system.chain()).toString()

    // 3. Fund the dev accounts (System.Account, written into the head's storage) and check the chain holds it.
    const devAccounts = await derivePolkadotDevAccounts(ss58Prefix)
    const fundedPlanck = fundedUnits * 10n ** BigInt(decimals)
    const accountEntries = devAccounts.map(({ address }) => [[address], { providers: 1, data: { free: fundedPlanck.toString() } }])
    await provider.send('dev_setStorage', [{ System: { Account: accountEntries } }])
    for (const { name, address } of devAccounts) {
      const account = (await api.query.system!.account!(address)) as unknown as { data: { free: { toString(): string } } }
      if (BigInt(account.data.free.toString()) !== fundedPlanck) throw new Error(`${name} was not funded: the chain holds ${account.data.free.toString()}`)
    }
    await api.disconnect()
    api = undefined

    return {
      caipNetworkId: `polkadot:${genesisHash.slice(2, 34)}`,
      rpcUrl,
      httpUrl: `http://${host}:${port}`,
      genesisHash: genesisHash as `0x${string}`,
      chainName,
      ss58Prefix,
      token: { symbol, decimals },
      existentialDeposit,
      devAccounts,
      fundedPlanck,
      pid: child.pid!,
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}
