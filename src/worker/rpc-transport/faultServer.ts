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

/**
 * A real HTTP server on loopback whose answers a test scripts one request at a time:
 * handlers are used in order, the last one repeats.
 */
export async function startFaultServer(...handlers: FaultHandler[]) {
  const requests: (JsonRpcRequest | JsonRpcRequest[])[] = []
  let script = handlers
  const server = createServer(async (req, res) => {
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
    setHandlers(...next: FaultHandler[]) {
      script = next
      requests.length = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export type FaultServer = Awaited<ReturnType<typeof startFaultServer>>
