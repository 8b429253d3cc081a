/** JSON-RPC 2.0 error codes this server answers with (the Solana ones are agave's). */
export const rpcErrorCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  serverError: -32000,
  sendTransactionPreflightFailure: -32002,
  transactionSignatureVerificationFailure: -32003,
  unsupportedTransactionVersion: -32015,
} as const

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
    this.name = 'RpcError'
  }
}

/** -32602 with a message naming the parameter, e.g. `Invalid params: params[0] (address) must be …`. */
export function invalidParams(detail: string): RpcError {
  return new RpcError(rpcErrorCodes.invalidParams, `Invalid params: ${detail}`)
}

/**
 * JSON.stringify that writes bigints as plain numbers, as Solana's RPC does for u64 values
 * (lamports, rentEpoch = 2^64 - 1); @solana/kit parses them back losslessly.
 * Only ever given values this server built, so recursion depth is bounded by our own shapes.
 */
export function stringifyJson(value: unknown): string {
  if (typeof value === 'bigint') return value.toString()
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : stringifyJson(item))).join(',')}]`
  const members: string[] = []
  for (const [key, item] of Object.entries(value)) {
    if (item !== undefined) members.push(`${JSON.stringify(key)}:${stringifyJson(item)}`)
  }
  return `{${members.join(',')}}`
}

export type RpcId = string | number | null
export type RpcResponse = { jsonrpc: '2.0'; id: RpcId; result?: unknown; error?: { code: number; message: string; data?: unknown } }
export type RpcMethod = (params: unknown[]) => unknown

export function errorResponse(id: RpcId, error: unknown): RpcResponse {
  if (error instanceof RpcError) {
    return { jsonrpc: '2.0', id, error: { code: error.code, message: error.message, data: error.data } }
  }
  const message = error instanceof Error ? error.message : String(error)
  return { jsonrpc: '2.0', id, error: { code: rpcErrorCodes.internalError, message: `Internal error: ${message}` } }
}

function isRpcId(value: unknown): value is RpcId {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))
}

/**
 * Answers one JSON-RPC request object; undefined for notifications (no `id`), which get no answer.
 * Methods are synchronous: LiteSVM runs in this thread, so each call is atomic.
 */
export function answerRequest(request: unknown, methods: ReadonlyMap<string, RpcMethod>): RpcResponse | undefined {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    return errorResponse(null, new RpcError(rpcErrorCodes.invalidRequest, 'Invalid request: expected a JSON-RPC 2.0 request object'))
  }
  const { jsonrpc, id, method, params } = request as Record<string, unknown>
  const isNotification = !('id' in request)
  const responseId = isRpcId(id) ? id : null
  if (jsonrpc !== '2.0' || typeof method !== 'string' || (!isNotification && !isRpcId(id))) {
    return errorResponse(responseId, new RpcError(rpcErrorCodes.invalidRequest, 'Invalid request: needs jsonrpc "2.0", a string method and a string, number or null id'))
  }
  const handler = methods.get(method)
  let response: RpcResponse
  if (!handler) {
    response = errorResponse(responseId, new RpcError(rpcErrorCodes.methodNotFound, `Method not found: ${method.slice(0, 64)}`))
  } else if (params !== undefined && params !== null && !Array.isArray(params)) {
    response = errorResponse(responseId, invalidParams('params must be an array'))
  } else {
    try {
      response = { jsonrpc: '2.0', id: responseId, result: handler(params ?? []) }
    } catch (error) {
      response = errorResponse(responseId, error)
    }
  }
  return isNotification ? undefined : response
}

export type JsonRpcBodyParameters = { body: string; methods: ReadonlyMap<string, RpcMethod>; maxBatchLength: number }

/**
 * Answers a request body: one request or a batch. Returns the JSON text, or undefined when the body
 * held only notifications.
 */
export function answerJsonRpcBody({ body, methods, maxBatchLength }: JsonRpcBodyParameters): string | undefined {
  let payload: unknown
  try {
    payload = JSON.parse(body)
  } catch {
    return stringifyJson(errorResponse(null, new RpcError(rpcErrorCodes.parseError, 'Parse error: the body is not valid JSON')))
  }
  if (!Array.isArray(payload)) {
    const response = answerRequest(payload, methods)
    return response && stringifyJson(response)
  }
  if (payload.length === 0 || payload.length > maxBatchLength) {
    const reason = payload.length === 0 ? 'the batch is empty' : `a batch holds at most ${maxBatchLength} requests, got ${payload.length}`
    return stringifyJson(errorResponse(null, new RpcError(rpcErrorCodes.invalidRequest, `Invalid request: ${reason}`)))
  }
  const responses: RpcResponse[] = []
  for (const request of payload) {
    const response = answerRequest(request, methods)
    if (response) responses.push(response)
  }
  return responses.length === 0 ? undefined : stringifyJson(responses)
}
