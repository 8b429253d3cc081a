import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPostgres } from '../api/testing/startPostgres'
import { startMailCapture, type MailCapture } from '../mail/startMailCapture'
import { freePorts } from '../stack/ports'

const tsx = join('node_modules', '.bin', 'tsx')
const FRAME = 'https://frame.example.test'

describe('npm run services with an auth section: the auth service on PostgreSQL, mailing through TESSERA_SMTP_URL', () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>>
  let mail: MailCapture
  let dir: string
  beforeAll(async () => {
    postgres = await startPostgres()
    mail = await startMailCapture({ smtpPort: 0, httpPort: 0 })
    dir = mkdtempSync(join(tmpdir(), 'tessera-auth-services-'))
  }, 120_000)
  afterAll(async () => {
    postgres?.stop()
    await mail?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  const writeConfig = (auth: unknown) => {
    const path = join(dir, `config-${Math.random().toString(36).slice(2)}.json`)
    writeFileSync(path, JSON.stringify({ projects: [{ id: 'site', allowedOrigins: ['https://site.test'] }], chains: [], auth }))
    return path
  }

  it('signs a person in by e-mail end to end, then stops on SIGTERM', async () => {
    const ports = await freePorts()
    const publicUrl = `http://127.0.0.1:${ports.auth}`
    const config = writeConfig({ publicUrl, frameOrigins: [FRAME], mailFrom: 'Site <no-reply@site.test>' })
    const child = spawn(tsx, ['services/main.ts'], {
      env: { ...process.env, TESSERA_API_CONFIG: config, DATABASE_URL: postgres.url, API_PORT: String(ports.api), RELAY_PORT: String(ports.relay), AUTH_PORT: String(ports.auth), TESSERA_SMTP_URL: mail.smtpUrl },
      stdio: 'pipe',
    })
    const exited = new Promise<number | null>((done) => child.once('exit', done))
    try {
      await expect.poll(() => fetch(`${publicUrl}/health`).then((r) => r.json(), () => undefined), { timeout: 30_000 }).toEqual({ status: 'ok', service: 'tessera-auth', database: 'postgres' })
      const call = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${publicUrl}${path}?projectId=site`, { method: 'POST', headers: { origin: FRAME, 'content-type': 'application/json', 'x-tessera-device': 'D'.repeat(43), ...headers }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, json: (await r.json()) as Record<string, string> }))
      const email = 'self-host@example.test'
      const start = await call('/v1/email/start', { email })
      expect(start.json.action).toBe('VERIFY_DEVICE')
      await expect.poll(() => mail.messages().length, { timeout: 10_000 }).toBe(1)
      const link = /https?:\/\/\S+approve\?token=\S+/.exec(mail.messages()[0]!.text)![0]
      expect(link.startsWith(`${publicUrl}/v1/email/device/approve?token=`)).toBe(true)
      expect((await fetch(link, { method: 'POST', body: new URLSearchParams({ token: new URL(link).searchParams.get('token')! }) })).status).toBe(200)
      await expect.poll(() => mail.messages().length, { timeout: 10_000 }).toBe(2)
      const code = /\b(\d{6})\b/.exec(mail.messages()[0]!.text)![1]
      const verified = await call('/v1/email/verify', { flowId: start.json.flowId, otp: code })
      expect(verified).toMatchObject({ status: 200, json: { user: { email } } })
      // The data service shares the database and still answers.
      expect((await fetch(`http://127.0.0.1:${ports.api}/health`)).status).toBe(200)
    } finally {
      child.kill('SIGTERM')
    }
    expect(await exited).toBe(0)
  }, 90_000)

  it('names what is wrong with the auth section or the SMTP server', () => {
    const run = (auth: unknown, env: Record<string, string> = {}) =>
      spawnSync(tsx, ['services/main.ts'], { env: { ...process.env, TESSERA_API_CONFIG: writeConfig(auth), TESSERA_SMTP_URL: mail.smtpUrl, ...env }, encoding: 'utf8', timeout: 30_000 })
    const noFrame = run({ publicUrl: 'https://auth.test', mailFrom: 'a@b.test' })
    expect(noFrame.status).toBe(1)
    expect(noFrame.stderr).toContain('TESSERA_API_CONFIG: auth.frameOrigins:')
    const badProvider = run({ publicUrl: 'https://auth.test', frameOrigins: [FRAME], mailFrom: 'a@b.test', social: { google: { issuer: 'accounts.google.com', clientId: 'x' } } })
    expect(badProvider.stderr).toContain('TESSERA_API_CONFIG: auth.social.google.issuer: Expected an http(s) URL')
    const noSmtp = run({ publicUrl: 'https://auth.test', frameOrigins: [FRAME], mailFrom: 'a@b.test' }, { TESSERA_SMTP_URL: '' })
    expect(noSmtp.stderr).toContain('Set TESSERA_SMTP_URL to the SMTP server')
  }, 90_000)
})
