import type { IncomingMessage, ServerResponse } from 'node:http'

/** Largest body the local identity providers' own pages and relay read. */
export const MAX_BODY_BYTES = 16 * 1024

type Read<T> = { ok: true; value: T } | { ok: false; error: string }

/** Reads a body of at most `maxBytes`; a larger one is refused without being buffered. */
function readBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<Read<string>> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let bytes = 0
    let isDone = false
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes > maxBytes) {
        if (!isDone) resolve({ ok: false, error: `The body is larger than ${maxBytes} bytes` })
        isDone = true
        req.resume()
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => {
      if (!isDone) resolve({ ok: true, value: Buffer.concat(chunks).toString('utf8') })
      isDone = true
    })
    req.on('error', () => {
      if (!isDone) resolve({ ok: false, error: 'The body could not be read' })
      isDone = true
    })
  })
}

export async function readJson(req: IncomingMessage): Promise<Read<unknown>> {
  const body = await readBody(req)
  if (!body.ok) return body
  try {
    const value: unknown = JSON.parse(body.value)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ok: true, value } : { ok: false, error: 'The body must be a JSON object' }
  } catch {
    return { ok: false, error: 'The body is not valid JSON' }
  }
}

export async function readForm(req: IncomingMessage): Promise<Read<URLSearchParams>> {
  const body = await readBody(req)
  return body.ok ? { ok: true, value: new URLSearchParams(body.value) } : body
}

export function sendJson(res: ServerResponse, status: number, value: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
  res.end(JSON.stringify(value))
}

export function sendHtml(res: ServerResponse, status: number, html: string, headers: Record<string, string>) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers })
  res.end(html)
}
