import { Hono, type Context } from 'hono'
import { escapeForLog } from '../api/config'
import { requestBodyLimit } from '../api/requestBodyLimit'
import { parsePaymasterConfig, type PaymasterConfigInput, type PaymasterLimits } from './config'
import { createDailyGasUsage, type DailyGasUsage } from './dailyGasUsage'
import { paymasterErrorCodes, type PaymasterRpcError } from '../../src/shared/protocol/paymasterErrors'
import { parseSponsorshipParams } from './parseParams'
import { createDepositReader, createSponsor, type ReadDeposit } from './sponsor'

/** What the service needs besides its JSON configuration: clocks, the log, the chain reads and the usage map, for tests to control. */
export type PaymasterRuntimeOptions = {
  /** Milliseconds since the epoch; Date.now by default. */
  now?: () => number
  /** Where the service writes its lines (default console.error); every line goes through escapeForLog and holds no secret. */
  log?: (line: string) => void
  /** The paymaster's EntryPoint deposit; by default read from the chain's rpcUrl. */
  readDeposit?: ReadDeposit
  /** Sponsored gas per account and day; by default one bounded by limits.trackedAccounts. */
  usage?: DailyGasUsage
  /** Whether the service is stopping: `GET /ready` then answers 503, so a load balancer sends it nothing new. */
  isDraining?: () => boolean
}

export type CreatePaymasterAppParameters = PaymasterConfigInput & PaymasterRuntimeOptions

/** The methods answered, ERC-7677's two. */
const methods = { pm_getPaymasterStubData: false, pm_getPaymasterData: true } as const satisfies Record<string, boolean>

type RpcId = string | number | null
type RpcResponse = { jsonrpc: '2.0'; id: RpcId } & ({ result: unknown } | { error: PaymasterRpcError })

const rpcError = (id: RpcId, code: number, message: string): RpcResponse => ({ jsonrpc: '2.0', id, error: { code, message } })
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
/** Text from the request, shortened for an answer. */
const shown = (text: string) => (text.length > 64 ? `${text.slice(0, 64)}…` : text)

/** The log's line when the day's count of accounts is full. */
export const fullLine = (day: string, maxAccounts: number) => `paymaster: ${maxAccounts} accounts are counted for ${day}, the limit (limits.trackedAccounts): new accounts are refused until 00:00 UTC`

/**
 * The map of sponsored gas per account and day that createPaymasterApp makes when given none, bounded by
 * limits.trackedAccounts and saying so in the log the first time it fills each day.
 * @example const usage = createPaymasterUsage({ limits: config.limits, now: Date.now, log: console.error })
 */
export function createPaymasterUsage({ limits, now, log }: { limits: Pick<PaymasterLimits, 'trackedAccounts'>; now: () => number; log: (line: string) => void }): DailyGasUsage {
  return createDailyGasUsage({
    maxAccounts: limits.trackedAccounts,
    now,
    onFull: ({ day, maxAccounts }) => log(fullLine(day, maxAccounts)),
  })
}

/**
 * The paymaster service's HTTP app: ERC-7677 JSON-RPC (pm_getPaymasterStubData, pm_getPaymasterData) on POST / and
 * POST /v1, as viem's createPaymasterClient sends it, with `context: { projectId }`. Browsers may call it from any
 * origin a project lists (CORS); a request from a page is then answered for that page's project only. Bodies are
 * bounded (413), batches too, every param is checked and named when wrong (-32602), and nothing a client sends makes it
 * answer 500. Throws PaymasterConfigError for a configuration it cannot run with.
 * @example serve({ fetch: createPaymasterApp({ signerKey, chains, projects }).fetch, port: 8793 })
 */
