import { serve, type ServerType } from '@hono/node-server'
import { Hono } from 'hono'
import PostalMime from 'postal-mime'
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server'
import { escapeForLog } from '../api/config'
import { pageSecurityHeaders } from '../auth/renderPage'
import { renderInboxPage } from './inboxPage'
import type { CapturedMail } from './capturedMail'

export type { CapturedMail } from './capturedMail'

export type MailCaptureLimits = {
  /** Mails kept; past it the oldest go. */
  maxMessages: number
  /** Largest mail accepted, in bytes (announced as SIZE; a larger one is refused with 552). */
  maxMessageBytes: number
  /** Bytes of subject and text kept in all; past it the oldest mails go. */
  maxTotalBytes: number
  /** Recipients per mail. */
  maxRecipients: number
  /** SMTP connections at once. */
  maxClients: number
  /** An SMTP client silent this long is disconnected. */
  socketTimeoutMs: number
}

export const defaultMailCaptureLimits: MailCaptureLimits = {
  maxMessages: 500,
  maxMessageBytes: 256 * 1024,
  maxTotalBytes: 16 * 1024 * 1024,
  maxRecipients: 20,
  maxClients: 32,
  socketTimeoutMs: 30_000,
}

export type MailCaptureParameters = {
  host?: string
  /** SMTP port (0: any free one). */
  smtpPort: number
  /** HTTP inbox port (0: any free one). */
  httpPort: number
  limits?: Partial<MailCaptureLimits>
  log?: (line: string) => void
}

export type MailCapture = {
  /** `smtp://host:port`, for nodemailer or TESSERA_SMTP_URL. */
  smtpUrl: string
  /** The inbox: `GET /messages?to=`, `GET /messages/:id`, `DELETE /messages`, and an HTML page at `/`. */
  inboxUrl: string
  /** What is in the mailbox now, newest first. */
  messages: () => CapturedMail[]
  stop: () => Promise<void>
}

const mailId = () => crypto.randomUUID()
const isEmailLike = (value: string) => value.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(value)

/**
 * A local SMTP server that keeps what it receives (bounded by count and bytes) and shows it over HTTP, the way mailpit
 * does: the auth service's one-time codes land here in dev and tests, and the demo lists them on a page. Never for
 * production: anything that connects may deliver, and anything that can reach the inbox may read.
 * @example const mail = await startMailCapture({ smtpPort: 0, httpPort: 0 }); // TESSERA_SMTP_URL=mail.smtpUrl
 */
