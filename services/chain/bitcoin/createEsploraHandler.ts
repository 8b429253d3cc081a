import type { IncomingMessage, ServerResponse } from 'node:http'
import { TransactionRejectedError, type BcoinNode } from './createBcoinNode'
import { newestFirst, summarizeScript, toEsploraTransaction } from './esploraFormat'
import { EsploraError, parseRegtestAddress, parseTransactionHex, parseTxid } from './esploraInput'

export type EsploraHandlerParameters = {
  node: BcoinNode
  /** The largest POST /tx body; a standard transaction (400,000 weight units) is at most 800,000 hex characters. */
  maxBodyBytes?: number
  /** Where unexpected failures are written (the caller gets a bare 500, no stack); console.error by default. */
  log?: (line: string) => void
}

/**
 * A fixed fee table in Esplora's shape (confirmation target in blocks → sat/vB): regtest has no fee market. Every
 * rate is at least Bitcoin Core's 1 sat/vB minimum relay fee, so a transaction priced from it would relay anywhere.
 */
export const regtestFeeEstimates: Readonly<Record<string, number>> = Object.fromEntries(
  [...Array.from({ length: 25 }, (_, i) => i + 1), 144, 504, 1008].map((target) => [
    String(target),
    target === 1 ? 5 : target === 2 ? 4 : target <= 3 ? 3 : target <= 6 ? 2 : target <= 25 ? 1.5 : 1,
  ]),
)

const corsHeaders = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': '*',
  'access-control-max-age': '86400',
}

// Esplora's page sizes for GET /address/:address/txs.
const MEMPOOL_TXS_PER_PAGE = 50
const CHAIN_TXS_PER_PAGE = 25

type Reply = { status: number; body: string; contentType: 'application/json' | 'text/plain' }
const json = (value: unknown, status = 200): Reply => ({ status, body: JSON.stringify(value), contentType: 'application/json' })
const text = (value: string | number, status = 200): Reply => ({ status, body: String(value), contentType: 'text/plain' })
const errorReply = (error: EsploraError): Reply =>
  json({ error: { code: error.code, message: error.message, ...(error.reason ? { reason: error.reason } : {}) } }, error.status)

/** Reads a body up to maxBodyBytes; a larger one is drained, never buffered, and refused with 413. */
function readBody(request: IncomingMessage, maxBodyBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let received = 0
    request.on('data', (chunk: Buffer) => {
      received += chunk.length
      if (received <= maxBodyBytes) chunks.push(chunk)
    })
    request.on('end', () => {
      if (received > maxBodyBytes) {
        reject(new EsploraError(413, 'BODY_TOO_LARGE', `The request body is ${received} bytes; the limit is ${maxBodyBytes}`))
        return
      }
      resolve(Buffer.concat(chunks).toString('utf8'))
    })
    request.on('error', reject)
  })
}

/**
 * The HTTP handler of an Esplora-style REST API over a bcoin node: the subset a wallet widget needs
 * (tip, address stats/UTXOs/history, transactions, broadcast, fee estimates), with JSON errors and CORS.
 * @example createServer(createEsploraHandler({ node }))
 */
