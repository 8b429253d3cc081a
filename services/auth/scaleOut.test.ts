import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '../api/db/createDatabase'
import { startPostgres } from '../api/testing/startPostgres'
import { startMailCapture, type MailCapture } from '../mail/startMailCapture'
import { freePorts } from '../stack/ports'
import { createSmtpMailer } from './mailer'
import { startAuthServer, type AuthServer } from './server'
import { FRAME_ORIGIN, newDevice, PROJECT_ID } from './testing/startAuthTestbed'

const REQUESTS_PER_MINUTE = 30

describe('two auth-service instances on one PostgreSQL', () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>>
  let mail: MailCapture
  let dbs: Database[]
  let a: AuthServer
  let b: AuthServer
  // One clock for both instances, moved by the tests (as the servers' clocks agree in a deployment).
  let clock = Date.now()

  beforeAll(async () => {
    postgres = await startPostgres()
    mail = await startMailCapture({ smtpPort: 0, httpPort: 0 })
    // Two instances at once on an empty database, a pool each: their migrations and the code key's creation take turns.
    dbs = await Promise.all([openDatabase({ databaseUrl: postgres.url }), openDatabase({ databaseUrl: postgres.url })])
    const start = async (db: Database) => {
      const port = (await freePorts()).auth
      return startAuthServer({
        db,
        host: '127.0.0.1',
        port,
        publicUrl: `http://127.0.0.1:${port}`,
        frameOrigins: [FRAME_ORIGIN],
        projects: [PROJECT_ID],
        mailer: createSmtpMailer({ smtpUrl: mail.smtpUrl, from: 'Tessera <no-reply@tessera.test>' }),
        limits: { requestsPerIpPerMinute: REQUESTS_PER_MINUTE, longPollMs: 10_000, pollIntervalMs: 50 },
        now: () => clock,
        log: () => {},
      })
    }
    ;[a, b] = await Promise.all(dbs.map(start)) as [AuthServer, AuthServer]
  }, 120_000)

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    await Promise.all(dbs.map((db) => db.close()))
    await mail?.stop()
    postgres?.stop()
  })

  const call = async (instance: AuthServer, path: string, { body, device, token }: { body?: unknown; device?: string; token?: string } = {}) => {
    const response = await fetch(`${instance.url}${path}?projectId=${PROJECT_ID}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        origin: FRAME_ORIGIN,
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(device && { 'x-tessera-device': device }),
        ...(token && { authorization: `Bearer ${token}` }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    return { status: response.status, json: (text ? JSON.parse(text) : {}) as Record<string, string> & { error?: { code: string; message: string; params?: Record<string, number> } } }
  }
  const mailTo = async (email: string, subject: RegExp) => {
    await expect.poll(() => mail.messages().some((m) => m.to.includes(email) && subject.test(m.subject)), { timeout: 5_000 }).toBe(true)
    return mail.messages().find((m) => m.to.includes(email) && subject.test(m.subject))!
  }

  it('both answer ready on the shared database', async () => {
    for (const instance of [a, b]) {
      const ready = await fetch(`${instance.url}/ready`)
      expect({ status: ready.status, json: await ready.json() }).toEqual({ status: 200, json: { status: 'ready', database: 'postgres' } })
    }
  })

  it('refuses a second code e-mail through the other instance within 30 s, with the spec’s sentence', async () => {
    const email = 'throttled@example.test'
    const device = newDevice()
    expect((await call(a, '/v1/email/start', { body: { email }, device })).json).toMatchObject({ action: 'VERIFY_DEVICE' })
    clock += 10_500
    const throttled = await call(b, '/v1/email/start', { body: { email }, device })
    expect(throttled.status).toBe(429)
    expect(throttled.json.error).toEqual({ code: 'EMAIL_LOGIN_THROTTLED', message: 'Please try again after 20 seconds', params: { n: 20 } })
    clock += 19_500
    expect((await call(b, '/v1/email/start', { body: { email }, device })).status).toBe(200)
  })

  it('signs in across instances: started on A, approved on B, verified on A, the session valid on B until signed out there', async () => {
    const email = 'across@example.test'
    const device = newDevice()
    const start = await call(a, '/v1/email/start', { body: { email }, device })
    expect(start.json.action).toBe('VERIFY_DEVICE')
    const link = new URL(/https?:\/\/\S+\/v1\/email\/device\/approve\?token=\S+/.exec((await mailTo(email, /Approve/)).text)![0])
    const approved = await fetch(`${b.url}/v1/email/device/approve`, { method: 'POST', body: new URLSearchParams({ token: link.searchParams.get('token')! }) })
    expect(approved.status).toBe(200)
    const code = /\b(\d{6})\b/.exec((await mailTo(email, /code/)).text)![1]
    const verified = await call(a, '/v1/email/verify', { body: { flowId: start.json.flowId, otp: code }, device })
    expect(verified.status).toBe(200)
    const { token } = verified.json
    expect((await call(b, '/v1/session', { token })).json).toMatchObject({ user: { email }, projectId: PROJECT_ID })
    expect((await call(b, '/v1/session/sign-out', { body: {}, token })).status).toBe(204)
    expect((await call(a, '/v1/session', { token })).json.error?.code).toBe('AUTH_SESSION_EXPIRED')
  })

  it('counts the per-IP request allowance across both instances', async () => {
    // A fresh minute: the window in the database and each instance's bucket start full.
    clock += 60_000 - (clock % 60_000)
    for (let i = 0; i < REQUESTS_PER_MINUTE / 2; i++) expect((await call(a, '/v1/session')).status).toBe(401)
    for (let i = 0; i < REQUESTS_PER_MINUTE / 2; i++) expect((await call(b, '/v1/session')).status).toBe(401)
    // Either instance alone has taken half its allowance; together they have taken all of it.
    for (const instance of [b, a]) {
      const limited = await call(instance, '/v1/session')
      expect(limited).toMatchObject({ status: 429, json: { error: { code: 'AUTH_RATE_LIMITED', message: 'Too many attempts. Please wait 1 min and try again' } } })
    }
    clock += 60_000
    expect((await call(b, '/v1/session')).status).toBe(401)
  })

  it('drains on stop: a long poll answers at once (the frame asks again elsewhere), and the other instance serves on', async () => {
    const email = 'drain@example.test'
    const device = newDevice()
    const start = await call(a, '/v1/email/start', { body: { email }, device })
    const waiting = call(a, '/v1/email/device/wait', { body: { flowId: start.json.flowId }, device })
    await new Promise((resolve) => setTimeout(resolve, 200))
    const stoppedAt = performance.now()
    await a.stop()
    expect(performance.now() - stoppedAt).toBeLessThan(2_000)
    expect((await waiting).json).toEqual({ action: 'VERIFY_DEVICE' })
    expect((await fetch(`${b.url}/ready`)).status).toBe(200)
  })
})
