import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const TREASURY_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const config = {
  partners: [{ apiKey: 'sandbox-key-a', name: 'Sandbox A', feePercent: 1, webhookUrl: 'http://127.0.0.1:9/hook', webhookSecret: 'whsec-0123456789abcdef' }],
  prices: { ETH: { USD: 3000, EUR: 2760 } },
  assets: [{ network: 'eip155:31337', symbol: 'ETH', name: 'Ether', decimals: 18, rpcUrl: 'http://127.0.0.1:9' }],
  treasuries: { 'eip155:31337': TREASURY_KEY },
}
const dir = mkdtempSync(join(tmpdir(), 'tessera-onramp-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Runs main.ts under tsx with `env`; resolves its output once it exits, stopping it with SIGTERM once it listens. */
function run(env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/onramp/main.ts'], { cwd: ROOT, env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('\n')) child.kill('SIGTERM')
    })
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('exit', (code) => resolve({ code, output }))
  })
}

describe('on-ramp sandbox main', () => {
  it('reads its configuration from a file, prints its URL and leaves on SIGTERM', async () => {
    const path = join(dir, 'onramp.json')
    writeFileSync(path, JSON.stringify({ ...config, publicUrl: 'http://localhost:8794' }))
    const { code, output } = await run({ TESSERA_ONRAMP_CONFIG: path })
    expect(output).toMatch(/^Tessera on-ramp sandbox on http:\/\/127\.0\.0\.1:\d+ \(checkout pages on http:\/\/localhost:8794\)\n$/)
    expect(code).toBe(0)
  }, 30_000)

  it('refuses a configuration it cannot run with, naming the field and never showing a key', async () => {
    const secret = 'short-secret'
    const [{ code, output }, unreadable, unset] = await Promise.all([
      run({ TESSERA_ONRAMP_CONFIG_JSON: JSON.stringify({ ...config, assets: [{ ...config.assets[0], rpcUrl: 'file:///etc/passwd' }], partners: [{ ...config.partners[0], webhookSecret: secret }] }) }),
      run({ TESSERA_ONRAMP_CONFIG_JSON: `{"treasuries": "${TREASURY_KEY}",` }),
      run({}),
    ])
    expect(code).toBe(1)
    expect(output).toContain('partners[0].webhookSecret must be at least 16 characters')
    expect(output).toContain('assets[0].rpcUrl must be an http(s) URL')
    for (const hidden of [secret, TREASURY_KEY.slice(2, 20), 'sandbox-key-a']) expect(output).not.toContain(hidden)

    expect(unreadable).toEqual({ code: 1, output: 'The on-ramp sandbox configuration could not be read as JSON (a syntax error).\n' })
    expect(unset.code).toBe(1)
    expect(unset.output).toContain('Set TESSERA_ONRAMP_CONFIG to a JSON file')
  }, 30_000)
})
