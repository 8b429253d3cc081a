import { request as httpRequest, createServer, type Server } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { decodeFunctionData, encodeAbiParameters, encodeFunctionResult, multicall3Abi, numberToHex, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { freePorts } from '../stack/ports'
import { createApiApp } from './app'
import type { ApiConfig } from './config'
import { openDatabase } from './db/createDatabase'
import { startApiServer, type ApiServer } from './server'

// anvil's well-known dev key (account 1): signatures only, no chain needed.
const alice = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const ORIGIN_A = 'http://a.test'
const ORIGIN_B = 'http://b.test'
const projects = [
  { id: 'project-a', allowedOrigins: [ORIGIN_A] },
  { id: 'project-b', allowedOrigins: [ORIGIN_B] },
  { id: 'server-only', allowedOrigins: [] },
]
const BODY_LIMIT = 64 * 1024

const event = (overrides: Record<string, unknown> = {}) => ({
  eventId: 'e1',
  url: `${ORIGIN_A}/page`,
  domain: 'a.test',
  timestamp: 1_700_000_000_000,
  props: { type: 'track', event: 'MODAL_OPEN', properties: { connected: false } },
  ...overrides,
})
const withProperties = (properties: unknown) => event({ props: { type: 'track', event: 'MODAL_OPEN', properties } })
const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { a: nested(depth - 1) })
const cursor = (text: string) => Buffer.from(text).toString('base64url')

