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

  it('is not there unless the config asks for it (a deployed service never has it)', async () => {
    const deployed = await startAuthTestbed({ withIdentityProviders: false })
    try {
      const response = await fetch(`${deployed.auth.url}/testing/expire-codes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'a@tessera.test' }) })
      expect(response.status).toBe(404)
    } finally {
      await deployed.stop()
    }
  }, 60_000)
})
