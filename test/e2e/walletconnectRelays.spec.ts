// A WalletConnect pairing across two relay instances on one Redis, as behind a load balancer: the page's relay is
// instance A, the phone wallet's is instance B, and every message between them crosses Redis. The demo is served
// again on the host-app origin (one the local project accepts; no other journey uses it meanwhile: one worker) with
// instance A as its relay.
import { fileURLToPath } from 'node:url'
import { createRelay, type Relay } from '../../services/relay/createRelay'
import { redisStore } from '../../services/relay/redisStore'
import { createNodeWallet, type NodeWallet } from '../../services/relay/testing/createNodeWallet'
import { startRedis, type RedisServer } from '../../services/relay/testing/startRedis'
import { freePorts } from '../../services/stack/ports'
import { serveViteApp } from '../../services/stack/startStack'
import { expect, test } from '../fixtures'

const demoRoot = fileURLToPath(new URL('../../demo', import.meta.url))

let redis: RedisServer
let relays: [Relay, Relay]
let wallet: NodeWallet
let stopDemo: () => Promise<void>
let demoUrl: string

test.beforeAll(async () => {
  // The demo's build takes a while on a loaded 2-core machine.
  test.setTimeout(180_000)
  const { readManifest } = await import('../../services/stack/manifest')
  const stack = readManifest()
  redis = await startRedis()
  const start = async () => {
    const relay = createRelay({ port: (await freePorts()).relay, store: redisStore({ url: redis.url }) })
    await relay.ready
    return relay
  }
  relays = [await start(), await start()]
  const [a, b] = relays
  wallet = await createNodeWallet({ relayUrl: b.url, chains: stack.chains.map((c) => ({ chainId: c.chainId, rpcUrl: c.rpcUrl })), addressIndex: 8, name: 'Phone Wallet' })
  demoUrl = stack.hostApp!.url
  const manifest = { ...stack, demo: { url: demoUrl }, services: { ...stack.services, relay: a.url } }
  stopDemo = await serveViteApp({ root: demoRoot, mode: 'preview', host: '127.0.0.1', port: stack.hostApp!.port, manifest })
})

test.afterAll(async () => {
  await wallet?.close()
  await stopDemo?.()
  await Promise.all(relays?.map((relay) => relay.close()) ?? [])
  await redis?.stop()
})

test('a phone wallet on another relay instance pairs with the page and signs in; the session lands in the data service', async ({ page, stack }) => {
  const [a, b] = relays
  const pageSockets: string[] = []
  page.on('websocket', (socket) => void pageSockets.push(socket.url()))
  await page.goto(`${demoUrl}/?siwx=required&families=eip155&auth=off`)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /^WalletConnect/ }).click()
  const link = page.getByRole('dialog', { name: 'WalletConnect' }).getByRole('link', { name: 'Open in a wallet on this device' })
  await expect(link).toBeVisible()
  await wallet.pair((await link.getAttribute('href'))!)

  // The page speaks to A only, the wallet to B only.
  expect(pageSockets.length).toBeGreaterThan(0)
  expect(pageSockets.every((url) => url.startsWith(`${a.url}/`))).toBe(true)
  expect(a.clientCount()).toBeGreaterThan(0)
  expect(b.clientCount()).toBe(1)

  await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Sign' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  expect(wallet.requests.at(-1)?.method).toBe('personal_sign')
  await expect(page.getByRole('button', { name: new RegExp(`${wallet.address.slice(-6)}$`) })).toBeVisible()

  const chain = stack.chains[0]!
  const [session] = await page.evaluate(() => JSON.parse(localStorage.getItem('tessera:v1:siwxSessions') ?? '[]') as { id: string }[])
  const stored = await (await fetch(`${stack.services.api}/v1/sessions/${session!.id}?projectId=${stack.services.projectId}`)).json()
  expect(stored).toMatchObject({ caipAddress: `${chain.caipNetworkId}:${wallet.address}`, revoked: false })
})