describe('data service under hostile input', () => {
  let server: ApiServer
  const logLines: string[] = []

  const url = (path: string, projectId = 'project-a') => `${server.url}${path}${path.includes('?') ? '&' : '?'}projectId=${projectId}`
  const get = (path: string, headers: Record<string, string> = {}) => fetch(url(path), { headers })
  /** POSTs a body as is when it is a string (so raw JSON like 1e400 or \ud800 escapes reaches the service), else as JSON. */
  const post = (path: string, body: unknown, { origin = ORIGIN_A, projectId = 'project-a' }: { origin?: string | null; projectId?: string } = {}) =>
    fetch(url(path, projectId), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
  /** A name registration whose message the body's address really signed. */
  const register = async ({ message, coinType = 60, messageText }: { message?: Record<string, unknown>; coinType?: unknown; messageText?: string }) => {
    const text = messageText ?? JSON.stringify({ name: 'hostile-name', attributes: {}, timestamp: Math.floor(Date.now() / 1_000), coinType: 60, ...message })
    return post('/v1/profile/account', { coin_type: coinType, address: alice.address, message: text, signature: await alice.signMessage({ message: text }) })
  }
  /** Sends `bytes` of body in chunks with no Content-Length (Transfer-Encoding: chunked) and resolves the status and JSON. */
  const postChunked = (path: string, bytes: number) =>
    new Promise<Response>((resolve, reject) => {
      const req = httpRequest(url(path), { method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN_A } }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve(new Response(Buffer.concat(chunks), { status: res.statusCode })))
      })
      req.on('error', reject)
      const chunk = 'x'.repeat(4_096)
      let sent = 0
      const write = () => {
        while (sent < bytes) {
          sent += chunk.length
          if (!req.write(chunk)) return void req.once('drain', write)
        }
        req.end()
      }
      write()
    })

  beforeAll(async () => {
    server = await startApiServer({ port: (await freePorts()).api, db: await openDatabase({}), projects, chains: [], log: (line) => logLines.push(line) })
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
  })

  const hostile: [string, () => Promise<Response>, number, string | RegExp][] = [
    // Bodies over the limit, announced or not.
    ['a body over the limit with Content-Length', () => post('/e', event({ url: 'x'.repeat(BODY_LIMIT) })), 413, 'body'],
    ['a chunked body over the limit without Content-Length', () => postChunked('/e', BODY_LIMIT * 2), 413, 'body'],
    ['a chunked body over the limit on a name registration', () => postChunked('/v1/profile/account', BODY_LIMIT + 4_096), 413, 'body'],
    // NUL in every kind of string.
    ['NUL in a JSON string', () => post('/e', event({ eventId: 'e\u0000' })), 400, 'eventId'],
    ['NUL in a nested analytics prop value', () => post('/e', withProperties({ note: { text: 'a\u0000b' } })), 400, 'props.properties.note.text'],
    ['NUL in an analytics prop key', () => post('/e', withProperties({ 'k\u0000': 1 })), 400, 'props.properties'],
    ['NUL in a name attribute value', () => register({ message: { attributes: { bio: 'a\u0000' } } }), 400, 'message.attributes.bio'],
    ['NUL in a name attribute key', () => register({ message: { attributes: { 'bio\u0000': 'a' } } }), 400, 'message.attributes'],
    ['NUL in a query value', () => get('/getWallets?search=a%00b'), 400, 'search'],
    ['NUL in a name path param', () => get('/v1/profile/account/ali%00ce'), 400, 'path'],
    ['NUL in a session id path param', () => get('/v1/sessions/%00'), 400, 'path'],
    ['NUL in an on-ramp field', () => post('/v1/generators/onrampurl', { destinationWallets: [{ address: '0x\u0000' }], partnerUserId: 'u1' }), 400, 'destinationWallets.0.address'],
    // Lone surrogates, as JSON escapes and percent-encoded.
    ['a lone surrogate in a JSON string', () => post('/e', JSON.stringify(event()).replace('"e1"', '"\\ud800"')), 400, 'eventId'],
    ['a lone surrogate in an analytics prop', () => post('/e', JSON.stringify(withProperties({ note: 'x' })).replace('"x"', '"\\udc00x"')), 400, 'props.properties.note'],
    ['a lone surrogate in a name attribute', () => register({ messageText: JSON.stringify({ name: 'hostile-name', attributes: { bio: 'SURROGATE' }, timestamp: Math.floor(Date.now() / 1_000), coinType: 60 }).replace('SURROGATE', '\\ud800') }), 400, 'message.attributes.bio'],
    ['%ED%A0%80 in a query value', () => get('/getWallets?search=%ED%A0%80'), 400, 'search'],
    ['%ED%A0%80 in a path param', () => get('/v1/profile/account/%ED%A0%80'), 400, 'path'],
    ['a broken percent-escape in a path param', () => get('/v1/profile/suggestions/%uD800'), 400, 'path'],
    ['\\ud800 in a path param (sent as U+FFFD)', () => get('/v1/profile/account/\ud800abcd'), 400, 'name'],
    // Numbers out of range.
    ['a cursor beyond bigint', () => get(`/v1/account/${alice.address}/history?cursor=${cursor('9223372036854775808:1')}`), 400, 'cursor'],
    ['a cursor of 40 digits', () => get(`/v1/account/${alice.address}/history?cursor=${cursor(`${'9'.repeat(40)}:1`)}`), 400, 'cursor'],
    ['a chain id beyond PostgreSQL integer', () => get(`/v1/account/${alice.address}/history?chainId=eip155:2147483648`), 400, 'chainId'],
    ['a chain id that is not a safe integer', () => get(`/v1/account/${alice.address}/balance?chainId=eip155:9007199254740993`), 400, 'chainId'],
    ['a coin type of 1e400', () => post('/v1/profile/account', `{"coin_type":1e400,"address":"${alice.address}","message":"{}","signature":"0x00"}`), 400, 'coin_type'],
    ['a coin type beyond PostgreSQL integer', () => register({ coinType: 2 ** 31, message: { coinType: 2 ** 31 } }), 400, 'coin_type'],
    ['a negative coin type', () => register({ coinType: -1, message: { coinType: -1 } }), 400, 'coin_type'],
    ['an analytics timestamp of 1e400', () => post('/e', JSON.stringify(event()).replace('1700000000000', '1e400')), 400, 'timestamp'],
    ['an analytics timestamp past the last date', () => post('/e', event({ timestamp: 9e15 })), 400, 'timestamp'],
    ['a signed timestamp of 1e400', () => register({ messageText: `{"name":"hostile-name","attributes":{},"timestamp":1e400,"coinType":60}` }), 400, 'message.timestamp'],
    ['a page number of 20 digits', () => get('/getWallets?page=99999999999999999999'), 400, 'page'],
    ['an on-ramp amount of 1e400', () => post('/v1/generators/onrampurl', `{"destinationWallets":[{"address":"0x1"}],"partnerUserId":"u1","presetFiatAmount":1e400}`), 400, 'presetFiatAmount'],
    // Strings too long.
    ['a 64-character name label', () => register({ message: { name: 'a'.repeat(64) } }), 400, 'message.name'],
    ['a 64-character name in the path', () => get(`/v1/profile/account/${'a'.repeat(64)}`), 400, 'name'],
    ['a 10,000-character suggestion', () => get(`/v1/profile/suggestions/${'a'.repeat(10_000)}`), 400, 'name'],
    ['a 101-character wallet search', () => get(`/getWallets?search=${'a'.repeat(101)}`), 400, 'search'],
    ['101 wallet ids to include', () => get(`/getWallets?include=${Array.from({ length: 101 }, (_, i) => `w${i}`).join(',')}`), 400, 'include'],
    ['a 65-character cursor', () => get(`/v1/account/${alice.address}/history?cursor=${'A'.repeat(65)}`), 400, 'cursor'],
    ['a 129-character event id', () => post('/e', event({ eventId: 'e'.repeat(129) })), 400, 'eventId'],
    ['a 129-character price address', () => post('/v1/fungible/price', { currency: 'usd', addresses: ['a'.repeat(129)], projectId: 'p' }), 400, 'addresses.0'],
    ['101 price addresses', () => post('/v1/fungible/price', { currency: 'usd', addresses: Array.from({ length: 101 }, () => 'eip155:1:0x1'), projectId: 'p' }), 400, 'addresses'],
    ['a 129-character partner user id', () => post('/v1/generators/onrampurl', { destinationWallets: [{ address: '0x1' }], partnerUserId: 'u'.repeat(129) }), 400, 'partnerUserId'],
    ['a 17-character currency id', () => post('/v1/onramp/quote', { purchaseCurrency: { id: 'ETH' }, paymentCurrency: { id: 'U'.repeat(17) }, amount: '1', network: 'ethereum' }), 400, 'paymentCurrency.id'],
    ['a 129-character project id', () => fetch(`${server.url}/v1/supported-chains?projectId=${'p'.repeat(129)}`), 400, 'projectId'],
    // Analytics props too deep, too big, too many keys; any body too deep.
    ['analytics props nested 6 levels', () => post('/e', withProperties(nested(5))), 400, 'props.properties.a.a.a.a'],
    ['a body nested 1,000 levels', () => post('/e', withProperties(nested(1_000))), 400, /^props\.properties(\.a)+$/],
    ['analytics props over 8 KiB', () => post('/e', withProperties({ text: 'x'.repeat(9_000) })), 400, 'props'],
    ['analytics props with 65 keys', () => post('/e', withProperties(Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i])))), 400, 'props.properties'],
    // Name attributes: count, key and value lengths.
    ['17 name attributes', () => register({ message: { attributes: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) } }), 400, 'message.attributes'],
    ['a 2,049-character attribute value', () => register({ message: { attributes: { bio: 'v'.repeat(2_049) } } }), 400, 'message.attributes.bio'],
    ['a 65-character attribute key', () => register({ message: { attributes: { ['k'.repeat(65)]: 'v' } } }), 400, /^message\.attributes/],
    // Wrong JSON types.
    ['malformed JSON', () => post('/e', '{"eventId":'), 400, 'body'],
    ['an array for a body', () => post('/e', []), 400, 'body'],
    ['a string for analytics props', () => post('/e', event({ props: 'MODAL_OPEN' })), 400, 'props'],
    ['a string for a coin type', () => register({ coinType: '60' }), 400, 'coin_type'],
    ['an array for name attributes', () => register({ message: { attributes: ['a'] } }), 400, 'message.attributes'],
    ['a signed message that is not JSON', () => register({ messageText: 'hello' }), 400, 'message'],
    ['an object for price addresses', () => post('/v1/fungible/price', { currency: 'usd', addresses: { 0: 'a' }, projectId: 'p' }), 400, 'addresses'],
  ]

  it.each(hostile)('refuses %s, naming the field', async (_name, send, status, field) => {
    const response = await send()
    const body = await response.json()
    expect({ status: response.status, field: body.error?.field }).toEqual({ status, field: expect.stringMatching(typeof field === 'string' ? `^${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` : field) })
    expect(body.error.message).toMatch(/^\S/)
  })

  it('let none of them reach the last-resort handler (nothing logged)', () => {
    expect(logLines).toEqual([])
  })

  it('still stores well-formed input after all of that', async () => {
    expect((await post('/e', withProperties({ connected: true, note: 'ünïcödé 😀 line\nbreak' }))).status).toBe(202)
    expect((await register({ message: { name: 'good-name', attributes: { avatar: 'https://a.test/avatar.png' } } })).status).toBe(200)
    expect(await (await get('/v1/profile/account/good-name')).json()).toMatchObject({ addresses: { '60': { address: alice.address } }, attributes: { avatar: 'https://a.test/avatar.png' } })
  })

  it('refuses a coin type the signature does not cover', async () => {
    const tampered = await register({ coinType: 0, message: { name: 'tamper-name', coinType: 60 } })
    expect(tampered.status).toBe(400)
    expect((await tampered.json()).error).toMatchObject({ code: 'INVALID_INPUT', field: 'message.coinType' })
    const unsigned = await register({ messageText: JSON.stringify({ name: 'tamper-name', attributes: {}, timestamp: Math.floor(Date.now() / 1_000) }) })
    expect(unsigned.status).toBe(400)
    expect((await unsigned.json()).error.field).toBe('message.coinType')
    expect((await get('/v1/profile/account/tamper-name')).status).toBe(404)
    expect((await register({ coinType: 0, message: { name: 'bitcoin-name', coinType: 0 } })).status).toBe(200)
    expect((await (await get('/v1/profile/account/bitcoin-name')).json()).addresses).toEqual({ '0': { address: alice.address } })
  })

  it('answers each project’s CORS for its own origins only', async () => {
    const crossProject = await fetch(url('/v1/supported-chains', 'project-b'), { headers: { origin: ORIGIN_A } })
    expect(crossProject.status).toBe(403)
    expect(crossProject.headers.get('access-control-allow-origin')).toBeNull()
    expect((await crossProject.json()).error).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED', field: 'origin' })
    const own = await fetch(url('/v1/supported-chains', 'project-b'), { headers: { origin: ORIGIN_B } })
    expect(own.headers.get('access-control-allow-origin')).toBe(ORIGIN_B)
    const preflight = (origin: string) => fetch(url('/e', 'project-b'), { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } })
    const foreign = await preflight(ORIGIN_A)
    expect(foreign.status).toBe(403)
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull()
    const allowed = await preflight(ORIGIN_B)
    expect(allowed.status).toBe(204)
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ORIGIN_B)
  })

  it('refuses analytics without an Origin when the project has an allowlist, and takes them when it has none', async () => {
    const refused = await post('/e', event(), { origin: null })
    expect(refused.status).toBe(403)
    expect((await refused.json()).error).toMatchObject({ code: 'ORIGIN_REQUIRED', field: 'origin' })
    expect((await post('/e', event(), { origin: null, projectId: 'server-only' })).status).toBe(202)
    expect((await post('/e', event(), { origin: ORIGIN_A, projectId: 'server-only' })).status).toBe(403)
  })

  it('logs a failure from a path and message full of control characters as one escaped line, and tells the client nothing', async () => {
    const lines: string[] = []
    const db = await openDatabase({})
    const app = createApiApp({ db, projects, chains: [], log: (line) => lines.push(line) })
    app.get('/v1/fails/:what', () => {
      throw new Error('relation "x" failed\nFORGED LINE\r\u001b[2J')
    })
    const response = await app.request('/v1/fails/a%0AFORGED%20200%20OK%0D%1B%5B31m?projectId=project-a')
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'The data service failed to answer this request', reasons: [{ description: 'The data service failed to answer this request' }] } })
    expect(lines).toHaveLength(1)
    expect(lines[0]).not.toMatch(/[\n\r]/)
    expect(lines[0]).not.toContain('\u001b')
    expect(lines[0]).toBe('data service: GET /v1/fails/a\\nFORGED 200 OK\\r\\u001b[31m: relation "x" failed\\nFORGED LINE\\r\\u001b[2J')
    await db.close()
  })
})

