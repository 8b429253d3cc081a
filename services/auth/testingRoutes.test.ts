import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAuthTestbed, type AuthTestbed } from './testing/startAuthTestbed'

describe("the local stack's test-only route: codes made to expire now", () => {
  let bed: AuthTestbed
  beforeAll(async () => {
    bed = await startAuthTestbed({ testRoutes: true, withIdentityProviders: false })
  }, 60_000)
  afterAll(async () => {
    await bed?.stop()
  })

  it('expires the open code of an e-mail change (its flow carries the new address): the code is then refused as expired', async () => {
    const email = `testing-${Date.now()}@tessera.test`
    const newEmail = `testing-new-${Date.now()}@tessera.test`
    const { token } = await bed.signUpByEmail(email)
    const start = await bed.call('/v1/email/update', { body: { email: newEmail }, token })
    const code = /\b(\d{6})\b/.exec((await bed.latestMail(email, /confirms your e-mail change/)).text)![1]
    const expired = await fetch(`${bed.auth.url}/testing/expire-codes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: newEmail }) })
    expect(await expired.json()).toEqual({ expired: 1 })
    const refused = await bed.call('/v1/email/update/primary', { body: { flowId: start.json.flowId, otp: code }, token })
    expect(refused.json.error).toEqual({ code: 'AUTH_CODE_EXPIRED', message: 'This code has expired. Please ask for a new one' })
  })

  it('ends the 30 s cooldown of an address: a second code is refused before, and sent after', async () => {
    const email = `cooldown-${Date.now()}@tessera.test`
    const { device } = await bed.signUpByEmail(email)
    const throttled = await bed.call('/v1/email/start', { body: { email }, device })
    expect(throttled.status).toBe(429)
    expect(throttled.json.error?.code).toBe('EMAIL_LOGIN_THROTTLED')
    const ended = await fetch(`${bed.auth.url}/testing/end-email-cooldown`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) })
    expect(await ended.json()).toEqual({ ended: 1 })
    const again = await bed.call('/v1/email/start', { body: { email }, device })
    expect(again.json.action).toBe('VERIFY_OTP')
  })

  it('is not there unless the config asks for it (a deployed service never has it)', async () => {
    const deployed = await startAuthTestbed({ withIdentityProviders: false })
    try {
      const response = await fetch(`${deployed.auth.url}/testing/expire-codes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'a@tessera.test' }) })
      expect(response.status).toBe(404)
      const cooldown = await fetch(`${deployed.auth.url}/testing/end-email-cooldown`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'a@tessera.test' }) })
      expect(cooldown.status).toBe(404)
    } finally {
      await deployed.stop()
    }
  }, 60_000)
})
