import { Hono, type Context } from 'hono'
import { BaseError } from 'viem'
import { defaultRpcConfig, escapeForLog, originNotAllowed, type ApiConfig } from '../config'
import { requestBodyLimit } from '../requestBodyLimit'
import { createAnswerCache } from '../rpc/answerCache'
import { finalAnswerKey, isFinalAnswer, isGatewayMethod } from '../rpc/gatewayMethods'
import { createProjectRateLimit } from '../rpc/projectRateLimit'
import { createUpstreams, getNodeError, isTimeout, type RpcErrorObject, type UpstreamCall, type Upstreams } from '../rpc/upstreams'

/** The most calls one batch may hold (SPEC §7). */
export const RPC_MAX_BATCH = 1_000

/**
 * The hosted RPC endpoint's own error codes: JSON-RPC 2.0's, EIP-1474's where one fits, and -32090…-32092 for a
 * request it does not serve (implementation-defined server errors that viem maps to no class of its own, so a client
 * sees them unchanged). Calls the nodes answered with an error keep the node's code, message and data.
 */
export const rpcEndpointErrorCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  /** A method outside RPC_GATEWAY_METHODS. */
  methodNotAllowed: -32601,
  internalError: -32603,
  /** No node answered (down, out of time, or not answering JSON-RPC), or the rate limit's database did not: ask again or elsewhere. */
  unavailable: -32002,
  /** The body, the batch or the project's requests per minute are past their limit. */
  limitExceeded: -32005,
  unknownProject: -32090,
  originNotAllowed: -32091,
  chainNotServed: -32092,
} as const

const codes = rpcEndpointErrorCodes

type RpcId = string | number | null
type RpcResponse = { jsonrpc: '2.0'; id: RpcId } & ({ result: unknown } | { error: RpcErrorObject })
/** A call as read from the request, or the error that answers it instead. */
type ReadCall = { isValid: true; id: RpcId; call: UpstreamCall } | { isValid: false; response: RpcResponse }

const failed = (id: RpcId, code: number, message: string): RpcResponse => ({ jsonrpc: '2.0', id, error: { code, message } })
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const isRpcId = (id: unknown): id is RpcId => id === null || (typeof id === 'string' && id.length <= 256) || Number.isFinite(id)
/** Text from the request, shortened for an answer. */
const shown = (text: string) => (text.length > 64 ? `${text.slice(0, 64)}…` : text)
const describeError = (error: unknown) => (error instanceof BaseError ? `${error.shortMessage} ${error.details}` : String((error as Error)?.message ?? error))

/** One JSON-RPC call of a request, checked; an `id` left out is answered as null. */
function readCall(request: unknown): ReadCall {
  const refuse = (id: RpcId, message: string): ReadCall => ({ isValid: false, response: failed(id, codes.invalidRequest, message) })
  if (!isObject(request)) return refuse(null, 'A call must be a JSON-RPC 2.0 object: {"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}.')
  const { id = null, jsonrpc, method, params } = request
  if (!isRpcId(id)) return refuse(null, 'A call’s id must be a number, null or a string of at most 256 characters.')
  if (jsonrpc !== '2.0') return refuse(id, 'A call’s jsonrpc must be "2.0".')
  if (typeof method !== 'string') return refuse(id, 'A call’s method must be a string.')
  if (params !== undefined && !Array.isArray(params) && !isObject(params)) return refuse(id, 'A call’s params must be an array or an object.')
  return { isValid: true, id, call: params === undefined ? { method } : { method, params } }
}

/** The one call a GET carries in its query: method, params (JSON, default none) and id (a number when it is digits). */
function readQueryCall(c: Context): unknown {
  const { method, params, id } = c.req.query()
  if (method === undefined) return undefined
  return { jsonrpc: '2.0', method, id: id === undefined ? null : /^-?\d{1,15}$/.test(id) ? Number(id) : id, ...(params !== undefined && { params: JSON.parse(params) as unknown }) }
}

