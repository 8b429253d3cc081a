import { createServer } from 'node:net'
import { openDatabase, type Database } from '../../api/db/createDatabase'
import { devFarcasterAccounts } from '../../oidc/devAccounts'
import { startLocalIdentityProviders, type LocalIdentityProviders } from '../../oidc/startLocalIdentityProviders'
import { startMailCapture, type MailCapture } from '../../mail/startMailCapture'
import { socialCallbackUrl, socialProviderNames, type AuthConfig, type AuthLimits, type SocialProviderConfig, type SocialProviderName } from '../config'
import { createSmtpMailer, type Mailer } from '../mailer'
import { startAuthServer, type AuthServer } from '../server'

export const FRAME_ORIGIN = 'http://127.0.0.1:5174'
export const OTHER_FRAME_ORIGIN = 'http://127.0.0.1:5175'
export const PROJECT_ID = 'auth-test-project'
export const OTHER_PROJECT_ID = 'auth-other-project'
/** The host page a social popup's result goes back to. */
export const HOST_ORIGIN = 'http://127.0.0.1:3000'

/**
 * A port the system picked, held until `release()`: the service's URL must be known before it listens (the identity
 * provider registers its callback), and test files running in parallel must not be given it meanwhile.
 */
const reservePort = () =>
  new Promise<{ port: number; release: () => Promise<void> }>((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      resolve({ port, release: () => new Promise<void>((done) => server.close(() => done())) })
    })
  })

export type CallOptions = { body?: unknown; token?: string; device?: string | null; origin?: string | null; projectId?: string | null; method?: string; headers?: Record<string, string> }

export type AuthTestbed = {
  auth: AuthServer
  mail: MailCapture
  /** Absent when started with `withIdentityProviders: false`. */
  idp: LocalIdentityProviders | undefined
  db: Database
  logLines: string[]
  /** The service's clock: real time plus what advance() added, or stopped by freeze(). */
  now: () => number
  /** The service's clock is real time plus this (tests move it on instead of waiting). */
  advance: (ms: number) => void
  /** Stops the service's clock (for rules to the millisecond) until thaw(), which lets it run on from there. */
  freeze: () => void
  thaw: () => void
  /** Calls the auth service as the frame does (its origin, the project, JSON), or as told. */
  call: (path: string, options?: CallOptions) => Promise<{ status: number; json: Record<string, unknown> & { error?: { code: string; message: string; params?: Record<string, number | string>; field?: string } }; headers: Headers }>
  /** The newest mail to `to` whose subject matches and that was not handed out before, waiting for it to arrive. */
  latestMail: (to: string, subject?: RegExp) => Promise<{ subject: string; text: string }>
  /** The six-digit code in the newest code mail to `to`. */
  latestCode: (to: string) => Promise<string>
  /** A whole first e-mail sign-in from a new device (link from the mail, then the code), as the frame of `origin` does it. */
  signUpByEmail: (email: string, options?: { device?: string; origin?: string; projectId?: string }) => Promise<{ device: string; token: string; user: { id: string; email: string } }>
  stop: () => Promise<void>
}

/**
 * The auth service on a real port with everything it talks to real too: an in-memory database with the data service's
 * schema, the SMTP capture (codes travel over SMTP), and the local OpenID providers and Farcaster relay.
 */
