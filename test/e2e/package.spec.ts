// The package as a site gets it: `npm pack`, then installed by npm into fresh host apps (Vite with React 19 and 18,
// webpack, Next.js), built by their own bundlers and loaded in Chromium. Any 404, failed request or script served as
// HTML fails the test: every worker and lazy chunk must resolve in the host's build.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { ChildProcess } from 'node:child_process'
import { createNodeWallet } from '../../services/relay/testing/createNodeWallet'
import { expect, test } from '../fixtures'
import { createHostApp, recordLoadFailures, run, serveStatic, startServer, type HostApp } from './hostApps'

const VITE = { vite: '8.3.8', '@vitejs/plugin-react': '6.3.0' }
const REACT_19 = { react: '19.3.1', 'react-dom': '19.3.1' }
const REACT_18 = { react: '18.3.1', 'react-dom': '18.3.1' }

let app: HostApp | undefined
let server: ChildProcess | undefined
test.afterEach(() => {
  server?.kill()
  app?.remove()
  server = app = undefined
})

test('a Vite + React 19 app built from the packed package: the workers (Solana client included) and lazy chunks load, and a phone wallet pairs by WalletConnect through our relay and signs in', async ({ page, stack }) => {
  test.setTimeout(300_000)
  app = await createHostApp('vite', { ...REACT_19, ...VITE })
  expect(existsSync(join(app.dir, 'node_modules/tessera/dist/types/main/index.d.ts'))).toBe(true)
  run(app.bin('vite'), ['build'], app.dir)
  expect(readdirSync(join(app.dir, 'dist/assets')).some((f) => /^worker-.*\.js$/.test(f))).toBe(true)
  const { url, port } = stack.hostApp!
  server = await startServer(app.bin('vite'), ['preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { cwd: app.dir, url })

  const failed = recordLoadFailures(page)
  const solana = stack.solana!
  const query = new URLSearchParams({ rpc: stack.chains[0]!.rpcUrl, solanaRpc: solana.rpcUrl, solanaNetwork: solana.caipNetworkId, solanaAccount: solana.devAccounts[0]!, api: stack.services.api, relay: stack.services.relay, project: stack.services.projectId })
  await page.goto(`${url}/?${query}`)
  await expect(page.locator('#react')).toHaveText('React 19.3.1')
  await expect(page.locator('#core')).toHaveText(/^block \d+$/)
  await expect(page.locator('#solana')).toHaveText(/^lamports \d+$/)

  const wallet = await createNodeWallet({ relayUrl: stack.services.relay, chains: stack.chains.map((c) => ({ chainId: c.chainId, rpcUrl: c.rpcUrl })), addressIndex: 8, name: 'Packed Phone' })
  try {
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /^WalletConnect/ }).click()
    const dialog = page.getByRole('dialog', { name: 'WalletConnect' })
    await expect(dialog.getByRole('img', { name: 'WalletConnect QR code' })).toBeVisible()
    await wallet.pair((await dialog.getByRole('link', { name: 'Open in a wallet on this device' }).getAttribute('href'))!)
    await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Sign' }).click()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    expect(wallet.requests.at(-1)?.method).toBe('personal_sign')
    await expect(page.getByRole('button', { name: new RegExp(`0x${wallet.address.slice(2, 6)}`) })).toBeVisible()
  } finally {
    await wallet.close()
  }
  expect(failed).toEqual([])
})

test('a Vite + React 18 app built from the packed package renders the widget and opens the modal', async ({ page, stack }) => {
  test.setTimeout(300_000)
  app = await createHostApp('vite', { ...REACT_18, ...VITE })
  run(app.bin('vite'), ['build'], app.dir)
  const { url, port } = stack.hostApp!
  server = await startServer(app.bin('vite'), ['preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { cwd: app.dir, url })
  const failed = recordLoadFailures(page)
  await page.goto(`${url}/?${new URLSearchParams({ rpc: stack.chains[0]!.rpcUrl })}`)
  await expect(page.locator('#react')).toHaveText('React 18.3.1')
  await expect(page.locator('#core')).toHaveText(/^block \d+$/)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await expect(page.getByRole('dialog', { name: 'Connect Wallet' }).getByText('No wallet was found in this browser.')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog')).toHaveCount(0)
  expect(failed).toEqual([])
})

test('a webpack 5 app built from the packed package starts the core worker and the WalletConnect worker, and loads every chunk it asks for', async ({ page, stack }) => {
  test.setTimeout(300_000)
  app = await createHostApp('webpack', { ...REACT_19, webpack: '5.112.2', 'webpack-cli': '7.3.1' })
  run(app.bin('webpack'), ['--config', 'webpack.config.js'], app.dir)
  const { url, port } = stack.hostApp!
  const files = await serveStatic(app.dir, port)
  try {
    const failed = recordLoadFailures(page)
    const workers: string[] = []
    page.on('worker', (worker) => void workers.push(worker.url()))
    await page.goto(`${url}/?${new URLSearchParams({ rpc: stack.chains[0]!.rpcUrl, api: stack.services.api, relay: stack.services.relay, project: stack.services.projectId })}`)
    await expect(page.locator('#core')).toHaveText(/^block \d+$/)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /^WalletConnect/ }).click()
    // The pairing URI comes from the WalletConnect worker, once its socket to our relay is open.
    await expect(page.getByRole('dialog', { name: 'WalletConnect' }).getByRole('link', { name: 'Open in a wallet on this device' })).toHaveAttribute('href', /^wc:[0-9a-f]{64}@2\?/)
    expect(workers).toHaveLength(2)
    expect(failed).toEqual([])
  } finally {
    files.close()
  }
})

test('a Next.js app (app router) whose server component imports the package renders the button on the server, and the core worker and the modal load on the client', async ({ page, stack }) => {
  test.setTimeout(400_000)
  app = await createHostApp('next', { ...REACT_19, next: '16.4.6' })
  run(app.bin('next'), ['build'], app.dir, 400_000)
  const { url, port } = stack.hostApp!
  server = await startServer(app.bin('next'), ['start', '--hostname', '127.0.0.1', '--port', String(port)], { cwd: app.dir, url, env: { NEXT_TELEMETRY_DISABLED: '1' } })
  // The server renders the button's host element (its shadow root fills in on the client).
  expect(await (await fetch(url)).text()).toContain('<main><h1>Next.js host</h1><span data-tessera="">')
  const failed = recordLoadFailures(page)
  await page.goto(`${url}/?${new URLSearchParams({ rpc: stack.chains[0]!.rpcUrl })}`)
  await expect(page.locator('#core')).toHaveText(/^block \d+$/)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await expect(page.getByRole('dialog', { name: 'Connect Wallet' }).getByText('No wallet was found in this browser.')).toBeVisible()
  expect(failed).toEqual([])
})
