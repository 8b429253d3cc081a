// `npm start` serves the demo with Vite's dev server (the other journeys use its build). These run it the same way, with
// an empty dependency cache, as on a first `npm start`.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from '../fixtures'

const demoRoot = fileURLToPath(new URL('../../demo', import.meta.url))

test('the demo in Vite dev: the first WalletConnect click shows its QR code without Vite reloading the page', async ({ page, stack }) => {
  // A Vite dev server pre-bundling the workers' dependencies from an empty cache: 22 s on a loaded 2-core machine.
  test.setTimeout(120_000)
  const vite = await import('vite')
  const cacheDir = mkdtempSync(join(tmpdir(), 'tessera-demo-deps-'))
  // The host-app origin is one the local project accepts; no other journey uses it meanwhile (one worker).
  const { url, port } = stack.hostApp!
  const server = await vite.createServer({
    configFile: join(demoRoot, 'vite.config.ts'),
    root: demoRoot,
    cacheDir,
    logLevel: 'silent',
    define: { __TESSERA_STACK__: JSON.stringify({ ...stack, demo: { url } }) },
    server: { host: '127.0.0.1', port, strictPort: true },
  })
  try {
    await server.listen()
    let loads = 0
    page.on('load', () => void (loads += 1))
    await page.goto(url)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /^WalletConnect/ }).click()
    // The WalletConnect worker and its sign client load now, for the first time.
    const walletConnect = page.getByRole('dialog', { name: 'WalletConnect' })
    await expect(walletConnect.getByRole('img', { name: 'WalletConnect QR code' })).toBeVisible()
    await walletConnect.getByRole('button', { name: 'Back' }).click()
    await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
    await page.getByRole('button', { name: /0xf3…b92266$/ }).click()
    await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Send' }).click()
    await expect(page.getByRole('dialog', { name: 'Send' }).getByLabel('Token')).toContainText('ETH')
    // Still the page of the first load: Vite found nothing new to bundle (it would have reloaded it).
    expect(loads).toBe(1)
  } finally {
    await server.close()
    rmSync(cacheDir, { recursive: true, force: true })
  }
})
