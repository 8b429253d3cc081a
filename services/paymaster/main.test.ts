import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { useRedisServer } from '../relay/testing/startRedis'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const signerKey = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6'
const config = {
  chains: [{ chainId: 31337, rpcUrl: 'http://127.0.0.1:1', paymasterAddress: '0x1111111111111111111111111111111111111111', entryPointAddress: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108' }],
  projects: [{ id: 'site', allowedOrigins: [], chainIds: [31337], dailyGasPerAccount: 1_000_000 }],
}
const dir = mkdtempSync(join(tmpdir(), 'tessera-paymaster-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Runs main.ts under tsx with `env`; resolves its output once it exits, or once it listens (then asks it for 'stats' and stops it). */
function run(env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string; stats?: Record<string, unknown> }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/paymaster/main.ts'], { cwd: ROOT, env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
    let output = ''
    let stats: Record<string, unknown> | undefined
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Tessera paymaster on')) child.send('stats')
    })
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('message', (message) => {
      stats = message as Record<string, unknown>
      child.kill('SIGTERM')
    })
    child.once('exit', (code) => resolve({ code, output, ...(stats ? { stats } : {}) }))
  })
}

describe('paymaster service main', () => {
  const redis = useRedisServer()
  it('reads its configuration from a file and the signer key from the environment, prints its URL, answers stats over IPC and leaves on SIGTERM', async () => {
    const path = join(dir, 'paymaster.json')
    writeFileSync(path, JSON.stringify(config))
    const { code, output, stats } = await run({ TESSERA_PAYMASTER_CONFIG: path, TESSERA_PAYMASTER_SIGNER_KEY: signerKey })
    expect(output).toMatch(/^Tessera paymaster on http:\/\/127\.0\.0\.1:\d+\n$/)
    expect(stats).toMatchObject({ rssBytes: expect.any(Number), heapUsedBytes: expect.any(Number), trackedAccounts: 0, maxAccounts: 100_000, isFull: false })
    expect(code).toBe(0)
  }, 20_000)

  it('with REDIS_URL counts the sponsored gas in Redis, where every instance sees it', async () => {
    const admin = new Redis(redis().url)
    try {
      await admin.hset(`tessera:paymaster:gas:${new Date().toISOString().slice(0, 10)}`, 'site\n31337\n0xaa', '21000', 'site\n31337\n0xbb', '42000')
    } finally {
      admin.disconnect()
    }
    const { code, stats } = await run({ TESSERA_PAYMASTER_CONFIG_JSON: JSON.stringify({ ...config, signerKey }), REDIS_URL: redis().url })
    expect(stats).toMatchObject({ trackedAccounts: 2, maxAccounts: 100_000, isFull: false })
    expect(code).toBe(0)
  }, 20_000)

  it('refuses a configuration it cannot run with, naming the field and never showing the key', async () => {
    const { code, output } = await run({ TESSERA_PAYMASTER_CONFIG_JSON: JSON.stringify({ ...config, signerKey: `${signerKey}ff`, projects: [{ id: 'site' }] }) })
    expect(code).toBe(1)
    expect(output).toContain('signerKey must be a private key (0x and 64 hex digits)')
    expect(output).toContain('projects[0].allowedOrigins must be a list of origins')
    expect(output.toLowerCase()).not.toContain(signerKey.slice(2, 20))

    const unreadable = await run({ TESSERA_PAYMASTER_CONFIG_JSON: `{"signerKey": "${signerKey}",` })
    expect(unreadable.code).toBe(1)
    expect(unreadable.output).toBe('The paymaster configuration could not be read as JSON (a syntax error).\n')
  }, 20_000)
})
