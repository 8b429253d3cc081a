import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { newDevice, startAuthTestbed, type AuthTestbed } from './testing/startAuthTestbed'

let bed: AuthTestbed
let addressCount = 0
/** A fresh address per test, so the 30 s throttle of one test never meets another. */
const newAddress = () => `person${++addressCount}-${Date.now()}@example.test`

beforeAll(async () => {
  bed = await startAuthTestbed()
}, 60_000)
afterAll(async () => {
  await bed?.stop()
})

const signUp = (email: string) => bed.signUpByEmail(email)

describe('e-mail sign-in', () => {
  it('approves a new device from the mailed link, then signs in with the mailed code', async () => {
    const email = newAddress()
    const device = newDevice()
    const start = await bed.call('/v1/email/start', { body: { email: email.toUpperCase() }, device })
    expect(start).toMatchObject({ status: 200, json: { action: 'VERIFY_DEVICE' } })
    const flowId = start.json.flowId as string

    // While the link is not used, the frame's wait ends with VERIFY_DEVICE (ask again).
    expect((await bed.call('/v1/email/device/wait', { body: { flowId }, device })).json).toEqual({ action: 'VERIFY_DEVICE' })

    const mail = await bed.latestMail(email, /Approve sign-in/)
    const link = /https?:\/\/\S+\/v1\/email\/device\/approve\?token=\S+/.exec(mail.text)![0]
    expect(link.startsWith(`${bed.auth.url}/v1/email/device/approve?token=`)).toBe(true)
    // Opening the link (a mail scanner does too) only shows the page; the button approves.
    const page = await fetch(link)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("script-src 'none'")
    const html = await page.text()
    expect(html).toContain(email)
    expect(html).toContain('<form method="post" action="/v1/email/device/approve">')
    expect((await bed.call('/v1/email/device/wait', { body: { flowId }, device })).json).toEqual({ action: 'VERIFY_DEVICE' })

    const waiting = bed.call('/v1/email/device/wait', { body: { flowId }, device })
    const approved = await fetch(link, { method: 'POST', body: new URLSearchParams({ token: new URL(link).searchParams.get('token')! }) })
    expect(approved.status).toBe(200)
    expect(await approved.text()).toContain('We sent a sign-in code to')
    // The wait that was open when the device was approved answers VERIFY_OTP (or, on a slow machine, its time ran out
    // first and the frame asks again, as it would).
    let answer = (await waiting).json
    for (let retries = 0; answer.action === 'VERIFY_DEVICE' && retries < 5; retries++) answer = (await bed.call('/v1/email/device/wait', { body: { flowId }, device })).json
    expect(answer).toEqual({ action: 'VERIFY_OTP' })

    const code = await bed.latestCode(email)
    const wrong = code === '000000' ? '000001' : '000000'
    const refused = await bed.call('/v1/email/verify', { body: { flowId, otp: wrong }, device })
    expect(refused).toMatchObject({ status: 400, json: { error: { code: 'AUTH_CODE_INVALID', message: 'The code is not correct. Please check it and try again', params: { attemptsLeft: 4 } } } })

    const verified = await bed.call('/v1/email/verify', { body: { flowId, otp: code }, device })
    expect(verified.status).toBe(200)
    expect(verified.json).toMatchObject({ token: expect.stringMatching(/^[\w-]{43}$/), expiresAt: expect.any(Number), isNewUser: true, user: { email, authProvider: 'email', userName: null } })
    const session = await bed.call('/v1/session', { token: verified.json.token as string })
    expect(session.json).toMatchObject({ user: { id: (verified.json.user as { id: string }).id, email }, projectId: 'auth-test-project' })

    // The link works once.
    expect((await fetch(link, { method: 'POST', body: new URLSearchParams({ token: new URL(link).searchParams.get('token')! }) })).status).toBe(410)
    expect((await fetch(link)).status).toBe(410)
  })

  it('sends a code at once to a device that signed in before, and opens the same account', async () => {
    const email = newAddress()
    const first = await signUp(email)
    bed.advance(30_000)
    const start = await bed.call('/v1/email/start', { body: { email }, device: first.device })
    expect(start.json).toMatchObject({ action: 'VERIFY_OTP' })
    const verified = await bed.call('/v1/email/verify', { body: { flowId: start.json.flowId, otp: await bed.latestCode(email) }, device: first.device })
    expect(verified.json).toMatchObject({ isNewUser: false, user: { id: first.user.id, email } })
  })

  it('answers CONNECT without sending anything when the frame is already signed in with that address', async () => {
    const email = newAddress()
    const { device, token } = await signUp(email)
    const before = bed.mail.messages().length
    expect((await bed.call('/v1/email/start', { body: { email }, device, token })).json).toEqual({ action: 'CONNECT' })
    expect(bed.mail.messages().length).toBe(before)
  })

  it('tells nobody whether an address has an account: a new device gets the same answer for both', async () => {
    const known = newAddress()
    await signUp(known)
    bed.advance(30_000)
    const a = await bed.call('/v1/email/start', { body: { email: known }, device: newDevice() })
    const b = await bed.call('/v1/email/start', { body: { email: newAddress() }, device: newDevice() })
    expect({ status: a.status, action: a.json.action, keys: Object.keys(a.json) }).toEqual({ status: b.status, action: b.json.action, keys: Object.keys(b.json) })
    expect(a.json.action).toBe('VERIFY_DEVICE')
  })

  it('refuses a second e-mail within 30 s with the spec’s sentence, n the seconds left rounded up', async () => {
    const email = newAddress()
    const device = newDevice()
    bed.freeze()
    onTestFinished(() => bed.thaw())
    expect((await bed.call('/v1/email/start', { body: { email }, device })).status).toBe(200)
    bed.advance(10_500)
    const throttled = await bed.call('/v1/email/start', { body: { email }, device })
    expect(throttled.status).toBe(429)
    expect(throttled.json.error).toEqual({ code: 'EMAIL_LOGIN_THROTTLED', message: 'Please try again after 20 seconds', params: { n: 20 } })
    expect(throttled.headers.get('retry-after')).toBe('20')
    bed.advance(19_499)
    expect((await bed.call('/v1/email/start', { body: { email }, device })).json.error).toMatchObject({ message: 'Please try again after 1 seconds' })
    bed.advance(1)
    expect((await bed.call('/v1/email/start', { body: { email }, device })).status).toBe(200)
    // Another address is not held back by this one.
    expect((await bed.call('/v1/email/start', { body: { email: newAddress() }, device })).status).toBe(200)
  })

  it('keeps only the newest code of a device: asking again kills the earlier one', async () => {
    const email = newAddress()
    const { device } = await signUp(email)
    bed.advance(30_000)
    const first = await bed.call('/v1/email/start', { body: { email }, device })
    const firstCode = await bed.latestCode(email)
    bed.advance(30_000)
    const second = await bed.call('/v1/email/start', { body: { email }, device })
    const secondCode = await bed.latestCode(email)
    expect((await bed.call('/v1/email/verify', { body: { flowId: first.json.flowId, otp: firstCode }, device })).json.error).toMatchObject({ code: 'AUTH_CODE_EXPIRED' })
    expect((await bed.call('/v1/email/verify', { body: { flowId: second.json.flowId, otp: secondCode }, device })).status).toBe(200)
  })

  it('refuses a code after 10 minutes', async () => {
    const email = newAddress()
    const { device } = await signUp(email)
    bed.advance(30_000)
    const start = await bed.call('/v1/email/start', { body: { email }, device })
    const code = await bed.latestCode(email)
    bed.advance(10 * 60_000)
    expect((await bed.call('/v1/email/verify', { body: { flowId: start.json.flowId, otp: code }, device })).json.error).toEqual({ code: 'AUTH_CODE_EXPIRED', message: 'This code has expired. Please ask for a new one' })
  })

  it('takes a code once', async () => {
    const email = newAddress()
    const { device } = await signUp(email)
    bed.advance(30_000)
    const start = await bed.call('/v1/email/start', { body: { email }, device })
    const code = await bed.latestCode(email)
    expect((await bed.call('/v1/email/verify', { body: { flowId: start.json.flowId, otp: code }, device })).status).toBe(200)
    expect((await bed.call('/v1/email/verify', { body: { flowId: start.json.flowId, otp: code }, device })).json.error).toMatchObject({ code: 'AUTH_CODE_EXPIRED' })
  })

  it('kills a code after 5 attempts, the right code included', async () => {
    const email = newAddress()
    const { device } = await signUp(email)
    bed.advance(30_000)
    const start = await bed.call('/v1/email/start', { body: { email }, device })
    const code = await bed.latestCode(email)
    const wrong = code === '123456' ? '654321' : '123456'
    const answers = []
    for (let i = 0; i < 5; i++) answers.push((await bed.call('/v1/email/verify', { body: { flowId: start.json.flowId, otp: wrong }, device })).json.error)
    expect(answers.map((e) => [e?.code, e?.params?.attemptsLeft])).toEqual([
      ['AUTH_CODE_INVALID', 4],
      ['AUTH_CODE_INVALID', 3],
      ['AUTH_CODE_INVALID', 2],
      ['AUTH_CODE_INVALID', 1],
      ['AUTH_CODE_ATTEMPTS_EXCEEDED', undefined],
    ])
    expect((await bed.call('/v1/email/verify', { body: { flowId: start.json.flowId, otp: code }, device })).json.error).toEqual({ code: 'AUTH_CODE_ATTEMPTS_EXCEEDED', message: 'Too many wrong codes. Please ask for a new one' })
  })

  it('takes a code only from the device that asked for it', async () => {
    const email = newAddress()
    const { device } = await signUp(email)
    bed.advance(30_000)
    const start = await bed.call('/v1/email/start', { body: { email }, device })
    const code = await bed.latestCode(email)
    expect((await bed.call('/v1/email/verify', { body: { flowId: start.json.flowId, otp: code }, device: newDevice() })).json.error).toMatchObject({ code: 'AUTH_CODE_EXPIRED' })
    expect((await bed.call('/v1/email/verify', { body: { flowId: start.json.flowId, otp: code }, device })).status).toBe(200)
  })

  it('keeps codes, device ids, link tokens and session tokens only as hashes', async () => {
    const email = newAddress()
    const { device, token } = await signUp(email)
    bed.advance(30_000)
    await bed.call('/v1/email/start', { body: { email }, device })
    const code = await bed.latestCode(email)
    const tables = ['auth_email_flows', 'auth_devices', 'auth_sessions', 'auth_users', 'auth_email_sends']
    const dump = JSON.stringify(await Promise.all(tables.map((table) => bed.db.query(`select * from ${table}`))))
    expect(dump).toContain(email)
    for (const secret of [code, device, token]) expect(dump).not.toContain(secret)
  })
})