export function createEsploraHandler({ node, maxBodyBytes = 1_000_000, log = console.error }: EsploraHandlerParameters) {
  const lookup = (txid: string) => node.getTransaction(txid)

  async function addressTransactions(script: Uint8Array) {
    const summary = await summarizeScript(script, await node.getTransactionsByScript(script), lookup)
    return { ...summary, transactions: summary.transactions.sort(newestFirst) }
  }

  /** A page of an address's transactions, Esplora's way: mempool ones (up to 50), then confirmed ones (25) after `afterTxid`. */
  async function txPage(script: Uint8Array, { mempool, chain, afterTxid }: { mempool: boolean; chain: boolean; afterTxid?: string }) {
    const { transactions, cache } = await addressTransactions(script)
    const unconfirmed = mempool ? transactions.filter((stored) => !stored.status.confirmed).slice(0, MEMPOOL_TXS_PER_PAGE) : []
    let confirmed = chain ? transactions.filter((stored) => stored.status.confirmed) : []
    if (afterTxid !== undefined) {
      const seen = confirmed.findIndex((stored) => stored.txid === afterTxid)
      if (seen < 0) throw new EsploraError(404, 'NOT_FOUND', `Transaction ${afterTxid} is not among this address's confirmed transactions`)
      confirmed = confirmed.slice(seen + 1)
    }
    const page = [...unconfirmed, ...confirmed.slice(0, CHAIN_TXS_PER_PAGE)]
    return json(await Promise.all(page.map((stored) => toEsploraTransaction(stored, lookup, cache))))
  }

  async function findTransaction(txid: string) {
    const stored = await node.getTransaction(parseTxid(txid))
    if (!stored) throw new EsploraError(404, 'NOT_FOUND', 'Transaction not found')
    return stored
  }

  const getRoutes: [RegExp, (match: (string | undefined)[]) => Promise<Reply> | Reply][] = [
    [/^\/blocks\/tip\/height$/, () => text(node.getTip().height)],
    [/^\/blocks\/tip\/hash$/, () => text(node.getTip().hash)],
    [
      /^\/block-height\/([^/]+)$/,
      async ([, height = '']) => {
        const hash = /^\d{1,9}$/.test(height) ? await node.getBlockHash(Number(height)) : undefined
        if (!hash) throw new EsploraError(404, 'NOT_FOUND', 'Block not found')
        return text(hash)
      },
    ],
    [/^\/fee-estimates$/, () => json(regtestFeeEstimates)],
    [
      /^\/address\/([^/]+)$/,
      async ([, address = '']) => {
        const { chain_stats, mempool_stats } = await addressTransactions(parseRegtestAddress(address))
        return json({ address, chain_stats, mempool_stats })
      },
    ],
    [
      /^\/address\/([^/]+)\/utxo$/,
      async ([, address = '']) => {
        const utxos = await node.getUtxosByScript(parseRegtestAddress(address))
        // Esplora lists unconfirmed outputs first, then by height, newest first.
        const height = (status: (typeof utxos)[number]['status']) => (status.confirmed ? status.block_height : Number.MAX_SAFE_INTEGER)
        return json(utxos.sort((a, b) => height(b.status) - height(a.status)))
      },
    ],
    [/^\/address\/([^/]+)\/txs$/, ([, address = '']) => txPage(parseRegtestAddress(address), { mempool: true, chain: true })],
    [/^\/address\/([^/]+)\/txs\/mempool$/, ([, address = '']) => txPage(parseRegtestAddress(address), { mempool: true, chain: false })],
    [
      /^\/address\/([^/]+)\/txs\/chain(?:\/([^/]+))?$/,
      ([, address = '', afterTxid]) =>
        txPage(parseRegtestAddress(address), { mempool: false, chain: true, ...(afterTxid === undefined ? {} : { afterTxid: parseTxid(afterTxid) }) }),
    ],
    [/^\/tx\/([^/]+)$/, async ([, txid = '']) => json(await toEsploraTransaction(await findTransaction(txid), lookup))],
    [/^\/tx\/([^/]+)\/status$/, async ([, txid = '']) => json((await findTransaction(txid)).status)],
    [/^\/tx\/([^/]+)\/hex$/, async ([, txid = '']) => text(Buffer.from((await findTransaction(txid)).raw).toString('hex'))],
  ]

  async function route(request: IncomingMessage): Promise<Reply> {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname
    if (request.method === 'POST' && path === '/tx') {
      const raw = parseTransactionHex(await readBody(request, maxBodyBytes))
      try {
        return text(await node.submitTransaction(raw))
      } catch (error) {
        if (error instanceof TransactionRejectedError) {
          throw new EsploraError(400, 'TRANSACTION_REJECTED', error.message, error.reason)
        }
        throw error
      }
    }
    for (const [pattern, answer] of getRoutes) {
      const match = pattern.exec(path)
      if (!match) continue
      if (request.method !== 'GET') throw new EsploraError(405, 'METHOD_NOT_ALLOWED', `Use GET for ${path}`)
      return answer(match)
    }
    if (path === '/tx') throw new EsploraError(405, 'METHOD_NOT_ALLOWED', 'Use POST for /tx, with the raw transaction in hex as the body')
    throw new EsploraError(404, 'NOT_FOUND', `No route for ${request.method ?? 'GET'} ${path}`)
  }

  return function handleRequest(request: IncomingMessage, response: ServerResponse) {
    if (request.method === 'OPTIONS') {
      response.writeHead(204, corsHeaders)
      response.end()
      return
    }
    route(request)
      .catch((error: unknown): Reply => {
        if (error instanceof EsploraError) return errorReply(error)
        log(`bitcoin esplora: ${request.method} ${request.url}: ${(error as Error)?.message ?? String(error)}`)
        return errorReply(new EsploraError(500, 'INTERNAL_ERROR', 'The local Bitcoin node failed to answer this request'))
      })
      .then(({ status, body, contentType }) => {
        const headers: Record<string, string | number> = { ...corsHeaders, 'content-type': contentType, 'content-length': Buffer.byteLength(body) }
        if (status === 405) headers.allow = 'GET, POST, OPTIONS'
        if (status === 413) headers.connection = 'close'
        response.writeHead(status, headers)
        response.end(body)
      })
      .catch(() => response.destroy()) // the caller went away mid-answer
  }
}
