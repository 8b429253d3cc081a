import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { SIGNATURE_HEADER, verifySandboxSignature, type SandboxOrderEvent } from '../protocol'

/** One report as a partner's webhook received it. */
export type ReceivedReport = { path: string; event: SandboxOrderEvent; isSigned: boolean }

export type WebhookReceiver = {
  /** http://127.0.0.1:port: a partner's webhookUrl is this plus its path. */
  url: string
  /** Reports answered 200, in the order they came. */
  received: ReceivedReport[]
  /** Tries per event id, refused ones included. */
  tries: Map<string, number>
  /** Answers the next `count` reports to `path` with 500. */
  failNext: (path: string, count: number) => void
  stop: () => Promise<void>
}

/**
 * Partners' webhooks for tests: a real HTTP server that checks each report's signature with the secret of its path
 * (at `now`, for a sandbox on a moved clock) and keeps what it received.
 * @example const receiver = await startWebhookReceiver({ secrets: { '/a': secretA } }); partner.webhookUrl = `${receiver.url}/a`
 */
export async function startWebhookReceiver({ secrets, now = Date.now }: { secrets: Record<string, string>; now?: () => number }): Promise<WebhookReceiver> {
  const received: ReceivedReport[] = []
  const tries = new Map<string, number>()
  const failing = new Map<string, number>()
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const path = request.url ?? ''
      const body = Buffer.concat(chunks).toString()
      const event = JSON.parse(body) as SandboxOrderEvent
      tries.set(event.eventId, (tries.get(event.eventId) ?? 0) + 1)
      const toFail = failing.get(path) ?? 0
      if (toFail > 0) {
        failing.set(path, toFail - 1)
        response.writeHead(500).end()
        return
      }
      const secret = secrets[path]
      received.push({ path, event, isSigned: secret !== undefined && verifySandboxSignature({ secret, header: request.headers[SIGNATURE_HEADER] as string | undefined, body, now: now() }) })
      response.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    tries,
    failNext: (path, count) => void failing.set(path, count),
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