describe('e-mail change', () => {
  it('confirms with a code to the current address, then one to the new address', async () => {
    const email = newAddress()
    const newEmail = newAddress()
    const { device, token, user } = await signUp(email)
    const start = await bed.call('/v1/email/update', { body: { email: newEmail }, token })
    expect(start.json).toMatchObject({ action: 'VERIFY_PRIMARY_OTP', flowId: expect.any(String) })
    const primaryMail = await bed.latestMail(email, /confirms your e-mail change/)
    expect(primaryMail.text).toContain(newEmail)
    const primary = await bed.call('/v1/email/update/primary', { body: { flowId: start.json.flowId, otp: /\b(\d{6})\b/.exec(primaryMail.text)![1] }, token })
    expect(primary.json).toEqual({ action: 'VERIFY_SECONDARY_OTP' })
    const secondaryCode = /\b(\d{6})\b/.exec((await bed.latestMail(newEmail, /confirms your new e-mail/)).text)![1]
    // The primary code's step is over: its code does not work for the secondary step and the other way round.
    expect((await bed.call('/v1/email/update/primary', { body: { flowId: start.json.flowId, otp: secondaryCode }, token })).json.error).toMatchObject({ code: 'AUTH_CODE_EXPIRED' })
    const secondary = await bed.call('/v1/email/update/secondary', { body: { flowId: start.json.flowId, otp: secondaryCode }, token })
    expect(secondary.json).toMatchObject({ newEmail, user: { id: user.id, email: newEmail } })
    // The account now signs in with the new address, on the device it knows.
    const again = await bed.call('/v1/email/start', { body: { email: newEmail }, device })
    expect(again.json).toMatchObject({ action: 'VERIFY_OTP' })
    const verified = await bed.call('/v1/email/verify', { body: { flowId: again.json.flowId, otp: await bed.latestCode(newEmail) }, device })
    expect(verified.json).toMatchObject({ isNewUser: false, user: { id: user.id, email: newEmail } })
  })

  it('refuses the address the account already has', async () => {
    const email = newAddress()
    const { token } = await signUp(email)
    expect((await bed.call('/v1/email/update', { body: { email: email.toUpperCase() }, token })).json.error).toEqual({ code: 'AUTH_EMAIL_UNCHANGED', message: 'This is already your e-mail address' })
  })

  it('says an address belongs to another account only once the new address is proven', async () => {
    const taken = newAddress()
    await signUp(taken)
    const email = newAddress()
    const { token } = await signUp(email)
    bed.advance(30_000)
    const start = await bed.call('/v1/email/update', { body: { email: taken }, token })
    expect(start.json.action).toBe('VERIFY_PRIMARY_OTP')
    await bed.call('/v1/email/update/primary', { body: { flowId: start.json.flowId, otp: /\b(\d{6})\b/.exec((await bed.latestMail(email, /e-mail change/)).text)![1] }, token })
    const secondary = await bed.call('/v1/email/update/secondary', { body: { flowId: start.json.flowId, otp: /\b(\d{6})\b/.exec((await bed.latestMail(taken, /new e-mail/)).text)![1] }, token })
    expect(secondary).toMatchObject({ status: 409, json: { error: { code: 'AUTH_EMAIL_TAKEN', message: 'This e-mail address belongs to another account' } } })
  })

  it('needs a session, and the flow of that session’s user', async () => {
    expect((await bed.call('/v1/email/update', { body: { email: newAddress() } })).json.error).toMatchObject({ code: 'AUTH_SESSION_EXPIRED' })
    const alice = await signUp(newAddress())
    const mallory = await signUp(newAddress())
    const start = await bed.call('/v1/email/update', { body: { email: newAddress() }, token: alice.token })
    expect((await bed.call('/v1/email/update/primary', { body: { flowId: start.json.flowId, otp: '000000' }, token: mallory.token })).json.error).toMatchObject({ code: 'AUTH_CODE_EXPIRED' })
  })
})

