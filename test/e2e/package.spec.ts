import { execFileSync, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { freePorts } from '../../services/stack/ports'
import { expect, test } from '../fixtures'

const repo = resolve('.')
// A clean environment: the npm running these tests passes its own settings (npm_config_*) to children.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_config_')))
const run = (command: string, args: string[], cwd: string) => execFileSync(command, args, { cwd, env, stdio: 'pipe', timeout: 180_000 })

test('npm pack gives a package that a fresh Vite + React app installs and builds; its workers (the Solana client included) and the lazy page chunks load from node_modules', async ({ page, stack }) => {
  test.setTimeout(240_000)
  const dir = mkdtempSync(join(tmpdir(), 'tessera-host-'))
  let preview: ReturnType<typeof spawn> | undefined
  try {
    run('npm', ['run', '-s', 'build'], repo)
    run('npm', ['pack', '--pack-destination', dir], repo)
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!
    const app = join(dir, 'app')
    cpSync(join(repo, 'test/pack-app'), app, { recursive: true })
    writeFileSync(join(app, 'package.json'), readFileSync(join(app, 'package.template.json'), 'utf8').replace('TARBALL', join(dir, tarball)))
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], app)
    expect(existsSync(join(app, 'node_modules/tessera/dist/types/main/index.d.ts'))).toBe(true)
    run(join(app, 'node_modules/.bin/vite'), ['build'], app)
    expect(readdirSync(join(app, 'dist/assets')).some((f) => /^worker-.*\.js$/.test(f))).toBe(true)

    const port = (await freePorts()).demo
    preview = spawn(join(app, 'node_modules/.bin/vite'), ['preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { cwd: app, env, stdio: 'ignore' })
    await expect.poll(() => fetch(`http://127.0.0.1:${port}`).then((r) => r.status, () => 0), { timeout: 20_000 }).toBe(200)
    // Every chunk the host's build emitted must resolve: the page's lazy chunks (the modal, the families' adapters, the
    // connection actions) and the worker's (its Solana client).
    const failed: string[] = []
    page.on('response', (response) => void (response.status() >= 400 && failed.push(`${response.status()} ${response.url()}`)))
    page.on('requestfailed', (request) => void failed.push(`failed ${request.url()}`))
    const solana = stack.solana!
    const query = new URLSearchParams({ rpc: stack.chains[0]!.rpcUrl, solanaRpc: solana.rpcUrl, solanaNetwork: solana.caipNetworkId, solanaAccount: solana.devAccounts[0]! })
    await page.goto(`http://127.0.0.1:${port}/?${query}`)
    await expect(page.locator('#core')).toHaveText(/^block \d+$/)
    await expect(page.locator('#solana')).toHaveText(/^lamports \d+$/)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await expect(page.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    await expect(page.getByRole('dialog', { name: 'Connect Wallet' }).getByText('No wallet was found in this browser.')).toBeVisible()
    expect(failed).toEqual([])
  } finally {
    preview?.kill()
    rmSync(dir, { recursive: true, force: true })
  }
})