export async function startMailCapture({ host = '127.0.0.1', smtpPort, httpPort, limits: partialLimits, log = console.error }: MailCaptureParameters): Promise<MailCapture> {
  const limits = { ...defaultMailCaptureLimits, ...partialLimits }
  const mailbox: (CapturedMail & { bytes: number })[] = []
  let totalBytes = 0

  const keep = (mail: CapturedMail) => {
    const bytes = Buffer.byteLength(mail.subject) + Buffer.byteLength(mail.text)
    mailbox.push({ ...mail, bytes })
    totalBytes += bytes
    while (mailbox.length > limits.maxMessages || (totalBytes > limits.maxTotalBytes && mailbox.length > 1)) totalBytes -= mailbox.shift()!.bytes
  }

  const onData = (stream: SMTPServerDataStream, session: SMTPServerSession, callback: (error?: Error | null) => void) => {
    const chunks: Buffer[] = []
    let bytes = 0
    stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes <= limits.maxMessageBytes) chunks.push(chunk)
    })
    stream.on('end', () => {
      if (stream.sizeExceeded || bytes > limits.maxMessageBytes) {
        return callback(Object.assign(new Error(`Message is larger than ${limits.maxMessageBytes} bytes`), { responseCode: 552 }))
      }
      PostalMime.parse(Buffer.concat(chunks), { maxNestingDepth: 16, maxHeadersSize: 64 * 1024 }).then(
        (parsed) => {
          keep({
            id: mailId(),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: (parsed.subject ?? '').slice(0, 998),
            text: parsed.text ?? '',
            receivedAt: new Date().toISOString(),
          })
          callback()
        },
        (error: unknown) => {
          log(escapeForLog(`mail capture: a mail could not be parsed: ${(error as Error)?.message ?? String(error)}`))
          callback(Object.assign(new Error('Message could not be parsed'), { responseCode: 554 }))
        },
      )
    })
    stream.on('error', () => callback(Object.assign(new Error('Message stream failed'), { responseCode: 451 })))
  }

  const smtp = new SMTPServer({
    banner: 'Tessera local mail capture (development only)',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    disableReverseLookup: true,
    size: limits.maxMessageBytes,
    maxClients: limits.maxClients,
    socketTimeout: limits.socketTimeoutMs,
    closeTimeout: 1_000,
    logger: false,
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= limits.maxRecipients) return callback(Object.assign(new Error('Too many recipients'), { responseCode: 452 }))
      if (!isEmailLike(address.address)) return callback(Object.assign(new Error('Recipient address is not valid'), { responseCode: 553 }))
      callback()
    },
    onData,
  })
  smtp.on('error', (error: Error) => log(escapeForLog(`mail capture: SMTP: ${error.message}`)))
  const smtpBound = await new Promise<number>((resolve, reject) => {
    smtp.server.once('error', reject)
    smtp.listen(smtpPort, host, () => {
      smtp.server.off('error', reject)
      resolve((smtp.server.address() as { port: number }).port)
    })
  })

  const newestFirst = () => [...mailbox].reverse().map(({ bytes: _bytes, ...mail }) => mail)
  const app = new Hono()
  app.get('/health', (c) => c.json({ status: 'ok', service: 'tessera-mail-capture', messages: mailbox.length }))
  app.get('/messages', (c) => {
    const to = c.req.query('to')?.trim().toLowerCase()
    const limit = Math.min(Math.max(Number(c.req.query('limit') ?? 50) || 50, 1), 100)
    const messages = newestFirst()
      .filter((mail) => !to || mail.to.includes(to))
      .slice(0, limit)
    return c.json({ messages })
  })
  app.get('/messages/:id', (c) => {
    const mail = newestFirst().find((m) => m.id === c.req.param('id'))
    return mail ? c.json(mail) : c.json({ error: { code: 'NOT_FOUND', message: 'No mail with this id' } }, 404)
  })
  app.delete('/messages', (c) => {
    mailbox.splice(0)
    totalBytes = 0
    return c.body(null, 204)
  })
  app.get('/', (c) => {
    return c.html(renderInboxPage(newestFirst(), { smtpUrl: `smtp://${host}:${smtpBound}` }), 200, pageSecurityHeaders())
  })
  app.notFound((c) => c.json({ error: { code: 'NOT_FOUND', message: `No route for ${c.req.method} ${c.req.path}` } }, 404))
  app.onError((error, c) => {
    log(escapeForLog(`mail capture: ${c.req.method} ${c.req.path}: ${error.message}`))
    return c.json({ error: { code: 'INTERNAL_ERROR', message: 'The mail capture failed to answer this request' } }, 500)
  })

  const http = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port: httpPort, serverOptions: { headersTimeout: 10_000, requestTimeout: 30_000 } }, () => resolve(s))
    s.once('error', reject)
  }).catch(async (error: unknown) => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()))
    throw error
  })
  const httpBound = (http.address() as { port: number }).port

  return {
    smtpUrl: `smtp://${host}:${smtpBound}`,
    inboxUrl: `http://${host}:${httpBound}`,
    messages: newestFirst,
    async stop() {
      // smtp-server waits for its clients to leave before the callback; closeTimeout (1 s) ends the wait.
      await Promise.all([new Promise<void>((resolve) => smtp.close(() => resolve())), new Promise<void>((resolve) => http.close(() => resolve()))])
    },
  }
}