export function createPaymasterApp({ now = Date.now, log: writeLine = console.error, readDeposit, usage, isDraining = () => false, ...input }: CreatePaymasterAppParameters): Hono {
  const config = parsePaymasterConfig(input)
  const log = (line: string) => writeLine(escapeForLog(line))
  const gasUsage = usage ?? createPaymasterUsage({ limits: config.limits, now, log })
  const { sponsor } = createSponsor({ config, now, log, readDeposit: readDeposit ?? createDepositReader(), usage: gasUsage })
  const origins = new Set([...config.projects.values()].flatMap((project) => [...project.allowedOrigins]))
  const app = new Hono()

  // CORS: the project is named in the body, which a preflight does not carry, so a preflight is answered for every
  // origin any project lists; the request itself is then refused unless its own project lists the origin.
  app.use('*', async (c, next) => {
    const origin = c.req.header('origin')
    const isKnownOrigin = origin !== undefined && origins.has(origin)
    if (c.req.method === 'OPTIONS') {
      if (!isKnownOrigin) return c.body(null, 403, { vary: 'origin' })
      return c.body(null, 204, {
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'content-type',
        'access-control-max-age': '600',
        vary: 'origin',
      })
    }
    c.header('vary', 'origin')
    if (isKnownOrigin) c.header('access-control-allow-origin', origin)
    await next()
  })

  // Connection: close, because the rest of a refused body is never read.
  app.use(
    '*',
    requestBodyLimit({
      maxBytes: config.limits.bodyBytes,
      onTooLarge: (c) => c.json(rpcError(null, paymasterErrorCodes.invalidRequest, `The request body is larger than the limit of ${config.limits.bodyBytes} bytes.`), 413, { connection: 'close' }),
    }),
  )

  /** One request of a call or a batch: never throws for anything a client sent. */
  const answer = async (request: unknown, origin: string | undefined): Promise<RpcResponse> => {
    if (!isObject(request)) return rpcError(null, paymasterErrorCodes.invalidRequest, 'Each request must be a JSON-RPC 2.0 object.')
    const { id = null, jsonrpc, method, params } = request
    const isValidId = id === null || (typeof id === 'string' && id.length <= 256) || (typeof id === 'number' && Number.isFinite(id))
    if (!isValidId) return rpcError(null, paymasterErrorCodes.invalidRequest, 'id must be a string of at most 256 characters, a number or null.')
    if (jsonrpc !== '2.0') return rpcError(id, paymasterErrorCodes.invalidRequest, 'jsonrpc must be "2.0".')
    if (typeof method !== 'string') return rpcError(id, paymasterErrorCodes.invalidRequest, 'method must be a string.')
    if (!Object.hasOwn(methods, method)) {
      return rpcError(id, paymasterErrorCodes.methodNotFound, `The method "${shown(method)}" is not answered here: this service answers pm_getPaymasterStubData and pm_getPaymasterData.`)
    }
    const parsed = parseSponsorshipParams(params)
    if (!parsed.ok) return rpcError(id, paymasterErrorCodes.invalidParams, parsed.message)
    const outcome = await sponsor({ ...parsed.value, isFinal: methods[method as keyof typeof methods], ...(origin !== undefined ? { origin } : {}) })
    return 'error' in outcome ? { jsonrpc: '2.0', id, error: outcome.error } : { jsonrpc: '2.0', id, result: outcome.result }
  }

  const handle = async (c: Context) => {
    let body: unknown
    try {
      body = JSON.parse(await c.req.text())
    } catch {
      return c.json(rpcError(null, paymasterErrorCodes.parseError, 'The request body is not valid JSON.'))
    }
    const origin = c.req.header('origin')
    if (!Array.isArray(body)) return c.json(await answer(body, origin))
    if (body.length === 0) return c.json(rpcError(null, paymasterErrorCodes.invalidRequest, 'A batch must hold at least one request.'))
    if (body.length > config.limits.batchRequests) {
      return c.json(rpcError(null, paymasterErrorCodes.invalidRequest, `A batch may hold at most ${config.limits.batchRequests} requests.`))
    }
    // One at a time: a batch costs what its requests would cost sent one after another.
    const answers: RpcResponse[] = []
    for (const request of body) answers.push(await answer(request, origin))
    return c.json(answers)
  }

  app.post('/', handle)
  app.post('/v1', handle)
  app.get('/health', (c) => c.json({ status: 'ok', service: 'tessera-paymaster' }))
  // Ready: not draining, and its count of sponsored gas answers (Redis, when the instances share one).
  app.get('/ready', async (c) => {
    if (isDraining()) return c.json({ status: 'unavailable', reason: 'The paymaster is stopping.' }, 503)
    try {
      await gasUsage.stats()
      return c.json({ status: 'ready' })
    } catch {
      return c.json({ status: 'unavailable', reason: 'The count of sponsored gas (Redis) does not answer.' }, 503)
    }
  })
  app.notFound((c) => c.json(rpcError(null, paymasterErrorCodes.invalidRequest, `No route for ${c.req.method} ${shown(c.req.path)}: send JSON-RPC with POST to / or /v1.`), 404))
  // The last resort: the client learns nothing of the cause; the operator gets it on one line.
  app.onError((error, c) => {
    log(`paymaster: ${c.req.method} ${shown(c.req.path)}: ${error.name}: ${error.message}`)
    return c.json(rpcError(null, paymasterErrorCodes.internalError, 'The paymaster service failed to answer this request.'), 500)
  })
  return app
}