describe('rate allowance', () => {
  it('refuses code e-mails past the allowance of an address, then of an IP, and says for how long', async () => {
    const local = await startAuthTestbed({ withIdentityProviders: false, limits: { emailSendsPerAddress: 2, emailSendsPerIp: 4, emailSendWindowMs: 3_600_000 } })
    try {
      // Windows are whole hours of the clock: start this test at the beginning of one.
      local.freeze()
      local.advance(3_600_000 - (local.now() % 3_600_000))
      const email = 'allowance@example.test'
      const device = newDevice()
      for (let i = 0; i < 2; i++) {
        expect((await local.call('/v1/email/start', { body: { email }, device })).status).toBe(200)
        local.advance(30_000)
      }
      const refused = await local.call('/v1/email/start', { body: { email }, device })
      expect(refused.status).toBe(429)
      expect(refused.json.error).toMatchObject({ code: 'AUTH_RATE_LIMITED', message: expect.stringMatching(/^Too many attempts\. Please wait \d+ min and try again$/) })
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      // The allowance is checked first: even past 30 s, and before the throttle would have answered.
      expect((await local.call('/v1/email/start', { body: { email }, device })).json.error).toMatchObject({ code: 'AUTH_RATE_LIMITED' })
      // Two more addresses fill this IP's allowance of 4.
      expect((await local.call('/v1/email/start', { body: { email: 'other1@example.test' }, device })).status).toBe(200)
      expect((await local.call('/v1/email/start', { body: { email: 'other2@example.test' }, device })).status).toBe(200)
      expect((await local.call('/v1/email/start', { body: { email: 'other3@example.test' }, device })).json.error).toMatchObject({ code: 'AUTH_RATE_LIMITED' })
      // A new window opens the allowance again.
      local.advance(3_600_000)
      expect((await local.call('/v1/email/start', { body: { email }, device })).status).toBe(200)
    } finally {
      await local.stop()
    }
  }, 60_000)
})

describe('mail delivery failure', () => {
  it('says the e-mail could not be sent, and lets the person ask again at once', async () => {
    const local = await startAuthTestbed({
      withIdentityProviders: false,
      mailer: {
        send: async () => {
          throw new Error('connect ECONNREFUSED 127.0.0.1:1')
        },
        close: () => {},
      },
    })
    try {
      const body = { email: 'unlucky@example.test' }
      const device = newDevice()
      const first = await local.call('/v1/email/start', { body, device })
      expect(first).toMatchObject({ status: 502, json: { error: { code: 'AUTH_EMAIL_NOT_SENT', message: 'The e-mail could not be sent. Please try again later' } } })
      // Not 'Please try again after 30 seconds': the slot of a mail that never left is given back.
      expect((await local.call('/v1/email/start', { body, device })).json.error).toMatchObject({ code: 'AUTH_EMAIL_NOT_SENT' })
      expect(local.logLines.some((line) => line.includes('ECONNREFUSED'))).toBe(true)
    } finally {
      await local.stop()
    }
  }, 60_000)
})