describe('slow clients', () => {
  it('closes a connection that dribbles its headers, and one past the connection limit, and serves the rest', async () => {
    const server = await startApiServer({ port: (await freePorts()).api, db: await openDatabase({}), projects, chains: [], limits: { headersTimeoutMs: 500, maxConnections: 3 } })
    const { port } = new URL(server.url)
    const isClosed = new Map<Socket, boolean>()
    const open = () =>
      new Promise<Socket>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => resolve(socket))
        isClosed.set(socket, false)
        socket.on('close', () => isClosed.set(socket, true))
        socket.on('error', () => {})
        socket.resume() // read the server's 408, or 'close' never comes
      })
    const slow = await open()
    slow.write('GET /health HTTP/1.1\r\nHost: x\r\n') // and never the blank line
    const others = await Promise.all([open(), open(), open()])
    // Three connections are the limit: one of the three new ones is closed at once.
    await expect.poll(() => others.filter((socket) => isClosed.get(socket)).length, { timeout: 2_000 }).toBe(1)
    for (const socket of others) socket.destroy()
    await expect.poll(() => isClosed.get(slow), { timeout: 5_000 }).toBe(true)
    expect((await fetch(`${server.url}/health`)).status).toBe(200)
    await server.stop()
  })
})

describe('analytics storage', () => {
  it('keeps a project’s events within its cap and retention, oldest first, and leaves other projects alone', async () => {
    let clock = Date.parse('2026-11-23T12:00:00Z')
    const db = await openDatabase({})
    const app = createApiApp({ db, projects, chains: [], now: () => clock, limits: { analyticsEventsPerProject: 5, analyticsPruneEvery: 3, analyticsRetentionMs: 60_000 } })
    const send = (eventId: string, projectId = 'project-a', origin = projectId === 'project-a' ? ORIGIN_A : ORIGIN_B) =>
      app.request(`/e?projectId=${projectId}`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify(event({ eventId })) })
    const kept = async (projectId: string) =>
      (await db.query<{ event_id: string }>('select event_id from analytics_events where project_id = $1 order by id', [projectId])).map((r) => r.event_id)
    for (let i = 0; i < 2; i++) expect((await send(`b${i}`, 'project-b')).status).toBe(202)
    for (let i = 0; i < 12; i++) expect((await send(`a${i}`)).status).toBe(202)
    expect(await kept('project-a')).toEqual(['a7', 'a8', 'a9', 'a10', 'a11'])
    expect(await kept('project-b')).toEqual(['b0', 'b1'])
    // Past the retention, the next prune takes everything older.
    clock += 120_000
    for (let i = 12; i < 15; i++) await send(`a${i}`)
    expect(await kept('project-a')).toEqual(['a12', 'a13', 'a14'])
    await db.close()
  })
})

