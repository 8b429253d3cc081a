import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer } from 'ws'
import { createLiteSvmChain, type LiteSvmChain } from './createLiteSvmChain'
import { createSolanaPubSub } from './createSolanaPubSub'
import { createSolanaRpcMethods } from './createSolanaRpcMethods'
import { answerJsonRpcBody, errorResponse, RpcError, rpcErrorCodes, stringifyJson } from './jsonRpc'

export type SolanaChainParameters = {
  host?: string
  port: number
  /** PubSub on its own port (Solana's habit: RPC 8899, PubSub 8900); omit to serve it on `port`. */
  wsPort?: number
  /** Also advance one slot per interval; omit to advance only per transaction. */
  slotIntervalMs?: number
  maxBodyBytes?: number
  maxBatchLength?: number
  maxWsMessageBytes?: number
}

export type SolanaChain = {
  rpcUrl: string
  wsUrl: string
  /** The LiteSVM chain behind the servers, for tests that need to look inside. */
  chain: LiteSvmChain
  stop: () => Promise<void>
}

const corsHeaders = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': '*',
  'access-control-max-age': '86400',
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen({ port, host, exclusive: true }, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })
}

/**
 * Starts a local Solana chain: LiteSVM behind Solana's JSON-RPC over HTTP and its PubSub over
 * WebSocket, in this process. Ready when the promise resolves.
 * @example const solana = await startSolanaChain({ port: 8899, wsPort: 8900 })
 */
export async function startSolanaChain({
  host = '127.0.0.1',
  port,
  wsPort,
  slotIntervalMs,
  maxBodyBytes = 1024 * 1024,
  maxBatchLength = 100,
  maxWsMessageBytes = 64 * 1024,
}: SolanaChainParameters): Promise<SolanaChain> {
  const chain = createLiteSvmChain({ slotIntervalMs })
  const methods = createSolanaRpcMethods(chain)
  const pubsub = createSolanaPubSub({ chain })

  function reply(response: ServerResponse, status: number, body: string, contentType = 'application/json') {
    response.writeHead(status, { ...corsHeaders, 'content-type': contentType, 'content-length': Buffer.byteLength(body) })
    response.end(body)
  }

  function handleRequest(request: IncomingMessage, response: ServerResponse) {
    if (request.method === 'OPTIONS') {
      response.writeHead(204, corsHeaders)
      response.end()
      return
    }
    if (request.method === 'GET' && request.url === '/health') return reply(response, 200, 'ok', 'text/plain')
    if (request.method !== 'POST') {
      response.setHeader('allow', 'POST, GET, OPTIONS')
      return reply(response, 405, stringifyJson(errorResponse(null, new RpcError(rpcErrorCodes.invalidRequest, 'Use POST for JSON-RPC'))))
    }
    // Oversized bodies are drained, never buffered, then refused with 413.
    const chunks: Buffer[] = []
    let received = 0
    request.on('data', (chunk: Buffer) => {
      received += chunk.length
      if (received <= maxBodyBytes) chunks.push(chunk)
    })
    request.on('end', () => {
      if (received > maxBodyBytes) {
        const error = new RpcError(rpcErrorCodes.invalidRequest, `Request body is ${received} bytes; the limit is ${maxBodyBytes}`)
        return reply(response, 413, stringifyJson(errorResponse(null, error)))
      }
      const answer = answerJsonRpcBody({ body: Buffer.concat(chunks).toString('utf8'), methods, maxBatchLength })
      if (answer === undefined) {
        response.writeHead(204, corsHeaders)
        response.end()
        return
      }
      reply(response, 200, answer)
    })
    request.on('error', () => request.destroy())
  }

  const server = createServer(handleRequest)
  server.requestTimeout = 30_000
  server.maxConnections = 1_024
  const wsServer = wsPort === undefined ? server : createServer((_request, response) => reply(response, 426, 'Upgrade to WebSocket', 'text/plain'))
  wsServer.maxConnections = 1_024
  const wss = new WebSocketServer({ noServer: true, maxPayload: maxWsMessageBytes })
  wss.on('connection', pubsub.handleConnection)
  wsServer.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request))
  })

  const stop = async () => {
    pubsub.stop()
    wss.close()
    await Promise.all([close(server), wsServer === server ? undefined : close(wsServer)])
    chain.stop()
  }

  try {
    await listen(server, port, host)
    if (wsServer !== server) await listen(wsServer, wsPort as number, host)
  } catch (error) {
    await stop()
    throw error
  }
  return { rpcUrl: `http://${host}:${port}`, wsUrl: `ws://${host}:${wsPort ?? port}`, chain, stop }
}
