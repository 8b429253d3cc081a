import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { WidgetError } from '../../../shared/protocol/errors'
import { createNotifications } from '../../state/createNotifications'
import { createMemoryStorage, createWidgetStorage } from '../../storage/createWidgetStorage'
import { createTestAuthConnector } from './testing/createTestAuthConnector'
import { createFakeFrame, type FakeRequest } from './testing/createFakeFrame'

const address = '0x1111111111111111111111111111111111111111'
const farcasterUser = { email: null, address, chainId: 31337, accounts: [{ address, type: 'eoa' }], userName: 'alice' }

/** An auth connector over a fake frame that answers each request by its type, with a real toast store. */
function setUp(answers: Record<string, (request: FakeRequest) => { ok: unknown } | { error: unknown }>) {
  const fake = createFakeFrame({ answer: (request) => answers[request.type]?.(request) ?? (request.type.startsWith('APP_SYNC_') ? { ok: {} } : undefined) })
  const storage = createWidgetStorage({ storage: createMemoryStorage() })
  const notifications = createNotifications()
  const auth = createTestAuthConnector(fake, { storage, notifications })
  const ready = async () => {
    await vi.advanceTimersByTimeAsync(0)
    fake.ready()
    await vi.advanceTimersByTimeAsync(500)
  }
  const sent = (type: string) => fake.posted.filter((p) => p.message.type === type).map((p) => p.message.payload)
  return { auth, storage, notifications, ready, sent }
}
const rejection = async (promise: Promise<unknown>) => (await promise.then(() => undefined, (error: unknown) => error)) as WidgetError

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('the auth connector: Farcaster', () => {
  it('asks the frame for the Farcaster URI, then stores the Farcaster login and its username once the phone approved', async () => {
    const { auth, storage, ready } = setUp({
      APP_GET_FARCASTER_URI: () => ({ ok: { url: 'https://relay.test/connect?channelToken=abc' } }),
      APP_CONNECT_FARCASTER: () => ({ ok: farcasterUser }),
    })
    const uri = auth.getFarcasterUri()
    await ready()
    await expect(uri).resolves.toBe('https://relay.test/connect?channelToken=abc')
    await expect(auth.connectFarcaster()).resolves.toMatchObject({ address, userName: 'alice' })
    expect(storage.get('connectedSocialProvider')).toBe('farcaster')
    expect(storage.get('connectedSocialUsername')).toBe('alice')
  })

  it('signs the frame out of a login the person abandoned, and forgets what it stored of it', async () => {
    const { auth, storage, ready, sent } = setUp({ APP_CONNECT_FARCASTER: () => ({ ok: farcasterUser }), APP_SIGN_OUT: () => ({ ok: {} }) })
    const connected = auth.connectFarcaster()
    await ready()
    await connected
    expect(storage.get('connectedSocialProvider')).toBe('farcaster')
    await auth.abandonLogin()
    expect(sent('APP_SIGN_OUT')).toHaveLength(1)
    expect(storage.get('connectedSocialProvider')).toBeUndefined()
    expect(storage.get('connectedSocialUsername')).toBeUndefined()
  })

  it("says a sign-in still waiting for the phone as AUTH_FARCASTER_PENDING, and stores nothing", async () => {
    const { auth, storage, ready } = setUp({ APP_CONNECT_FARCASTER: () => ({ error: { code: 'AUTH_FARCASTER_PENDING', message: 'pending' } }) })
    const waiting = rejection(auth.connectFarcaster())
    await ready()
    expect((await waiting).code).toBe('AUTH_FARCASTER_PENDING')
    expect(storage.get('connectedSocialProvider')).toBeUndefined()
  })

  it("says an unanswered Farcaster URI request as 'An error occurred', not 'Something went wrong' (SPEC §8)", async () => {
    const { auth, ready } = setUp({})
    const asked = rejection(auth.getFarcasterUri())
    await ready()
    await vi.advanceTimersByTimeAsync(30_000)
    expect((await asked).shortMessage).toBe('An error occurred')
  })
})

describe('the auth connector: e-mail change', () => {
  it('sends the new address, then the primary and the secondary codes, and stores the new e-mail', async () => {
    const { auth, storage, ready, sent } = setUp({
      APP_UPDATE_EMAIL: () => ({ ok: { action: 'VERIFY_PRIMARY_OTP' } }),
      APP_UPDATE_EMAIL_PRIMARY_OTP: () => ({ ok: { action: 'VERIFY_SECONDARY_OTP' } }),
      APP_UPDATE_EMAIL_SECONDARY_OTP: () => ({ ok: { newEmail: 'new@example.test' } }),
    })
    storage.set('email', 'old@example.test')
    const action = auth.updateEmail('new@example.test')
    await ready()
    await expect(action).resolves.toBe('VERIFY_PRIMARY_OTP')
    await expect(auth.updateEmailPrimaryOtp('123456')).resolves.toBe('VERIFY_SECONDARY_OTP')
    expect(storage.get('email')).toBe('old@example.test')
    await expect(auth.updateEmailSecondaryOtp('654321')).resolves.toBe('new@example.test')
    expect(storage.get('email')).toBe('new@example.test')
    expect([sent('APP_UPDATE_EMAIL'), sent('APP_UPDATE_EMAIL_PRIMARY_OTP'), sent('APP_UPDATE_EMAIL_SECONDARY_OTP')]).toEqual([[{ email: 'new@example.test' }], [{ otp: '123456' }], [{ otp: '654321' }]])
  })

  it("refuses a code that is not six digits before the frame sees it, and keeps a wrong code's sentence", async () => {
    const { auth, storage, ready, sent } = setUp({ APP_UPDATE_EMAIL_SECONDARY_OTP: () => ({ error: { code: 'AUTH_CODE_EXPIRED', message: 'expired' } }) })
    storage.set('email', 'old@example.test')
    const short = rejection(auth.updateEmailPrimaryOtp('12345'))
    const refused = rejection(auth.updateEmailSecondaryOtp('123456'))
    await ready()
    expect((await short).field).toBe('payload.otp')
    expect((await refused).shortMessage).toBe('This code has expired. Please ask for a new one')
    expect(storage.get('email')).toBe('old@example.test')
    expect(sent('APP_UPDATE_EMAIL_PRIMARY_OTP')).toEqual([])
  })
})

describe("the auth connector: a disallowed call (SPEC §6)", () => {
  it("fails with 'Requested RPC call is not allowed', and the toast 'Action not allowed' shows 300 ms later, not before", async () => {
    const { auth, notifications, ready } = setUp({ APP_RPC_REQUEST: () => ({ error: { code: 'RPC_NOT_ALLOWED', message: 'Requested RPC call is not allowed' } }) })
    const call = rejection(auth.eip155.request!({ method: 'eth_signTransaction', params: [{}] }))
    await ready()
    expect((await call).shortMessage).toBe('Requested RPC call is not allowed')
    await vi.advanceTimersByTimeAsync(299)
    expect(notifications.store.getState().open).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(notifications.store.getState()).toMatchObject({ open: true, code: 'ACTION_NOT_ALLOWED', message: 'Action not allowed', variant: 'error' })
  })

  it('shows no toast for any other refusal', async () => {
    const { auth, notifications, ready } = setUp({ APP_RPC_REQUEST: () => ({ error: { code: 'USER_REJECTED', message: 'no' } }) })
    const call = rejection(auth.eip155.request!({ method: 'personal_sign', params: ['0x00', address] }))
    await ready()
    expect((await call).code).toBe('USER_REJECTED')
    await vi.advanceTimersByTimeAsync(1_000)
    expect(notifications.store.getState().open).toBe(false)
  })
})
