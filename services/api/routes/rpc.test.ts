import { createPublicClient, parseGwei, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hostedRpcUrl } from '../../../src/shared/protocol/hostedRpcUrl'
import { garbage, hang, startFaultServer, type FaultHandler, type FaultServer } from '../../../src/worker/rpc-transport/faultServer'
import { httpTransport } from '../../../src/worker/rpc-transport/http'
import { startAnvil, type Anvil } from '../../chain/anvil'
import { freePorts } from '../../stack/ports'
import { createApiApp } from '../app'
import type { ApiConfig } from '../config'
import { openDatabase, type Database } from '../db/createDatabase'
import { createAnswerCache } from '../rpc/answerCache'
import { RPC_GATEWAY_METHODS } from '../rpc/gatewayMethods'
import { rpcEndpointErrorCodes as codes } from './rpc'

// anvil's well-known dev key (account 0): signs the raw transaction the endpoint forwards.
const sender = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const PROJECT = 'rpc-project'
const ALLOWED = 'https://allowed.test'
const BASE = 'http://data.test'
/** Served by a dead node first, then anvil (through a proxy that counts calls); by a hanging node; by an HTML page. */
const LOCAL = 31337
const HANGING = 31401
const HTML = 31402

type Json = { jsonrpc?: string; id?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } }

describe('the hosted RPC endpoint, on anvil', () => {
  let anvil: Anvil
  let db: Database
  /** anvil behind a proxy that counts the calls it forwards; a node that never answers; one that answers a web page; one that is gone. */
  let nodes: { proxy: FaultServer; hanging: FaultServer; html: FaultServer; deadUrl: string }
  const logLines: string[] = []

  /** Forwards each request to anvil as it came: the calls it saw are the calls anvil answered. */
  const toAnvil: FaultHandler = async (body, res) => {
    const answer = await fetch(anvil.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text())
  }
  const callsTo = (method: string) => nodes.proxy.calls().filter((call) => call.method === method).length

  const createApp = (overrides: Partial<ApiConfig> = {}) =>
    createApiApp({
      db,
      projects: [{ id: PROJECT, allowedOrigins: [ALLOWED] }],
      chains: [],
      rpc: {
        chains: [
          { chainId: LOCAL, upstreams: [nodes.deadUrl, nodes.proxy.url] },
          { chainId: HANGING, upstreams: [nodes.hanging.url] },
          { chainId: HTML, upstreams: [nodes.html.url] },
        ],
        attemptTimeoutMs: 300,
        callTimeoutMs: 600,
      },
      log: (line) => logLines.push(line),
      ...overrides,
    })
  let app: ReturnType<typeof createApp>

  const send = async (body: unknown, { chainId = `eip155:${LOCAL}`, projectId = PROJECT, headers = {}, target = app }: { chainId?: string; projectId?: string; headers?: Record<string, string>; target?: typeof app } = {}) => {
    const query = new URLSearchParams({ chainId, projectId })
    const response = await target.request(`${BASE}/v1/?${query}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) })
    return { status: response.status, headers: response.headers, json: (await response.json()) as Json & Json[] }
  }
  const call = (method: string, params: unknown[] = [], id: unknown = 1) => ({ jsonrpc: '2.0', id, method, params })
  const anvilCall = async (method: string, params: unknown[] = []) =>
    ((await (await fetch(anvil.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(call(method, params)) })).json()) as Json).result

  beforeAll(async () => {
    anvil = await startAnvil({ port: (await freePorts()).anvil, chainId: LOCAL })
    db = await openDatabase({})
    const dead = await startFaultServer(hang())
    await dead.close()
    nodes = { proxy: await startFaultServer(toAnvil), hanging: await startFaultServer(hang()), html: await startFaultServer(garbage('<html>upstream secret page</html>')), deadUrl: dead.url }
    app = createApp()
  }, 60_000)
  afterAll(async () => {
    await Promise.all([nodes?.proxy.close(), nodes?.hanging.close(), nodes?.html.close()])
    await db?.close()
    await anvil?.stop()
  })

  it("serves as a network's RPC: the widget's own transport reads the chain through hostedRpcUrl, batching included", async () => {
    const url = hostedRpcUrl({ api: BASE, caipNetworkId: `eip155:${LOCAL}`, projectId: PROJECT })
    expect(url).toBe(`${BASE}/v1/?chainId=eip155%3A${LOCAL}&projectId=${PROJECT}`)
    const client = createPublicClient({ transport: httpTransport(url, { fetchFn: (input, init) => Promise.resolve(app.request(input, init)) }) })
    // Asked in one tick: the transport sends them as one JSON-RPC batch.
    const [chainId, balance, blockNumber] = await Promise.all([client.getChainId(), client.getBalance({ address: sender.address }), client.getBlockNumber()])
    expect(chainId).toBe(LOCAL)
    expect(balance).toBe(BigInt((await anvilCall('eth_getBalance', [sender.address, 'latest'])) as Hex))
    expect(blockNumber).toBe(BigInt((await anvilCall('eth_blockNumber')) as Hex))
  })

  it('answers one call, and a batch in order with the ids sent, as anvil does', async () => {
    const single = await send(call('eth_getBalance', [sender.address, 'latest'], 'a'))
    expect(single).toMatchObject({ status: 200, json: { jsonrpc: '2.0', id: 'a', result: await anvilCall('eth_getBalance', [sender.address, 'latest']) } })

    const batch = await send([call('eth_blockNumber', [], 1), call('eth_getCode', [sender.address, 'latest'], 'two'), call('net_version', [], null)])
    expect(batch.status).toBe(200)
    expect(batch.json).toEqual([
      { jsonrpc: '2.0', id: 1, result: await anvilCall('eth_blockNumber') },
      { jsonrpc: '2.0', id: 'two', result: '0x' },
      { jsonrpc: '2.0', id: null, result: String(LOCAL) },
    ])
  })

  it('answers the first node’s calls from the second when the first is dead: the worker’s ranked fallback', async () => {
    nodes.proxy.setHandlers(toAnvil)
    const { json } = await send(call('eth_blockNumber'))
    expect(json.result).toMatch(/^0x[0-9a-f]+$/)
    expect(callsTo('eth_blockNumber')).toBe(1)
  })

  it('sends a batch of 1,000 calls and refuses one of 1,001 before any node is asked', async () => {
    nodes.proxy.setHandlers(toAnvil)
    const thousand = await send(Array.from({ length: 1_000 }, (_, id) => call('eth_getBalance', [sender.address, 'latest'], id)))
    expect(thousand.json).toHaveLength(1_000)
    expect(thousand.json.map((answer) => answer.id)).toEqual(Array.from({ length: 1_000 }, (_, id) => id))
    expect(nodes.proxy.requests.length).toBeLessThanOrEqual(2) // sent on as batches, not 1,000 requests

    nodes.proxy.setHandlers(toAnvil)
    const tooMany = await send(Array.from({ length: 1_001 }, (_, id) => call('eth_blockNumber', [], id)))
    expect(tooMany.status).toBe(400)
    expect(tooMany.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: codes.limitExceeded, message: 'A batch may hold at most 1000 calls; this one holds 1001.' } })
    expect(nodes.proxy.calls()).toHaveLength(0)
  })

  it('refuses unknown projects, other origins and chains it does not serve, as JSON-RPC', async () => {
    expect(await send(call('eth_chainId'), { projectId: '' })).toMatchObject({ status: 400, json: { error: { code: codes.invalidRequest } } })
    expect(await send(call('eth_chainId'), { projectId: 'someone-else' })).toMatchObject({ status: 403, json: { id: null, error: { code: codes.unknownProject, message: 'Unknown project id: someone-else' } } })
    const evil = await send(call('eth_chainId'), { headers: { origin: 'https://evil.test' } })
    expect(evil).toMatchObject({ status: 403, json: { error: { code: codes.originNotAllowed } } })
    expect(evil.json.error?.message).toContain(`Origin https://evil.test is not on the allowlist of project ${PROJECT}`)
    expect(evil.headers.get('access-control-allow-origin')).toBeNull()

    const allowed = await send(call('eth_chainId'), { headers: { origin: ALLOWED } })
    expect(allowed).toMatchObject({ status: 200, json: { result: '0x7a69' } })
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED)
    const preflight = await app.request(`${BASE}/v1/?chainId=eip155:${LOCAL}&projectId=${PROJECT}`, { method: 'OPTIONS', headers: { origin: ALLOWED } })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ALLOWED)

    expect(await send(call('eth_chainId'), { chainId: 'eip155:5' })).toMatchObject({ status: 400, json: { error: { code: codes.chainNotServed, message: `chainId eip155:5 is not served here; served: eip155:${LOCAL}, eip155:${HANGING}, eip155:${HTML}.` } } })
    // A bare chain id is not the CAIP-2 id SPEC §7 names (nor do the balance and convert routes take one): the answer says which.
    expect((await send(call('eth_chainId'), { chainId: String(LOCAL) })).json.error?.message).toContain(`(a CAIP-2 id: eip155:${LOCAL})`)
  })

  it('refuses every method outside its list, naming it, and forwards eth_sendRawTransaction', async () => {
    nodes.proxy.setHandlers(toAnvil)
    const refused = ['debug_traceTransaction', 'admin_peers', 'personal_sign', 'personal_unlockAccount', 'eth_sendTransaction', 'eth_sign', 'eth_newFilter', 'anvil_setBalance', 'miner_start']
    const { json } = await send(refused.map((method, id) => call(method, [], id)))
    expect(json.map((answer) => answer.error?.code)).toEqual(refused.map(() => codes.methodNotAllowed))
    refused.forEach((method, index) => expect(json[index]!.error?.message).toContain(method))
    expect(nodes.proxy.calls()).toHaveLength(0)
    expect(RPC_GATEWAY_METHODS.filter((method) => /^(debug|admin|personal|miner|txpool)_|^eth_sign|^eth_sendTransaction$/.test(method))).toEqual([])

    const nonce = Number(await anvilCall('eth_getTransactionCount', [sender.address, 'pending']))
    const signed = await sender.signTransaction({ chainId: LOCAL, to: sender.address, value: 1n, nonce, gas: 21_000n, maxFeePerGas: parseGwei('10'), maxPriorityFeePerGas: 1n })
    const sent = await send(call('eth_sendRawTransaction', [signed]))
    expect(sent.json.result).toMatch(/^0x[0-9a-f]{64}$/)
    // anvil mines it a moment later: until then the receipt is null, and asked for again (null is not kept).
    await expect.poll(async () => (await send(call('eth_getTransactionReceipt', [sent.json.result]))).json.result, { interval: 20 }).toMatchObject({ transactionHash: sent.json.result, status: '0x1' })
  })

  it('passes a node’s own JSON-RPC error on, and says so plainly when no node answers', async () => {
    const invalid = await send(call('eth_getBalance', ['not an address', 'latest']))
    expect(invalid.status).toBe(200)
    expect(invalid.json.error?.code).toBe(-32602)

    const hangs = await send(call('eth_blockNumber', [], 9), { chainId: `eip155:${HANGING}` })
    expect(hangs).toMatchObject({ status: 200, json: { id: 9, error: { code: codes.unavailable, message: `No node of eip155:${HANGING} answered eth_blockNumber in time; try again later.` } } })
    const page = await send(call('eth_blockNumber', [], 10), { chainId: `eip155:${HTML}` })
    expect(page).toMatchObject({ status: 200, json: { id: 10, error: { code: codes.unavailable } } })
    expect(JSON.stringify(page.json)).not.toContain('secret')
    expect(logLines.some((line) => line.startsWith(`rpc eip155:${HTML}: no node answered 1 call(s)`))).toBe(true)
  })

  it('keeps answers that cannot change, and asks again for those that can', async () => {
    nodes.proxy.setHandlers(toAnvil)
    const fresh = createApp()
    for (let i = 0; i < 3; i++) expect((await send(call('eth_chainId'), { target: fresh })).json.result).toBe('0x7a69')
    expect(callsTo('eth_chainId')).toBe(1)

    const unknownHash = `0x${'ab'.repeat(32)}`
    for (let i = 0; i < 2; i++) expect((await send(call('eth_getTransactionReceipt', [unknownHash]), { target: fresh })).json.result).toBeNull()
    expect(callsTo('eth_getTransactionReceipt')).toBe(2)

    const block = (await anvilCall('eth_getBlockByNumber', ['latest', false])) as { hash: Hex }
    const upper = `0x${block.hash.slice(2).toUpperCase()}`
    expect((await send(call('eth_getBlockByHash', [block.hash, false]), { target: fresh })).json.result).toEqual(block)
    expect((await send(call('eth_getBlockByHash', [upper, false]), { target: fresh })).json.result).toEqual(block)
    expect(callsTo('eth_getBlockByHash')).toBe(1)
    for (let i = 0; i < 2; i++) await send(call('eth_blockNumber'), { target: fresh })
    expect(callsTo('eth_blockNumber')).toBe(2)
  })

  it('bounds its cache by entries and by bytes, least recently used out first', () => {
    const byEntries = createAnswerCache({ maxEntries: 2, maxBytes: 1_000 })
    byEntries.set('a', 1)
    byEntries.set('b', 2)
    byEntries.get('a')
    byEntries.set('c', 3)
    expect([byEntries.get('a'), byEntries.get('b'), byEntries.get('c')]).toEqual([{ result: 1 }, undefined, { result: 3 }])

    const byBytes = createAnswerCache({ maxEntries: 100, maxBytes: 20 })
    byBytes.set('a', '0x12345') // 1 + 9 bytes
    byBytes.set('b', '0x67890')
    byBytes.set('c', '0x1')
    expect([byBytes.get('a'), byBytes.get('b'), byBytes.get('c'), byBytes.bytes]).toEqual([undefined, { result: '0x67890' }, { result: '0x1' }, 16])
    byBytes.set('huge', 'x'.repeat(100))
    expect(byBytes.get('huge')).toBeUndefined()
  })

  it('counts a project’s requests across two instances on one database', async () => {
    const startOfMinute = Math.floor(Date.now() / 60_000) * 60_000 + 60_000
    const config = { projects: [{ id: PROJECT, allowedOrigins: [] }, { id: 'limited', allowedOrigins: [] }], now: () => startOfMinute + 15_000 }
    const first = createApp({ ...config, rpc: { chains: [{ chainId: LOCAL, upstreams: [nodes.proxy.url] }], requestsPerMinute: 3 } })
    const second = createApp({ ...config, rpc: { chains: [{ chainId: LOCAL, upstreams: [nodes.proxy.url] }], requestsPerMinute: 3 } })
    const statuses = []
    for (const target of [first, second, first]) statuses.push((await send(call('eth_blockNumber'), { projectId: 'limited', target })).status)
    expect(statuses).toEqual([200, 200, 200])
    const refused = await send(call('eth_blockNumber'), { projectId: 'limited', target: second })
    expect(refused).toMatchObject({ status: 429, json: { id: null, error: { code: codes.limitExceeded, message: 'Project limited sent more than 3 requests this minute; try again in 45 s.' } } })
    expect(refused.headers.get('retry-after')).toBe('45')
    expect((await send(call('eth_blockNumber'), { projectId: 'limited', target: first })).status).toBe(429)
    // Other projects count on their own.
    expect((await send(call('eth_chainId'), { target: second })).status).toBe(200)
  })

  it('answers malformed, oversized and non-JSON-RPC bodies with JSON-RPC errors and a 4xx, never a 500', async () => {
    const cases: [body: string, status: number, code: number][] = [
      ['{"jsonrpc":"2.0",', 400, codes.parseError],
      ['', 400, codes.parseError],
      ['"eth_chainId"', 400, codes.invalidRequest],
      ['{"hello":"world"}', 400, codes.invalidRequest],
      ['{"jsonrpc":"1.0","id":1,"method":"eth_chainId"}', 400, codes.invalidRequest],
      ['{"jsonrpc":"2.0","id":{},"method":"eth_chainId"}', 400, codes.invalidRequest],
      ['{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":"0x1"}', 400, codes.invalidRequest],
      ['[]', 400, codes.invalidRequest],
      [JSON.stringify([call('eth_blockNumber', ['x'.repeat(1_100_000)])]), 413, codes.limitExceeded],
    ]
    for (const [body, status, code] of cases) {
      const answer = await send(body)
      expect({ body: body.slice(0, 60), status: answer.status, code: answer.json.error?.code }).toEqual({ body: body.slice(0, 60), status, code })
    }
    // In a batch, each call is answered on its own.
    const mixed = await send('[1, {"jsonrpc":"2.0","id":2,"method":"eth_chainId"}]')
    expect(mixed).toMatchObject({ status: 200, json: [{ id: null, error: { code: codes.invalidRequest } }, { id: 2, result: '0x7a69' }] })
  })

  it('takes one call in a GET query, and leaves the data service’s own routes alone', async () => {
    const get = (query: string) => app.request(`${BASE}/v1/?chainId=eip155:${LOCAL}&projectId=${PROJECT}${query}`)
    expect(await (await get('&method=eth_chainId&id=7')).json()).toEqual({ jsonrpc: '2.0', id: 7, result: '0x7a69' })
    expect(await (await get(`&method=eth_getBalance&params=${encodeURIComponent(JSON.stringify([sender.address, 'latest']))}`)).json()).toMatchObject({ id: null, result: expect.stringMatching(/^0x/) })
    const noCall = await get('')
    expect(noCall.status).toBe(400)
    expect(((await noCall.json()) as Json).error?.code).toBe(codes.invalidRequest)
    expect((await get('&method=eth_chainId&params=[')).status).toBe(400)

    const supported = await app.request(`${BASE}/v1/supported-chains?projectId=${PROJECT}`)
    expect(await supported.json()).toEqual({ http: [], ws: [] })
    const unknown = await app.request(`${BASE}/v1/supported-chains?projectId=someone-else`)
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('UNKNOWN_PROJECT')
  })
})
