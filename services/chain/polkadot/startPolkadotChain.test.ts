import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { ApiPromise, WsProvider } from '@polkadot/api'
import { Keyring } from '@polkadot/keyring'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePorts } from '../../stack/ports'
import { startPolkadotChain, type PolkadotChain } from './startPolkadotChain'

/** Processes whose command line has `--port <port>` (chopsticks' own, whoever started it). */
function processesOnPort(port: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
        return args.some((arg) => arg.endsWith('chopsticks.cjs')) && args.join(' ').includes(` --port ${port} `)
      } catch {
        return false
      }
    })
    .map(Number)
}

describe('the local Polkadot chain (chopsticks)', () => {
  let chain: PolkadotChain
  let api: ApiPromise
  beforeAll(async () => {
    chain = await startPolkadotChain({ port: (await freePorts()).polkadot })
    api = await ApiPromise.create({ provider: new WsProvider(chain.rpcUrl), noInitWarn: true })
  }, 120_000)
  afterAll(async () => {
    await api?.disconnect()
    await chain?.stop()
  })

  it('builds one block for each transaction, final at once', async () => {
    const keyring = new Keyring({ type: 'sr25519', ss58Format: chain.ss58Prefix })
    const [alice, bob] = [keyring.addFromUri('//Alice'), keyring.addFromUri('//Bob')]
    const before = (await api.rpc.chain.getHeader()).number.toNumber()
    for (const expected of [before + 1, before + 2]) {
      const included = await new Promise<{ blockHash: string; isFinalized: boolean }>((resolve, reject) => {
        api.tx.balances!
          .transferKeepAlive!(bob.address, 10n ** 12n)
          .signAndSend(alice, ({ status, dispatchError }) => {
            if (dispatchError) reject(new Error(dispatchError.toString()))
            if (status.isFinalized) resolve({ blockHash: status.asFinalized.toHex(), isFinalized: true })
          })
          .catch(reject)
      })
      const header = await api.rpc.chain.getHeader(included.blockHash)
      expect(header.number.toNumber()).toBe(expected)
      expect((await api.rpc.chain.getFinalizedHead()).toHex()).toBe(included.blockHash)
    }
  })

  it('says when its port is taken, and leaves no process behind', async () => {
    const server: Server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as { port: number }).port
    try {
      await expect(startPolkadotChain({ port })).rejects.toThrow(`Port ${port} was taken: chopsticks moved to `)
      expect(processesOnPort(port)).toEqual([])
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  }, 120_000)

  it('ends with the process that started it, even one killed with SIGKILL', async () => {
    const port = (await freePorts()).polkadot
    // A stack process of its own: it starts the chain, says so, and waits to be killed.
    const script = `const { startPolkadotChain } = await import(${JSON.stringify(new URL('./startPolkadotChain.ts', import.meta.url).href)}); await startPolkadotChain({ port: ${port} }); console.log('ready'); setInterval(() => {}, 1_000)`
    const starter = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
    await new Promise<void>((resolve, reject) => {
      starter.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve())
      starter.once('exit', (code) => reject(new Error(`the starter exited with ${code}`)))
    })
    const [chopsticks] = processesOnPort(port)
    expect(chopsticks).toBeGreaterThan(0)
    starter.kill('SIGKILL')
    // It checks its parent every half second; a busy machine can take a while to schedule it.
    await expect.poll(() => processesOnPort(port), { timeout: 30_000 }).toEqual([])
  }, 120_000)

  it('stops: its process ends and nothing listens any more', async () => {
    const other = await startPolkadotChain({ port: (await freePorts()).polkadot })
    expect(processesOnPort(Number(new URL(other.httpUrl).port))).toEqual([other.pid])
    await other.stop()
    expect(processesOnPort(Number(new URL(other.httpUrl).port))).toEqual([])
    await expect(fetch(other.httpUrl, { method: 'POST' })).rejects.toThrow()
  }, 120_000)
})