/**
 * The hosted RPC endpoint (SPEC §7): `GET`/`POST /v1/?chainId=eip155:{id}&projectId={project}` forwards JSON-RPC, one
 * call or a batch of at most RPC_MAX_BATCH, to the chain's upstream nodes through the worker's ranked fallback
 * (rpc/upstreams.ts). Mounted before the data service's own checks, it makes every refusal a JSON-RPC error:
 * 1. the project must be known and a browser's origin one it lists (403); CORS answers that origin only;
 * 2. the chain must be one served, by its CAIP-2 id (400);
 * 3. a project's requests per minute are counted in the database by every instance together (429 with Retry-After);
 * 4. bodies are bounded (413), malformed JSON and requests that are not JSON-RPC refused (400);
 * 5. methods outside RPC_GATEWAY_METHODS are answered -32601; answers that cannot change are kept (rpc/answerCache.ts);
 * 6. a call no node answered is -32002 naming the method, never a node's raw text; a node's JSON-RPC error is passed on.
 * A GET carries one call in its query: `&method=eth_blockNumber&params=[]&id=1`.
 * @example app.route('/', rpcRoutes(config)) // before the app's middleware
 */
export function rpcRoutes(config: ApiConfig): Hono {
  const { log = console.error, now = Date.now } = config
  const settings = { ...defaultRpcConfig, ...config.rpc }
  const chains = settings.chains ?? config.chains.map((chain) => ({ chainId: chain.chainId, upstreams: [chain.rpcUrl] }))
  for (const chain of chains) if (chain.upstreams.length === 0) throw new Error(`rpc.chains: eip155:${chain.chainId} names no upstream`)
  const upstreamUrls = new Map(chains.map((chain) => [chain.chainId, chain.upstreams]))
  const served = chains.map((chain) => `eip155:${chain.chainId}`).join(', ') || 'none'
  const projects = new Map(config.projects.map((project) => [project.id, new Set(project.allowedOrigins)]))
  const cache = createAnswerCache({ maxEntries: settings.cacheEntries, maxBytes: settings.cacheBytes })
  const countRequest = createProjectRateLimit({
    db: config.db,
    max: settings.requestsPerMinute,
    windowMs: 60_000,
    now,
    onPruneError: (error) => log(escapeForLog(`rpc: deleting expired rate windows failed: ${describeError(error)}`)),
  })
  // Made on a chain's first call: a chain no one asks for costs nothing.
  const upstreamsByChain = new Map<number, Upstreams>()
  const upstreamsOf = (chainId: number) => {
    let upstreams = upstreamsByChain.get(chainId)
    if (!upstreams) {
      upstreams = createUpstreams({ urls: upstreamUrls.get(chainId)!, attemptTimeoutMs: settings.attemptTimeoutMs, callTimeoutMs: settings.callTimeoutMs })
      upstreamsByChain.set(chainId, upstreams)
    }
    return upstreams
  }

  /** One valid call's answer; what the nodes failed with goes to `failures`, for one log line per request. */
  const answer = async (chainId: number, { id, call }: { id: RpcId; call: UpstreamCall }, failures: unknown[]): Promise<RpcResponse> => {
    if (!isGatewayMethod(call.method)) {
      return failed(id, codes.methodNotAllowed, `The method ${shown(call.method)} is not served here: this endpoint forwards a node's public reads and eth_sendRawTransaction only.`)
    }
    const key = finalAnswerKey(chainId, call.method, call.params)
    const kept = key === undefined ? undefined : cache.get(key)
    if (kept) return { jsonrpc: '2.0', id, result: kept.result }
    try {
      const result = await upstreamsOf(chainId).request(call)
      if (key !== undefined && isFinalAnswer(call.method, result)) cache.set(key, result)
      return { jsonrpc: '2.0', id, result }
    } catch (error) {
      const nodeError = getNodeError(error)
      if (nodeError) return { jsonrpc: '2.0', id, error: nodeError }
      failures.push(error)
      return failed(id, codes.unavailable, `No node of eip155:${chainId} answered ${call.method}${isTimeout(error) ? ' in time' : ''}; try again later.`)
    }
  }

  const handle = async (c: Context) => {
    c.header('vary', 'origin')
    const refuse = (status: 400 | 403 | 413 | 429 | 503, code: number, message: string, headers: Record<string, string> = {}) => c.json(failed(null, code, message), status, headers)

    const projectId = c.req.query('projectId')
    if (!projectId) return refuse(400, codes.invalidRequest, 'projectId is required: {api}/v1/?chainId=eip155:1&projectId={your project id}.')
    const origins = projects.get(projectId)
    if (!origins) return refuse(403, codes.unknownProject, `Unknown project id: ${shown(projectId)}`)
    const origin = c.req.header('origin')
    if (origin !== undefined) {
      if (!origins.has(origin)) return refuse(403, codes.originNotAllowed, originNotAllowed(origin, projectId).error.message)
      c.header('access-control-allow-origin', origin)
      // The worker's fallback honours a 429's Retry-After: a page may read it only when it is exposed.
      c.header('access-control-expose-headers', 'retry-after')
    }
    if (c.req.method === 'OPTIONS') return c.body(null, 204, { 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': 'content-type', 'access-control-max-age': '600' })

    const chainParam = c.req.query('chainId') ?? ''
    const chainId = /^eip155:[1-9]\d{0,15}$/.test(chainParam) ? Number(chainParam.slice('eip155:'.length)) : undefined
    if (chainId === undefined || !upstreamUrls.has(chainId)) {
      const hint = /^\d{1,16}$/.test(chainParam) ? ` (a CAIP-2 id: eip155:${chainParam})` : ''
      return refuse(400, codes.chainNotServed, `chainId ${chainParam ? shown(chainParam) : '(missing)'}${hint} is not served here; served: ${served}.`)
    }

    let exceeded: Awaited<ReturnType<typeof countRequest>>
    try {
      exceeded = await countRequest(projectId)
    } catch (error) {
      log(escapeForLog(`rpc: counting a request of ${projectId} failed: ${describeError(error)}`))
      return refuse(503, codes.unavailable, 'The endpoint could not count this request against its rate limit; try again shortly.')
    }
    if (exceeded) {
      const seconds = Math.max(1, Math.ceil(exceeded.retryAfterMs / 1_000))
      return refuse(429, codes.limitExceeded, `Project ${projectId} sent more than ${settings.requestsPerMinute} requests this minute; try again in ${seconds} s.`, { 'retry-after': String(seconds) })
    }

    let body: unknown
    try {
      body = c.req.method === 'GET' ? readQueryCall(c) : JSON.parse(await c.req.text())
    } catch {
      return refuse(400, codes.parseError, c.req.method === 'GET' ? 'The params of this GET are not valid JSON.' : 'The request body is not valid JSON.')
    }
    if (body === undefined) return refuse(400, codes.invalidRequest, 'A GET carries one call in its query: &method=eth_blockNumber&params=[]&id=1 (send batches with POST).')

    const failures: unknown[] = []
    const logFailures = () => {
      if (failures.length > 0) log(escapeForLog(`rpc eip155:${chainId}: no node answered ${failures.length} call(s): ${describeError(failures[0])}`))
    }
    if (!Array.isArray(body)) {
      const read = readCall(body)
      if (!read.isValid) return c.json(read.response, 400)
      const response = await answer(chainId, read, failures)
      logFailures()
      return c.json(response)
    }
    if (body.length === 0) return refuse(400, codes.invalidRequest, 'A batch must hold at least one call.')
    if (body.length > RPC_MAX_BATCH) return refuse(400, codes.limitExceeded, `A batch may hold at most ${RPC_MAX_BATCH} calls; this one holds ${body.length}.`)
    const responses = await Promise.all(
      body.map((request) => {
        const read = readCall(request)
        return read.isValid ? answer(chainId, read, failures) : read.response
      }),
    )
    logFailures()
    return c.json(responses)
  }

  const routes = new Hono()
  // Connection: close, because the rest of a refused body is never read: the socket cannot carry another request.
  const limitBody = requestBodyLimit({
    maxBytes: settings.bodyBytes,
    onTooLarge: (c) => c.json(failed(null, codes.limitExceeded, `The request body is larger than the limit of ${settings.bodyBytes} bytes.`), 413, { connection: 'close' }),
  })
  routes.on(['GET', 'POST', 'OPTIONS'], ['/v1', '/v1/'], limitBody, async (c) => {
    try {
      return await handle(c)
    } catch (error) {
      // A defect of ours: the client learns nothing of the cause; the operator gets it on one line.
      log(escapeForLog(`rpc: ${c.req.method} ${c.req.path}: ${describeError(error)}`))
      return c.json(failed(null, codes.internalError, 'The RPC endpoint failed to answer this request.'), 500)
    }
  })
  return routes
}