export async function startAuthTestbed({
  limits = {},
  mailer: customMailer,
  social: socialOverride,
  projects = [PROJECT_ID, OTHER_PROJECT_ID],
  withIdentityProviders = true,
  testRoutes = false,
}: { limits?: Partial<AuthLimits>; mailer?: Mailer; social?: Partial<Record<SocialProviderName, SocialProviderConfig>>; projects?: string[]; withIdentityProviders?: boolean; testRoutes?: boolean } = {}): Promise<AuthTestbed> {
  let offsetMs = 0
  let frozenAt: number | undefined
  const now = () => (frozenAt ?? Date.now()) + offsetMs
  const logLines: string[] = []
  const { port: authPort, release: releaseAuthPort } = await reservePort()
  const publicUrl = `http://127.0.0.1:${authPort}`
  const clientSecret = crypto.randomUUID()
  const mail = await startMailCapture({ smtpPort: 0, httpPort: 0, log: (line) => logLines.push(line) })
  const idp = withIdentityProviders ? await startLocalIdentityProviders({ port: 0, client: { clientId: 'tessera-test', clientSecret, redirectUris: [socialCallbackUrl(publicUrl)] }, log: (line) => logLines.push(line) }) : undefined
  const db = await openDatabase({})
  const social = idp
    ? Object.fromEntries(socialProviderNames.map((name) => [name, { issuer: idp.issuers[name], clientId: 'tessera-test', clientSecret, ...(name === 'apple' ? { responseMode: 'form_post' as const } : {}) }]))
    : {}
  const config: AuthConfig = {
    db,
    publicUrl,
    frameOrigins: [FRAME_ORIGIN, OTHER_FRAME_ORIGIN],
    projects,
    mailer: customMailer ?? createSmtpMailer({ smtpUrl: mail.smtpUrl, from: 'Tessera <no-reply@tessera.test>' }),
    social: socialOverride ?? social,
    ...(idp
      ? {
          farcaster: {
            relayUrl: idp.farcasterRelayUrl,
            domain: new URL(FRAME_ORIGIN).host,
            siweUri: FRAME_ORIGIN,
            custody: { kind: 'static' as const, accounts: Object.fromEntries(devFarcasterAccounts.map((a) => [String(a.fid), a.custodyAddress])) },
          },
        }
      : {}),
    limits: { longPollMs: 1_000, pollIntervalMs: 50, ...limits },
    testRoutes,
    now,
    log: (line) => logLines.push(line),
  }
  await releaseAuthPort()
  const auth = await startAuthServer({ ...config, port: authPort })

  const call: AuthTestbed['call'] = async (path, { body, token, device, origin = FRAME_ORIGIN, projectId = PROJECT_ID, method, headers = {} } = {}) => {
    const url = new URL(`${auth.url}${path}`)
    if (projectId !== null) url.searchParams.set('projectId', projectId)
    const response = await fetch(url, {
      method: method ?? (body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(origin ? { origin } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(device ? { 'x-tessera-device': device } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    })
    const raw = await response.text()
    let json: Record<string, unknown>
    try {
      json = raw ? (JSON.parse(raw) as Record<string, unknown>) : {}
    } catch {
      json = { html: raw }
    }
    return { status: response.status, json, headers: response.headers }
  }

  // Each mail is handed out once, so a test never reads an older code by mistake.
  const handedOut = new Set<string>()
  const latestMail: AuthTestbed['latestMail'] = async (to, subject = /./) => {
    const deadline = Date.now() + 5_000
    for (;;) {
      const found = mail.messages().find((m) => !handedOut.has(m.id) && m.to.includes(to.toLowerCase()) && subject.test(m.subject))
      if (found) {
        handedOut.add(found.id)
        return found
      }
      if (Date.now() > deadline) throw new Error(`No mail to ${to} matching ${subject}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }

  const latestCode = async (to: string) => /\b(\d{6})\b/.exec((await latestMail(to, /code/)).text)![1]!

  const signUpByEmail: AuthTestbed['signUpByEmail'] = async (email, { device = newDevice(), origin = FRAME_ORIGIN, projectId = PROJECT_ID } = {}) => {
    const start = await call('/v1/email/start', { body: { email }, device, origin, projectId })
    if (start.json.action !== 'VERIFY_DEVICE') throw new Error(`Expected VERIFY_DEVICE, got ${JSON.stringify(start.json)}`)
    const link = /https?:\/\/\S+\/v1\/email\/device\/approve\?token=\S+/.exec((await latestMail(email, /Approve/)).text)![0]
    await fetch(link, { method: 'POST', body: new URLSearchParams({ token: new URL(link).searchParams.get('token')! }) })
    const verified = await call('/v1/email/verify', { body: { flowId: start.json.flowId, otp: await latestCode(email) }, device, origin, projectId })
    if (verified.status !== 200) throw new Error(`Sign-up failed: ${JSON.stringify(verified.json)}`)
    return { device, token: verified.json.token as string, user: verified.json.user as { id: string; email: string } }
  }

  return {
    auth,
    mail,
    idp,
    db,
    logLines,
    now,
    advance: (ms) => void (offsetMs += ms),
    freeze: () => void (frozenAt = Date.now()),
    thaw() {
      if (frozenAt === undefined) return
      offsetMs += frozenAt - Date.now()
      frozenAt = undefined
    },
    call,
    latestMail,
    latestCode,
    signUpByEmail,
    async stop() {
      await auth.stop()
      await Promise.all([mail.stop(), idp?.stop()])
      await db.close()
    },
  }
}

/** A frame's device id: 32 random bytes, base64url. */
export const newDevice = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
