import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { numberToHex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { paymasterErrorCodes } from '../../src/shared/protocol/paymasterErrors'
import { startPaymaster, type PaymasterServer } from './server'

const signerKey = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6'
const ENTRY_POINT = '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108'
const ORIGIN = 'http://site.test'
const BODY_LIMIT = 16 * 1_024
const op = (overrides: Record<string, unknown> = {}) => ({
  sender: '0x3333333333333333333333333333333333333333',
  nonce: '0x0',
  callData: '0x',
  callGasLimit: '0x0',
  verificationGasLimit: '0x0',
  preVerificationGas: '0x0',
  maxFeePerGas: '0x1',
  maxPriorityFeePerGas: '0x1',
  signature: '0x',
  ...overrides,
})
const call = (params: unknown, method = 'pm_getPaymasterStubData') => ({ jsonrpc: '2.0', id: 7, method, params })
const paramsWith = (overrides: Record<string, unknown>) => [op(overrides), ENTRY_POINT, '0x7a69', { projectId: 'site' }]

/**
 * Bodies a hostile or broken client sends, each with the code it must get and a piece of its message (which names the
 * field at fault). A string is sent as is (so raw JSON like 1e400 or a lone surrogate reaches the service).
 */
const hostile: [name: string, body: unknown, code: number, message: string][] = [
  ['not JSON', '{"jsonrpc": "2.0",', paymasterErrorCodes.parseError, 'not valid JSON'],
  ['an empty body', '', paymasterErrorCodes.parseError, 'not valid JSON'],
  ['JSON null', 'null', paymasterErrorCodes.invalidRequest, 'JSON-RPC 2.0 object'],
  ['a JSON number', '42', paymasterErrorCodes.invalidRequest, 'JSON-RPC 2.0 object'],
  ['an empty batch', '[]', paymasterErrorCodes.invalidRequest, 'at least one request'],
  ['a batch over the limit', Array.from({ length: 11 }, () => call(paramsWith({}))), paymasterErrorCodes.invalidRequest, 'at most 10 requests'],
  ['JSON-RPC 1.0', { ...call(paramsWith({})), jsonrpc: '1.0' }, paymasterErrorCodes.invalidRequest, 'jsonrpc must be "2.0"'],
  ['an object id', { ...call(paramsWith({})), id: { $gt: '' } }, paymasterErrorCodes.invalidRequest, 'id must be'],
  ['an id of 1e400 (Infinity once parsed)', `{"jsonrpc":"2.0","id":1e400,"method":"pm_getPaymasterData","params":[]}`, paymasterErrorCodes.invalidRequest, 'id must be'],
  ['no method', { jsonrpc: '2.0', id: 1, params: [] }, paymasterErrorCodes.invalidRequest, 'method must be a string'],
  ['an unknown method', call([], 'eth_sendTransaction'), paymasterErrorCodes.methodNotFound, '"eth_sendTransaction" is not answered here'],
  ["a method named after Object's prototype", call([], 'constructor'), paymasterErrorCodes.methodNotFound, '"constructor" is not answered here'],
  ['a 10,000-character method', call([], 'x'.repeat(10_000)), paymasterErrorCodes.methodNotFound, `"${'x'.repeat(64)}…"`],
  ['params as an object', call({ userOperation: op() }), paymasterErrorCodes.invalidParams, 'params must be an array'],
  ['three params (no context)', call(paramsWith({}).slice(0, 3)), paymasterErrorCodes.invalidParams, 'params must hold 4 entries'],
  ['the operation as a string', call(['0x', ENTRY_POINT, '0x7a69', { projectId: 'site' }]), paymasterErrorCodes.invalidParams, 'params[0] must be a UserOperation object'],
  ['a short sender', call(paramsWith({ sender: '0x1234' })), paymasterErrorCodes.invalidParams, 'params[0].sender must be an address'],
  ['a decimal nonce', call(paramsWith({ nonce: 1 })), paymasterErrorCodes.invalidParams, 'params[0].nonce must be a hex quantity'],
  ['a negative nonce', call(paramsWith({ nonce: '-0x1' })), paymasterErrorCodes.invalidParams, 'params[0].nonce must be a hex quantity'],
  ['a 65-digit nonce', call(paramsWith({ nonce: `0x1${'0'.repeat(64)}` })), paymasterErrorCodes.invalidParams, 'params[0].nonce must be a hex quantity'],
  ['a gas limit of 2^128', call(paramsWith({ callGasLimit: numberToHex(2n ** 128n) })), paymasterErrorCodes.invalidParams, 'params[0].callGasLimit must be at most 2^128 - 1'],
  ['a gas limit of the wrong type', call(paramsWith({ verificationGasLimit: [1] })), paymasterErrorCodes.invalidParams, 'params[0].verificationGasLimit must be a hex quantity'],
  ['no preVerificationGas', call(paramsWith({ preVerificationGas: undefined })), paymasterErrorCodes.invalidParams, 'params[0].preVerificationGas must be a hex quantity'],
  ['callData of odd length', call(paramsWith({ callData: '0x123' })), paymasterErrorCodes.invalidParams, 'params[0].callData must be hex bytes'],
  ['callData that is not hex', call(paramsWith({ callData: '0xzz' })), paymasterErrorCodes.invalidParams, 'params[0].callData must be hex bytes'],
  ['factoryData without a factory', call(paramsWith({ factoryData: '0x12' })), paymasterErrorCodes.invalidParams, 'params[0].factoryData needs a factory'],
  ['a malformed factory', call(paramsWith({ factory: '0x7703', factoryData: '0x' })), paymasterErrorCodes.invalidParams, 'params[0].factory must be an address'],
  ['a fee of the wrong type', call(paramsWith({ maxFeePerGas: true })), paymasterErrorCodes.invalidParams, 'params[0].maxFeePerGas must be a hex quantity'],
  ['a malformed EntryPoint', call([op(), 'entrypoint', '0x7a69', { projectId: 'site' }]), paymasterErrorCodes.invalidParams, 'params[1] must be an address'],
  ['a decimal chain id', call([op(), ENTRY_POINT, 31337, { projectId: 'site' }]), paymasterErrorCodes.invalidParams, 'params[2] must be the chain id'],
  ['chain id 0', call([op(), ENTRY_POINT, '0x0', { projectId: 'site' }]), paymasterErrorCodes.invalidParams, 'params[2] must be the chain id'],
  ['a chain id past 2^53', call([op(), ENTRY_POINT, `0x${'f'.repeat(14)}`, { projectId: 'site' }]), paymasterErrorCodes.invalidParams, 'params[2] must be the chain id'],
  ['a null context', call([op(), ENTRY_POINT, '0x7a69', null]), paymasterErrorCodes.invalidParams, 'params[3] must be the paymaster context'],
  ['a numeric project id', call([op(), ENTRY_POINT, '0x7a69', { projectId: 7 }]), paymasterErrorCodes.invalidParams, 'params[3].projectId must be the project id'],
  ['a 10,000-character project id', call([op(), ENTRY_POINT, '0x7a69', { projectId: 'p'.repeat(10_000) }]), paymasterErrorCodes.invalidParams, 'params[3].projectId must be'],
  [
    'the project id under __proto__',
    `{"jsonrpc":"2.0","id":1,"method":"pm_getPaymasterStubData","params":[${JSON.stringify(op())},"${ENTRY_POINT}","0x7a69",{"__proto__":{"projectId":"site"}}]}`,
    paymasterErrorCodes.invalidParams,
    'params[3].projectId must be',
  ],
  ['a lone surrogate as project id', `{"jsonrpc":"2.0","id":1,"method":"pm_getPaymasterStubData","params":[${JSON.stringify(op())},"${ENTRY_POINT}","0x7a69",{"projectId":"\\ud800"}]}`, paymasterErrorCodes.unknownProject, 'Gas is not sponsored for this app.'],
  ['JSON nested 2,500 deep', `${'{"a":'.repeat(2_500)}1${'}'.repeat(2_500)}`, paymasterErrorCodes.invalidRequest, 'jsonrpc must be "2.0"'],
]

describe('paymaster service under hostile input', () => {
  let server: PaymasterServer
  const logLines: string[] = []
  const answers: string[] = []
  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) })
    const text = await response.text()
    answers.push(text)
    return { status: response.status, headers: response.headers, body: JSON.parse(text) as { id: unknown; error?: { code: number; message: string }; result?: unknown } & unknown[] }
  }

  beforeAll(async () => {
    server = await startPaymaster({
      port: 0,
      signerKey,
      chains: [{ chainId: 31337, rpcUrl: 'http://127.0.0.1:1', paymasterAddress: '0x1111111111111111111111111111111111111111', entryPointAddress: ENTRY_POINT }],
      projects: [{ id: 'site', allowedOrigins: [ORIGIN], chainIds: [31337], dailyGasPerAccount: 1_000_000 }],
      limits: { bodyBytes: BODY_LIMIT, headersTimeoutMs: 500, requestTimeoutMs: 1_000 },
      readDeposit: async () => 10n ** 18n,
      log: (line) => logLines.push(line),
    })
  })
  afterAll(() => server?.stop())

  it.each(hostile)('answers %s with a JSON-RPC error naming what is wrong, never a 500', async (_, body, code, message) => {
    const { status, body: answer } = await post(body)
    expect(status).toBe(200)
    expect(answer.error?.code).toBe(code)
    expect(answer.error?.message).toContain(message)
  })

  it(`held ${hostile.length} hostile requests (at least 15) and a valid one after them still works`, async () => {
    expect(hostile.length).toBeGreaterThanOrEqual(15)
    const { body } = await post(call(paramsWith({})))
    expect(body.result).toMatchObject({ paymaster: '0x1111111111111111111111111111111111111111', isFinal: false })
  })

  it('answers a batch in order, each request on its own, echoing ids', async () => {
    const { body } = await post([call(paramsWith({})), { ...call(paramsWith({ nonce: 'x' })), id: 'b' }, 17, { ...call([], 'pm_sponsorUserOperation'), id: null }])
    expect(body.map((answer) => [(answer as { id: unknown }).id, (answer as { error?: { code: number } }).error?.code ?? 'result'])).toEqual([
      [7, 'result'],
      ['b', paymasterErrorCodes.invalidParams],
      [null, paymasterErrorCodes.invalidRequest],
      [null, paymasterErrorCodes.methodNotFound],
    ])
  })

  it('refuses a body over the limit, declared or streamed, with 413 and a JSON-RPC error', async () => {
    const large = JSON.stringify(call(paramsWith({ callData: `0x${'ab'.repeat(BODY_LIMIT)}` })))
    const declared = await post(large)
    expect(declared.status).toBe(413)
    expect(declared.body.error).toEqual({ code: paymasterErrorCodes.invalidRequest, message: `The request body is larger than the limit of ${BODY_LIMIT} bytes.` })

    const streamed = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
      const req = httpRequest(server.url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => (body += chunk.toString()))
        res.on('end', () => resolve({ status: res.statusCode, body }))
      })
      req.on('error', reject)
      for (let sent = 0; sent < BODY_LIMIT * 2; sent += 4_096) req.write('x'.repeat(4_096))
      req.end()
    })
    expect(streamed.status).toBe(413)
    expect(JSON.parse(streamed.body).error.code).toBe(paymasterErrorCodes.invalidRequest)
  })

  it('answers CORS preflights for listed origins only, and a request from another page is refused', async () => {
    const preflight = (origin: string) => fetch(server.url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } })
    const allowed = await preflight(ORIGIN)
    expect(allowed.status).toBe(204)
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect((await preflight('http://evil.test')).status).toBe(403)

    const fromSite = await post(call(paramsWith({})), { origin: ORIGIN })
    expect(fromSite.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect(fromSite.body.result).toBeDefined()
    const fromElsewhere = await post(call(paramsWith({})), { origin: 'http://evil.test' })
    expect(fromElsewhere.headers.get('access-control-allow-origin')).toBeNull()
    expect(fromElsewhere.body.error?.code).toBe(paymasterErrorCodes.originNotAllowed)
  })

  it('answers other routes with 404 and a JSON-RPC error, and /v1 like /', async () => {
    const get = await fetch(server.url)
    expect(get.status).toBe(404)
    expect(((await get.json()) as { error: { code: number } }).error.code).toBe(paymasterErrorCodes.invalidRequest)
    const v1 = await fetch(`${server.url}/v1`, { method: 'POST', body: JSON.stringify(call(paramsWith({}))) })
    expect(((await v1.json()) as { result?: unknown }).result).toBeDefined()
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: 'ok', service: 'tessera-paymaster' })
  })

  it('closes a connection that dribbles its headers', async () => {
    const started = performance.now()
    const closed = await new Promise<boolean>((resolve) => {
      const { port, hostname } = new URL(server.url)
      const socket = connect({ port: Number(port), host: hostname }, () => socket.write('POST / HTTP/1.1\r\nHost: x\r\n'))
      socket.on('close', () => resolve(true))
      socket.on('error', () => resolve(true))
      socket.resume() // read the server's 408, or 'close' never comes
      setTimeout(() => resolve(false), 5_000).unref()
    })
    expect(closed).toBe(true)
    expect(performance.now() - started).toBeLessThan(4_000)
  })

  it('never shows the signer key in an answer or a log line', () => {
    const secret = signerKey.slice(2).toLowerCase()
    for (const text of [...answers, ...logLines]) expect(text.toLowerCase()).not.toContain(secret)
    expect(answers.length).toBeGreaterThan(hostile.length)
    expect(logLines).toEqual([])
  })
})
