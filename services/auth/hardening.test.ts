import { request as httpRequest } from 'node:http'
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FRAME_ORIGIN, HOST_ORIGIN, newDevice, PROJECT_ID, startAuthTestbed, type AuthTestbed, type CallOptions } from './testing/startAuthTestbed'

let bed: AuthTestbed
let token: string
const device = newDevice()
const flowId = 'A'.repeat(43)
const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { a: nested(depth - 1) })

beforeAll(async () => {
  bed = await startAuthTestbed()
  token = (await bed.signUpByEmail('hardening@example.test', { device })).token
}, 60_000)
afterAll(async () => {
  await bed?.stop()
})

/** Sends `bytes` of body in chunks without Content-Length, and resolves the status. */
const postChunked = (path: string, bytes: number) =>
  new Promise<number>((resolve, reject) => {
    const req = httpRequest(`${bed.auth.url}${path}?projectId=${PROJECT_ID}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: FRAME_ORIGIN } }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode!))
    })
    req.on('error', reject)
    const chunk = 'x'.repeat(4_096)
    let sent = 0
    const write = () => {
      while (sent < bytes) {
        sent += chunk.length
        if (!req.write(chunk)) return void req.once('drain', write)
      }
      req.end()
    }
    write()
  })

type Case = [name: string, path: string, options: CallOptions | (() => CallOptions), status: number, expected: string]
const post = (body: unknown, extra: CallOptions = {}): CallOptions => ({ body, device, ...extra })

// Each answer names what was wrong: a field for bad input, a code for the rest; never a 500.
const hostile: Case[] = [
  ['a body over 16 KiB', '/v1/email/start', post({ email: `${'a'.repeat(17_000)}@example.test` }), 413, 'body'],
  ['malformed JSON', '/v1/email/start', post('{"email":'), 400, 'body'],
  ['an array for a body', '/v1/email/start', post([]), 400, 'body'],
  ['a number for a body', '/v1/email/start', post(42), 400, 'body'],
  ['no e-mail', '/v1/email/start', post({}), 400, 'email'],
  ['a number for an e-mail', '/v1/email/start', post({ email: 1 }), 400, 'email'],
  ['an e-mail without a domain', '/v1/email/start', post({ email: 'alice@' }), 400, 'email'],
  ['an e-mail of 255 characters', '/v1/email/start', post({ email: `${'a'.repeat(243)}@example.test` }), 400, 'email'],
  ['NUL in an e-mail', '/v1/email/start', post({ email: 'a\u0000@example.test' }), 400, 'email'],
  ['a lone surrogate in an e-mail', '/v1/email/start', post('{"email":"\\ud800@example.test"}'), 400, 'email'],
  ['a body nested 1,000 levels', '/v1/email/start', post({ email: 'a@example.test', x: nested(1_000) }), 400, `x${'.a'.repeat(15)}`],
  ['no device id', '/v1/email/start', post({ email: 'a@example.test' }, { device: null }), 400, 'x-tessera-device'],
  ['a short device id', '/v1/email/start', post({ email: 'a@example.test' }, { device: 'abc' }), 400, 'x-tessera-device'],
  ['a device id with other characters', '/v1/email/start', post({ email: 'a@example.test' }, { device: `${'a'.repeat(30)}/../..` }), 400, 'x-tessera-device'],
  ['a code of 5 digits', '/v1/email/verify', post({ flowId, otp: '12345' }), 400, 'otp'],
  ['a code with letters', '/v1/email/verify', post({ flowId, otp: '12a456' }), 400, 'otp'],
  ['a number for a code', '/v1/email/verify', post({ flowId, otp: 123456 }), 400, 'otp'],
  ['a code of 1e400', '/v1/email/verify', post(`{"flowId":"${flowId}","otp":1e400}`), 400, 'otp'],
  ['a malformed flow id', '/v1/email/verify', post({ flowId: 'short', otp: '123456' }), 400, 'flowId'],
  ['an unknown flow id', '/v1/email/verify', post({ flowId, otp: '123456' }), 400, 'AUTH_CODE_EXPIRED'],
  ['an unknown flow id to wait on', '/v1/email/device/wait', post({ flowId }), 400, 'AUTH_FLOW_EXPIRED'],
  ['a share that is not base64url', '/v1/auth-share', () => ({ method: 'PUT', body: { share: '<script>' }, token }), 400, 'share'],
  ['a share over 8 KiB', '/v1/auth-share', () => ({ method: 'PUT', body: { share: 'A'.repeat(11_000) }, token }), 400, 'share'],
  ['an unknown social provider', '/v1/social/start', post({ provider: 'myspace', returnOrigin: HOST_ORIGIN }), 400, 'provider'],
  ['farcaster as an OpenID provider', '/v1/social/start', post({ provider: 'farcaster', returnOrigin: HOST_ORIGIN }), 400, 'provider'],
  ['a return origin with a path', '/v1/social/start', post({ provider: 'google', returnOrigin: `${HOST_ORIGIN}/page` }), 400, 'returnOrigin'],
  ['a javascript: return origin', '/v1/social/start', post({ provider: 'google', returnOrigin: 'javascript:alert(1)' }), 400, 'returnOrigin'],
  ['a return origin of 300 characters', '/v1/social/start', post({ provider: 'google', returnOrigin: `https://${'a'.repeat(290)}.test` }), 400, 'returnOrigin'],
  ['a social result URI of 9,000 characters', '/v1/social/complete', post({ flowId, uri: `http://x/${'a'.repeat(9_000)}` }), 400, 'uri'],
  ['an unknown social flow', '/v1/social/complete', post({ flowId, uri: 'http://x/' }), 400, 'AUTH_FLOW_EXPIRED'],
  ['an unknown Farcaster flow', '/v1/farcaster/complete', post({ flowId }), 400, 'AUTH_FLOW_EXPIRED'],
  ['NUL in a query value', '/v1/session', { headers: { 'x-extra': '1' }, projectId: 'a\u0000b' }, 400, 'projectId'],
  ['an unknown route', '/v1/nothing', {}, 404, 'NOT_FOUND'],
  ['an unknown project', '/v1/session', { projectId: 'p'.repeat(100) }, 403, 'projectId'],
  ['a project id of 129 characters', '/v1/session', { projectId: 'p'.repeat(129) }, 400, 'projectId'],
  ['a wrong origin', '/v1/session', { origin: 'https://evil.example' }, 403, 'origin'],
  ['no session for a share', '/v1/auth-share', {}, 401, 'AUTH_SESSION_EXPIRED'],
  ['an e-mail change without a session', '/v1/email/update', post({ email: 'b@example.test' }), 401, 'AUTH_SESSION_EXPIRED'],
]

describe('auth service under hostile input', () => {
  it.each(hostile)('refuses %s, saying what', async (_name, path, options, status, expected) => {
    const { status: got, json } = await bed.call(path, typeof options === 'function' ? options() : options)
    expect(got).toBe(status)
    const error = json.error!
    expect(error.message).toMatch(/^\S/)
    expect(expected === error.code || expected === error.field).toBe(true)
  })

  it('refuses a chunked body over the limit without Content-Length', async () => {
    expect(await postChunked('/v1/email/start', 64 * 1024)).toBe(413)
  })

  it('answers the pages of links and callbacks with a page, whatever they are sent', async () => {
    const cases: [string, RequestInit, number][] = [
      ['/v1/email/device/approve', {}, 410],
      ['/v1/email/device/approve?token=%3Cscript%3E', {}, 410],
      ['/v1/email/device/approve', { method: 'POST', body: 'token=' + 'A'.repeat(43) }, 410],
      ['/v1/email/device/approve', { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x\r\nbroken' }, 410],
      ['/v1/email/device/approve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"token":' }, 410],
      ['/v1/social/callback?state=' + 'x'.repeat(5_000), {}, 400],
      ['/v1/social/callback', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'state=&code=%ZZ' }, 400],
    ]
    for (const [path, init, status] of cases) {
      const response = await fetch(`${bed.auth.url}${path}`, init)
      expect({ path, status: response.status }).toEqual({ path, status })
      expect(response.headers.get('content-type')).toMatch(/^text\/html/)
      expect(await response.text()).not.toContain('<script')
    }
  })

  it('let none of them reach the last-resort handler (nothing logged)', () => {
    expect(bed.logLines).toEqual([])
  })

  it('still signs in after all of that', async () => {
    expect((await bed.signUpByEmail('after-hostile@example.test')).token).toMatch(/^[\w-]{43}$/)
  })
})

describe('rate limits', () => {
  it('refuses requests past the per-IP allowance per minute, and code checks past theirs', async () => {
    const local = await startAuthTestbed({ withIdentityProviders: false, limits: { requestsPerIpPerMinute: 20, verifyAttemptsPerIp: 5 } })
    try {
      // A stopped clock: the bucket does not refill while the test runs, and the 10-minute window does not turn.
      local.freeze()
      local.advance(600_000 - (local.now() % 600_000))
      const statuses = []
      for (let i = 0; i < 6; i++) statuses.push((await local.call('/v1/email/verify', { body: { flowId, otp: '123456' }, device })).json.error?.code)
      expect(statuses).toEqual([...Array(5).fill('AUTH_CODE_EXPIRED'), 'AUTH_RATE_LIMITED'])
      const answers = []
      for (let i = 0; i < 14; i++) answers.push((await local.call('/v1/session')).status)
      expect(answers).toEqual(Array(14).fill(401))
      const limited = await local.call('/v1/session')
      expect(limited).toMatchObject({ status: 429, json: { error: { code: 'AUTH_RATE_LIMITED', message: 'Too many attempts. Please wait 1 min and try again' } } })
      expect(limited.headers.get('retry-after')).toBe('60')
      // The frame can read it: the refusal carries the frame's origin.
      expect(limited.headers.get('access-control-allow-origin')).toBe(FRAME_ORIGIN)
      // Health stays readable for a load balancer.
      expect((await fetch(`${local.auth.url}/health`)).status).toBe(200)
      // The bucket fills again with time.
      local.advance(60_000)
      expect((await local.call('/v1/session')).status).toBe(401)
    } finally {
      await local.stop()
    }
  }, 60_000)
})

describe('slow clients', () => {
  it('closes a connection that dribbles its headers, and one past the connection limit, and serves the rest', async () => {
    const local = await startAuthTestbed({ withIdentityProviders: false, limits: { headersTimeoutMs: 500, maxConnections: 3 } })
    try {
      const { port } = new URL(local.auth.url)
      const isClosed = new Map<Socket, boolean>()
      const open = () =>
        new Promise<Socket>((resolve) => {
          const socket = connect(Number(port), '127.0.0.1', () => resolve(socket))
          isClosed.set(socket, false)
          socket.on('close', () => isClosed.set(socket, true))
          socket.on('error', () => {})
          socket.resume()
        })
      const slow = await open()
      slow.write('GET /health HTTP/1.1\r\nHost: x\r\n') // and never the blank line
      const others = await Promise.all([open(), open(), open()])
      await expect.poll(() => others.filter((socket) => isClosed.get(socket)).length, { timeout: 2_000 }).toBe(1)
      for (const socket of others) socket.destroy()
      await expect.poll(() => isClosed.get(slow), { timeout: 5_000 }).toBe(true)
      expect((await fetch(`${local.auth.url}/health`)).status).toBe(200)
    } finally {
      await local.stop()
    }
  }, 60_000)
})
