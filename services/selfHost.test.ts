import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPostgres } from './api/testing/startPostgres'
import { freePorts } from './stack/ports'

const tsx = join('node_modules', '.bin', 'tsx')
const paymasterConfig = {
  signerKey: '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
  chains: [{ chainId: 31337, rpcUrl: 'http://127.0.0.1:1', paymasterAddress: '0x1111111111111111111111111111111111111111', entryPointAddress: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108' }],
  projects: [{ id: 'site', allowedOrigins: ['https://site.test'], chainIds: [31337], dailyGasPerAccount: 1_000_000 }],
}

describe('npm run services: the back-ends alone, against PostgreSQL', () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>>
  let dir: string
  beforeAll(async () => {
    postgres = await startPostgres()
    dir = mkdtempSync(join(tmpdir(), 'tessera-services-'))
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ projects: [{ id: 'site', allowedOrigins: ['https://site.test'] }], chains: [] }))
  }, 120_000)
  afterAll(() => {
    postgres?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('starts the data service, the relay and (configured) the paymaster, each answering its health check, and stops on SIGTERM', async () => {
    const ports = await freePorts()
    const env = { TESSERA_API_CONFIG: join(dir, 'config.json'), DATABASE_URL: postgres.url, API_PORT: String(ports.api), RELAY_PORT: String(ports.relay), PAYMASTER_PORT: String(ports.paymaster), TESSERA_PAYMASTER_CONFIG_JSON: JSON.stringify(paymasterConfig) }
    const child = spawn(tsx, ['services/main.ts'], { env: { ...process.env, ...env }, stdio: 'pipe' })
    const exited = new Promise<number | null>((done) => child.once('exit', done))
    try {
      const health = (url: string) => fetch(url).then((r) => (r.ok ? r.json() : undefined), () => undefined)
      await expect.poll(() => health(`http://127.0.0.1:${ports.api}/health`), { timeout: 30_000 }).toEqual({ status: 'ok', service: 'tessera-api', database: 'postgres' })
      expect(await health(`http://127.0.0.1:${ports.relay}/health`)).toMatchObject({ status: 'ok', service: 'tessera-relay' })
      await expect.poll(() => health(`http://127.0.0.1:${ports.paymaster}/ready`), { timeout: 10_000 }).toEqual({ status: 'ready' })
    } finally {
      child.kill('SIGTERM')
    }
    expect(await exited).toBe(0)
  }, 60_000)

  it('names what is wrong with its configuration', () => {
    const run = (env: Record<string, string>) => spawnSync(tsx, ['services/main.ts'], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 30_000 })
    const noConfig = run({ TESSERA_API_CONFIG: '' })
    expect(noConfig.status).toBe(1)
    expect(noConfig.stderr).toContain('Set TESSERA_API_CONFIG to a JSON file')
    const badPort = run({ TESSERA_API_CONFIG: join(dir, 'config.json'), API_PORT: 'eighty' })
    expect(badPort.stderr).toContain('API_PORT must be a port number from 1 to 65535, got "eighty".')
    const missing = run({ TESSERA_API_CONFIG: join(dir, 'nope.json') })
    expect(missing.stderr).toContain(`TESSERA_API_CONFIG: ${join(dir, 'nope.json')} could not be read as JSON`)
    const apiConfig = { TESSERA_API_CONFIG: join(dir, 'config.json') }
    expect(run({ ...apiConfig, TESSERA_PAYMASTER_CONFIG_JSON: '{"signerKey":' }).stderr).toContain('The paymaster configuration could not be read as JSON (a syntax error).')
    const noKey = run({ ...apiConfig, TESSERA_PAYMASTER_CONFIG_JSON: JSON.stringify({ ...paymasterConfig, signerKey: undefined }) })
    expect(noKey.status).toBe(1)
    expect(noKey.stderr).toContain('signerKey')
    expect(run({ ...apiConfig, PAYMASTER_PORT: 'ninety' }).stderr).toContain('PAYMASTER_PORT must be a port number from 1 to 65535, got "ninety".')
  }, 120_000)
})