describe('per-chain state', () => {
  let rpc: Server
  let ethCalls = 0

  beforeAll(async () => {
    // A JSON-RPC node that answers every multicall with a balance of 1 wei for each call, and counts them.
    rpc = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk.toString()))
      req.on('end', () => {
        const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: [{ data: Hex }] }
        let result: Hex = numberToHex(31_337)
        if (method === 'eth_call') {
          ethCalls++
          const { args } = decodeFunctionData({ abi: multicall3Abi, data: params[0].data })
          const calls = args[0] as readonly unknown[]
          result = encodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', result: calls.map(() => ({ success: true, returnData: encodeAbiParameters([{ type: 'uint256' }], [1n]) })) })
        }
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result }))
      })
    })
    await new Promise<void>((resolve) => rpc.listen(0, '127.0.0.1', resolve))
  })
  afterAll(() => new Promise<void>((resolve) => rpc.close(() => resolve())))

  it('keeps at most its limit of addresses, dropping the least recently used', async () => {
    const config: ApiConfig = {
      db: await openDatabase({}),
      projects,
      chains: [{ chainId: 31337, name: 'Local', rpcUrl: `http://127.0.0.1:${(rpc.address() as AddressInfo).port}`, multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, tokens: [] }],
      limits: { balanceCacheEntries: 8 },
    }
    const app = createApiApp(config)
    const address = (i: number) => `0x${i.toString(16).padStart(40, '0')}`
    const balance = async (i: number) => {
      const response = await app.request(`/v1/account/${address(i)}/balance?chainId=eip155:31337&projectId=project-a`)
      expect(response.status).toBe(200)
    }
    for (let i = 1; i <= 50; i++) await balance(i)
    expect(ethCalls).toBe(50)
    for (let i = 43; i <= 50; i++) await balance(i)
    expect(ethCalls).toBe(50)
    await balance(42)
    expect(ethCalls).toBe(51)
    await balance(43)
    expect(ethCalls).toBe(52)
    await config.db.close()
  })

  it('logs an RPC error whose text holds newlines and ESC as one escaped line', async () => {
    const failing = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk.toString()))
      req.on('end', () => {
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ jsonrpc: '2.0', id: (JSON.parse(body) as { id: number }).id, error: { code: -32000, message: 'node down\nindexer eip155:1: FORGED\r\u001b[2J' } }))
      })
    })
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve))
    const lines: string[] = []
    const server = await startApiServer({
      port: (await freePorts()).api,
      db: await openDatabase({}),
      projects,
      chains: [{ chainId: 31337, name: 'Local', rpcUrl: `http://127.0.0.1:${(failing.address() as AddressInfo).port}`, multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, tokens: [] }],
      indexerPollIntervalMs: 20,
      log: (line) => lines.push(line),
    })
    try {
      await vi.waitFor(() => expect(lines.length).toBeGreaterThan(0), { timeout: 5_000 })
    } finally {
      await server.stop()
      await new Promise<void>((resolve) => failing.close(() => resolve()))
    }
    expect(lines[0]).toMatch(/^indexer eip155:31337: .*node down\\nindexer eip155:1: FORGED\\r\\u001b\[2J/)
    for (const line of lines) expect(line).not.toMatch(/[\n\r]/)
  })
})
