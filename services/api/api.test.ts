import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestClient, createWalletClient, erc20Abi, http, parseUnits, publicActions, type Hash } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { createSiweMessage } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '../chain/anvil'
import { seedChain, type SeededChain } from '../chain/seedChain'
import { freePorts } from '../stack/ports'
import type { ApiConfig } from './config'
import { openDatabase } from './db/createDatabase'
import { startApiServer, type ApiServer } from './server'
import { createDataServiceClient } from '../../src/worker/services/createDataServiceClient'
import { startPostgres } from './testing/startPostgres'

// anvil's well-known dev keys (accounts 1 and 4).
const alice = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const mallory = privateKeyToAccount('0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a')
const PROJECT = 'test-project'
const ALLOWED = 'http://allowed.test'

describe.each(['pglite', 'postgres'] as const)('data service on %s and anvil', (kind) => {
  let anvil: Anvil
  let seeded: SeededChain
  let server: ApiServer
  let config: Omit<ApiConfig, 'db'>
  let port: number
  let dataDir: string
  let postgres: Awaited<ReturnType<typeof startPostgres>> | undefined
  const open = () => (kind === 'postgres' ? openDatabase({ databaseUrl: postgres!.url }) : openDatabase({ dataDir }))
  const start = async () => (server = await startApiServer({ ...config, db: await open(), port, indexerPollIntervalMs: 50 }))
  const get = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}${path.includes('?') ? '&' : '?'}projectId=${PROJECT}&st=test&sv=test-x-1`, init)
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    get(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) })
  const chainClient = () => createTestClient({ chain: foundry, mode: 'anvil', transport: http(anvil.rpcUrl) }).extend(publicActions)
  const wallet = () => createWalletClient({ chain: foundry, transport: http(anvil.rpcUrl) })
  const catchUp = () => server.indexers[0]!.catchUp()

  beforeAll(async () => {
    const ports = await freePorts()
    port = ports.api
    anvil = await startAnvil({ port: ports.anvil, chainId: 31337 })
    seeded = await seedChain({ rpcUrl: anvil.rpcUrl })
    dataDir = mkdtempSync(join(tmpdir(), 'tessera-api-'))
    if (kind === 'postgres') postgres = await startPostgres()
    config = {
      projects: [{ id: PROJECT, allowedOrigins: [ALLOWED] }],
      chains: [{ chainId: 31337, name: 'Local', rpcUrl: anvil.rpcUrl, multicall3: seeded.multicall3, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, tokens: seeded.tokens }],
      prices: { ETH: 3_000, TUSD: 1, TSR: 2.5 },
    }
    await start()
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
    await anvil?.stop()
    postgres?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('answers balances from the chain before and after a real transfer', async () => {
    const [from, to] = seeded.devAccounts
    const tusd = seeded.tokens[0]!
    const before = await (await get(`/v1/account/${to}/balance?chainId=eip155:31337&currency=usd`)).json()
    expect(before.balances.find((b: { symbol: string }) => b.symbol === 'TUSD')).toEqual({
      name: 'Tessera Dollar', symbol: 'TUSD', chainId: 'eip155:31337', address: `eip155:31337:${tusd.address}`, value: 1_000_000, price: 1, iconUrl: '',
      quantity: { decimals: '6', numeric: '1000000' },
    })
    const hash = await wallet().writeContract({ account: from!, address: tusd.address, abi: erc20Abi, functionName: 'transfer', args: [to!, parseUnits('1.5', 6)] })
    await chainClient().waitForTransactionReceipt({ hash })
    const cached = await (await get(`/v1/account/${to}/balance?chainId=eip155:31337`)).json()
    expect(cached.balances[1].quantity.numeric).toBe('1000000')
    const fresh = await (await get(`/v1/account/${to}/balance?chainId=eip155:31337&forceUpdate=true`)).json()
    expect(fresh.balances[1].quantity.numeric).toBe('1000001.5')
    expect(fresh.balances[0]).toMatchObject({ symbol: 'ETH', price: 3_000, quantity: { decimals: '18' } })
  })

  const register = async (account = alice, name = 'alice', timestamp = Math.floor(Date.now() / 1_000), signer = account) => {
    const message = JSON.stringify({ name, attributes: {}, timestamp, coinType: 60 })
    return post('/v1/profile/account', { coin_type: 60, address: account.address, message, signature: await signer.signMessage({ message }) })
  }

  it('registers a name signed by its address, then resolves it both ways', async () => {
    const response = await register()
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ success: true })
    const profile = await (await get('/v1/profile/account/alice.tessera.id?apiVersion=2')).json()
    expect(profile).toMatchObject({ name: 'alice.tessera.id', addresses: { '60': { address: alice.address } }, attributes: {} })
    expect((await (await get(`/v1/profile/reverse/${alice.address}?apiVersion=2`)).json()).map((p: { name: string }) => p.name)).toEqual(['alice.tessera.id'])
    expect(await (await get(`/v1/identity/${alice.address}`)).json()).toEqual({ name: 'alice.tessera.id', avatar: null })
    const suggestions = await (await get('/v1/profile/suggestions/alice')).json()
    expect(suggestions.suggestions[0]).toEqual({ name: 'alice.tessera.id', registered: true })
    expect(suggestions.suggestions[1]).toEqual({ name: 'alice-1.tessera.id', registered: false })
  })

  it.each([
    ['a forged signature', () => register(alice, 'forged', undefined, mallory), 401, 'signature'],
    ['a stale timestamp', () => register(alice, 'stale', Math.floor(Date.now() / 1_000) - 11 * 60), 400, 'message.timestamp'],
    ['a 3-character name', () => register(alice, 'abc'), 400, 'message.name'],
    ['a name already taken', () => register(mallory, 'alice'), 409, 'message.name'],
  ])('refuses %s', async (_name, attempt, status, field) => {
    const response = await attempt()
    expect(response.status).toBe(status)
    expect((await response.json()).error.field).toBe(field)
  })

  it('lets exactly one of five concurrent registrations of a name win', async () => {
    const statuses = await Promise.all(Array.from({ length: 5 }, () => register(alice, 'race-name').then((r) => r.status)))
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 409)).toHaveLength(4)
  })

  it('indexes 250+ transfers and pages through them with no duplicates or gaps', async () => {
    const [, , sender, receiver] = seeded.devAccounts
    const tsr = seeded.tokens[1]!
    let last: Hash | undefined
    for (let i = 0; i < 130; i++) {
      await wallet().writeContract({ account: sender!, address: tsr.address, abi: erc20Abi, functionName: 'transfer', args: [receiver!, BigInt(i + 1)] })
      last = await wallet().sendTransaction({ account: sender!, to: receiver!, value: BigInt(i + 1) })
    }
    await chainClient().waitForTransactionReceipt({ hash: last! })
    await catchUp()
    const ids: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const page: { data: { id: string; metadata: { operationType: string; chain: string } }[]; next: string | null } = await (
        await get(`/v1/account/${receiver}/history?chainId=eip155:31337${cursor ? `&cursor=${cursor}` : ''}`)
      ).json()
      ids.push(...page.data.map((t) => t.id))
      cursor = page.next
      pages++
    } while (cursor && pages < 20)
    // 260 transfers to the receiver, plus the two demo-token mints at deployment.
    expect(ids).toHaveLength(262)
    expect(new Set(ids).size).toBe(262)
    expect(pages).toBe(6)
    const first = await (await get(`/v1/account/${sender}/history?chainId=eip155:31337`)).json()
    expect(first.data[0]).toMatchObject({ metadata: { operationType: 'send', chain: 'eip155:31337', sentFrom: sender }, transfers: [{ direction: 'out', quantity: { numeric: expect.any(String) } }] })
  }, 60_000)

  it('follows a reorg: a transfer that left the chain leaves the history', async () => {
    const test = chainClient()
    const [, , , , , who] = seeded.devAccounts
    const snapshot = await test.snapshot()
    // anvil mines on its own task: the block is there once the receipt is, and only then is there something to catch up.
    await test.waitForTransactionReceipt({ hash: await wallet().sendTransaction({ account: seeded.devAccounts[0]!, to: who!, value: 111n }) })
    await catchUp()
    const values = async () => (await (await get(`/v1/account/${who}/history?chainId=eip155:31337`)).json()).data.map((t: { transfers: { quantity: { numeric: string } }[] }) => t.transfers[0]!.quantity.numeric)
    expect(await values()).toContain('0.000000000000000111')
    await test.revert({ id: snapshot })
    const hash = await wallet().sendTransaction({ account: seeded.devAccounts[0]!, to: who!, value: 222n })
    await test.mine({ blocks: 1 })
    await test.waitForTransactionReceipt({ hash })
    await catchUp()
    const after = await values()
    expect(after).toContain('0.000000000000000222')
    expect(after).not.toContain('0.000000000000000111')
  })

  it('keeps its data across a restart', async () => {
    const before = await (await get('/v1/profile/account/alice.tessera.id')).json()
    await server.stop()
    await start()
    expect(await (await get('/v1/profile/account/alice.tessera.id')).json()).toEqual(before)
  })

  it('stores analytics only from allowed origins, and sends CORS headers only to them', async () => {
    const event = { eventId: 'e1', url: `${ALLOWED}/page`, domain: 'allowed.test', timestamp: 1, props: { type: 'track', event: 'MODAL_OPEN', properties: { connected: false } } }
    const allowed = await post('/e', event, { origin: ALLOWED })
    expect(allowed.status).toBe(202)
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED)
    const denied = await post('/e', event, { origin: 'http://evil.test' })
    expect(denied.status).toBe(403)
    expect(denied.headers.get('access-control-allow-origin')).toBeNull()
    expect((await denied.json()).error).toMatchObject({
      code: 'ORIGIN_NOT_ALLOWED',
      message: "Origin http://evil.test is not on the allowlist of project test-project. Add it to the project's allowedOrigins, or with the local stack (npm start) set TESSERA_ALLOWED_ORIGINS=http://evil.test (comma-separated for several) and start it again.",
    })
    // Every route refuses it, the preflight included, with the same way out.
    for (const response of [await fetch(`${server.url}/v1/supported-chains?projectId=test-project`, { headers: { origin: 'http://localhost:3000' } }), await fetch(`${server.url}/v1/supported-chains?projectId=test-project`, { method: 'OPTIONS', headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET' } })]) {
      expect(response.status).toBe(403)
      expect((await response.json()).error.message).toContain('TESSERA_ALLOWED_ORIGINS=http://localhost:3000')
    }
    expect(await (await get('/getAnalyticsConfig')).json()).toEqual({ isAnalyticsEnabled: true })
  })

  it('sends its CORS headers with every answer to an allowed origin: data, a refused input, an unknown route', async () => {
    const headers = { origin: ALLOWED }
    for (const [path, status] of [[`/v1/account/${alice.address}/history?chainId=eip155:31337`, 200], ['/v1/account/0x123/balance?chainId=eip155:31337', 400], ['/v1/nothing-here', 404]] as const) {
      const response = await get(path, { headers })
      expect(response.status).toBe(status)
      expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED)
      expect(response.headers.get('vary')).toBe('origin')
    }
  })

  it.each([
    ['an unknown project', () => fetch(`${server.url}/v1/supported-chains?projectId=nope`), 403, 'projectId'],
    ['no project', () => fetch(`${server.url}/v1/supported-chains`), 400, 'projectId'],
    ['a malformed address', () => get('/v1/account/0x123/balance?chainId=eip155:31337'), 400, 'address'],
    ['a malformed chain id', () => get(`/v1/account/${alice.address}/balance?chainId=31337`), 400, 'chainId'],
    ['malformed JSON', () => post('/v1/profile/account', '{oops'), 400, 'body'],
    ['a missing field', () => post('/v1/profile/account', { coin_type: 60, address: alice.address, signature: '0x00' }), 400, 'message'],
    ['a foreign cursor', () => get(`/v1/account/${alice.address}/history?cursor=abc`), 400, 'cursor'],
    ['too many wallet entries', () => get('/getWallets?entries=500'), 400, 'entries'],
  ])('answers %s with an error naming the field', async (_name, request, status, field) => {
    const response = await request()
    expect(response.status).toBe(status)
    expect((await response.json()).error.field).toBe(field)
  })

  it('serves the wallet registry with its filters and inert images', async () => {
    const all = await (await get('/getWallets?page=1&entries=40')).json()
    expect(all.count).toBe(3)
    expect((await (await get('/getWallets?search=dev')).json()).data.map((w: { id: string }) => w.id)).toEqual(['tessera-dev-wallet'])
    expect((await (await get('/getWallets?chains=solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')).json()).data.map((w: { id: string }) => w.id)).toEqual(['sample-browser-wallet'])
    expect((await (await get('/getWallets?exclude=tessera-dev-wallet,sample-mobile-wallet')).json()).count).toBe(1)
    expect((await (await get('/getWallets?entries=1&page=2')).json()).data.map((w: { id: string }) => w.id)).toEqual(['sample-mobile-wallet'])
    expect((await (await get('/getWallets?badge_type=certified')).json()).count).toBe(1)
    const image = await get('/getWalletImage/tessera-dev-wallet')
    expect(image.headers.get('content-type')).toBe('image/svg+xml')
    expect(image.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'")
    expect((await get('/getWalletImage/..%2Fwallets')).status).toBe(400)
    expect((await get('/getWalletImage/nope')).status).toBe(404)
  })

  it('stores sign-in sessions for valid EIP-4361 messages and revokes them with the owner’s signature', async () => {
    // The rules a message must meet are sessions.test.ts's; here, that a session lands on this database.
    const { nonce } = await (await post('/v1/sessions/nonce', {})).json()
    const message = createSiweMessage({ address: alice.address, chainId: 31337, domain: 'allowed.test', nonce, uri: ALLOWED, version: '1', issuedAt: new Date(), expirationTime: new Date(Date.now() + 3_600_000) })
    const created = await post('/v1/sessions', { message, signature: await alice.signMessage({ message }) })
    expect(created.status).toBe(201)
    const session = await created.json()
    expect(session).toMatchObject({ caipAddress: `eip155:31337:${alice.address}`, revoked: false })
    expect((await post('/v1/sessions', { message, signature: await mallory.signMessage({ message }) })).status).toBe(401)
    expect((await post(`/v1/sessions/${session.id}/revoke`, { pci: session.id, signature: await mallory.signMessage({ message: `revoke:${session.id}` }) })).status).toBe(401)
    expect((await post(`/v1/sessions/${session.id}/revoke`, { pci: session.id, signature: await alice.signMessage({ message: `revoke:${session.id}` }) })).status).toBe(200)
    expect(await (await get(`/v1/sessions/${session.id}`)).json()).toMatchObject({ id: session.id, revoked: true })
  })

  it('answers in the shapes the widget’s own client validates (src/shared/protocol schemas)', async () => {
    const client = createDataServiceClient({ baseUrl: server.url, projectId: PROJECT, sdkVersion: 'test-x-1' })
    const [, receiver] = seeded.devAccounts
    const balances = await client.getBalance({ address: receiver!, chainId: 'eip155:31337' })
    expect(balances.balances.map((b) => b.symbol)).toEqual(['ETH', 'TUSD', 'TSR'])
    const history = await client.getTransactionHistory({ account: receiver!, chainId: 'eip155:31337' })
    expect(history.data.length).toBeGreaterThan(0)
    expect((await client.getWallets({ page: 1, entries: 40 })).count).toBe(3)
    expect((await client.lookupName({ name: 'alice' })).name).toBe('alice.tessera.id')
    expect((await client.reverseLookup({ address: alice.address }))[0]?.name).toBe('alice.tessera.id')
    expect((await client.getNameSuggestions({ name: 'alice' }))[0]).toEqual({ name: 'alice.tessera.id', registered: true })
    expect((await client.getSupportedChains()).http).toEqual(['eip155:31337'])
    await expect(client.lookupName({ name: 'nobody' })).rejects.toMatchObject({ code: 'NAME_RESOLVE_FAILED', status: 404 })
  })

  it('answers on-ramp calls without a provider with the samples and the placeholder quote, marked as estimates; swaps are refused', async () => {
    const options = await (await get('/v1/onramp/options')).json()
    expect(options.paymentCurrencies.map((c: { id: string }) => c.id)).toEqual(['USD', 'EUR'])
    expect(options.paymentCurrencies[0].paymentMethodLimits).toEqual([{ id: 'card', min: '10.00', max: '7500.00' }, { id: 'ACH_BANK_ACCOUNT', min: '10.00', max: '25000.00' }])
    const quote = await (await post('/v1/onramp/quote', { purchaseCurrency: { id: 'ETH' }, paymentCurrency: { id: 'USD' }, amount: '100', network: 'ethereum' })).json()
    expect(quote).toMatchObject({ quoteId: 'placeholder', purchaseAmount: { value: '0', currency: 'ETH' }, quotes: [], isEstimate: true })
    expect(options).toMatchObject({ providers: [], isEstimate: true, options: { paymentCurrencies: [{ id: 'USD', methods: [{ id: 'card', min: '10.00', max: '7500.00' }, { id: 'bank', min: '10.00', max: '25000.00' }] }, { id: 'EUR' }] } })
    const url = await post('/v1/generators/onrampurl', { destinationWallets: [{ address: alice.address }], partnerUserId: 'u1', presetFiatAmount: 50 })
    expect(url.status).toBe(400)
    expect((await url.json()).error).toMatchObject({ code: 'ONRAMP_NOT_CONFIGURED', message: 'No on-ramp provider is configured on this service' })
    const swap = await get('/v1/convert/quotes?chainId=eip155:31337')
    expect(swap.status).toBe(400)
    expect((await swap.json()).error.message).toBe('Network not supported for Swaps')
  })
})
