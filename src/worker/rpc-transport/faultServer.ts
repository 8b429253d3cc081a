import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'

export type JsonRpcRequest = { jsonrpc: '2.0'; id: number; method: string; params?: unknown[] }

export type FaultHandler = (
  body: JsonRpcRequest | JsonRpcRequest[],
  res: ServerResponse,
  req: IncomingMessage,
) => void | Promise<void>

/** Answers each JSON-RPC request (or batch) with `result(request)`. */
export const answer =
  (result: (request: JsonRpcRequest) => unknown): FaultHandler =>
  (body, res) => {
    const reply = (r: JsonRpcRequest) => ({ jsonrpc: '2.0', id: r.id, result: result(r) })
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify(Array.isArray(body) ? body.map(reply) : reply(body)))
  }

/** Answers each request with a JSON-RPC error. */
export const rpcError =
  (code: number, message: string): FaultHandler =>
  (body, res) => {
    const reply = (r: JsonRpcRequest) => ({ jsonrpc: '2.0', id: r.id, error: { code, message } })
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify(Array.isArray(body) ? body.map(reply) : reply(body)))
  }

/** Answers with an HTTP status and optional headers. */
export const httpStatus =
  (status: number, headers: Record<string, string> = {}): FaultHandler =>
  (_body, res) => {
    res.writeHead(status, { 'content-type': 'text/plain', ...headers })
    res.end(`status ${status}`)
  }

/** Never answers: a node that accepted the connection and hangs. */
export const hang = (): FaultHandler => () => new Promise<void>(() => {})

/** Answers 200 with a body that is not JSON. */
export const garbage =
  (body = '<html>502 Bad Gateway</html>'): FaultHandler =>
  (_body, res) => {
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end(body)
  }

/** Answers every request, but with the ids that `ids` makes of the ids sent (drop, add, repeat or change some). */
export const wrongIds =
  (ids: (sent: number[]) => number[], result: unknown = '0x1'): FaultHandler =>
  (body, res) => {
    const sent = (Array.isArray(body) ? body : [body]).map((r) => r.id)
    const replies = ids(sent).map((id) => ({ jsonrpc: '2.0', id, result }))
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify(Array.isArray(body) ? replies : (replies[0] ?? {})))
  }

/** `handler`, after `ms` of silence. */
export const delayed =
  (ms: number, handler: FaultHandler): FaultHandler =>
  async (body, res, req) => {
    await new Promise((resolve) => setTimeout(resolve, ms))
    if (!res.destroyed) await handler(body, res, req)
  }

/**
 * A real HTTP server on loopback whose answers a test scripts one request at a time:
 * handlers are used in order, the last one repeats.
 */
export async function startFaultServer(...handlers: FaultHandler[]) {
  const requests: (JsonRpcRequest | JsonRpcRequest[])[] = []
  let script = handlers
  let abandoned = 0
  const server = createServer(async (req, res) => {
    res.on('close', () => void (res.writableFinished || abandoned++))
    let raw = ''
    for await (const chunk of req) raw += chunk
    const body = JSON.parse(raw) as JsonRpcRequest | JsonRpcRequest[]
    requests.push(body)
    const handler = script[Math.min(requests.length - 1, script.length - 1)]
    if (!handler) throw new Error('fault server: no handler')
    await handler(body, res, req)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    /** Every HTTP request body received, in order (an array for a batch). */
    requests,
    /** The JSON-RPC requests received, batches unpacked. */
    calls: () => requests.flat(),
    /** How many requests the client gave up on: the connection closed before the answer was sent. */
    get abandoned() {
      return abandoned
    },
    setHandlers(...next: FaultHandler[]) {
      script = next
      requests.length = 0
      abandoned = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export type FaultServer = Awaited<ReturnType<typeof startFaultServer>>
