import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { WidgetError } from '../../../shared/protocol/errors'
import { createFrameChannel } from './createFrameChannel'
import { createFakeFrame, type FakeRequest } from './testing/createFakeFrame'

const params = { projectId: 'demo', chainId: 31337, version: 'react-eip155-0.2.0', enableLogger: false }
const frameUrl = 'https://frame.test/'

/** A channel over a fake frame that answers `answers[type]` (a payload, or a function of the request). */
function setUp(respond?: (request: FakeRequest, fake: ReturnType<typeof createFakeFrame>) => unknown, options: Partial<Parameters<typeof createFrameChannel>[0]> = {}) {
  const fake: ReturnType<typeof createFakeFrame> = createFakeFrame({ respond: respond && ((request) => respond(request, fake)) })
  let id = 0
  const channel = createFrameChannel({ frameUrl, params, window: fake.window, createHost: fake.createHost, createId: () => `r${++id}`, ...options })
  return { fake, channel }
}
const rejection = async (promise: Promise<unknown>) => (await promise.then(() => undefined, (error: unknown) => error)) as WidgetError

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('createFrameChannel', () => {
  it('loads the frame with projectId, chainId, version, enableLogger and the page origin, and sends nothing until 500 ms after its ready event', async () => {
    const { fake, channel } = setUp((request, f) => f.success(request, { isConnected: true }))
    const answer = channel.request('APP_IS_CONNECTED')
    await vi.advanceTimersByTimeAsync(0)
    const src = new URL(fake.hosts[0]!.src)
    expect(Object.fromEntries(src.searchParams)).toEqual({ projectId: 'demo', chainId: '31337', version: 'react-eip155-0.2.0', enableLogger: 'false', origin: 'https://app.test' })
    fake.ready()
    await vi.advanceTimersByTimeAsync(499)
    expect(fake.posted).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    await expect(answer).resolves.toEqual({ isConnected: true })
    expect(fake.posted).toEqual([{ message: { id: 'r1', type: 'APP_IS_CONNECTED', payload: undefined }, targetOrigin: 'https://frame.test' }])
  })

  it("says 'Unable to load email login dependency' when the frame never gets ready, and loads it again on the next call", async () => {
    const { fake, channel } = setUp()
    const first = rejection(channel.request('APP_IS_CONNECTED'))
    await vi.advanceTimersByTimeAsync(30_000)
    expect(await first).toMatchObject({ code: 'EMAIL_DEPENDENCY_FAILED', shortMessage: 'Unable to load email login dependency' })
    expect(fake.hosts[0]!.removed).toBe(true)
    void channel.request('APP_IS_CONNECTED').catch(() => {})
    await vi.advanceTimersByTimeAsync(0)
    expect(fake.hosts).toHaveLength(2)
  })

  it("says 'Unable to load email login dependency' 10 s after the frame's page loaded without its ready event (its script failed)", async () => {
    const { fake, channel } = setUp((request, f) => f.success(request, { isConnected: true }))
    const first = rejection(channel.request('APP_IS_CONNECTED'))
    await vi.advanceTimersByTimeAsync(2_000)
    fake.hosts[0]!.load()
    await vi.advanceTimersByTimeAsync(9_999)
    expect(fake.hosts[0]!.removed).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(await first).toMatchObject({ code: 'EMAIL_DEPENDENCY_FAILED', shortMessage: 'Unable to load email login dependency' })
    expect(fake.hosts[0]!.removed).toBe(true)
    // The next call loads the frame again; a frame whose page loads before its ready event (the config fetch) works.
    const second = channel.request('APP_IS_CONNECTED')
    await vi.advanceTimersByTimeAsync(0)
    fake.hosts[1]!.load()
    await vi.advanceTimersByTimeAsync(3_000)
    fake.ready()
    await vi.advanceTimersByTimeAsync(500)
    await expect(second).resolves.toEqual({ isConnected: true })
    // A later load (the frame reloading itself) changes nothing for a ready frame.
    fake.hosts[1]!.load()
    await vi.advanceTimersByTimeAsync(30_000)
    await expect(channel.request('APP_IS_CONNECTED')).resolves.toEqual({ isConnected: true })
  })

  it("takes the ready event and replies only from the frame's window and exact origin", async () => {
    const { fake, channel } = setUp()
    const answer = channel.request('APP_GET_CHAIN_ID')
    fake.emit({ type: 'FRAME_READY', payload: { version: 'x' } }, { origin: 'https://evil.test' })
    fake.emit({ type: 'FRAME_READY', payload: { version: 'x' } }, { source: {} })
    await vi.advanceTimersByTimeAsync(1_000)
    expect(fake.posted).toEqual([])
    fake.ready()
    await vi.advanceTimersByTimeAsync(500)
    const request = fake.posted[0]!.message
    fake.emit(fake.success(request, { chainId: 666 }), { origin: 'https://frame.test:8443' })
    fake.emit(fake.success(request, { chainId: 666 }), { source: {} })
    fake.emit(fake.success({ ...request, id: 'other' }, { chainId: 666 }))
    fake.emit(fake.success(request, { chainId: 1 }))
    await expect(answer).resolves.toEqual({ chainId: 1 })
  })

  it("checks replies against the request's schema: a reply that breaks it is 'An error occurred'", async () => {
    const { fake, channel } = setUp((request, f) => f.success(request, { action: 'VERIFY_PRIMARY_OTP' }))
    const answer = rejection(channel.request('APP_CONNECT_EMAIL', { email: 'a@b.test' }))
    fake.ready()
    await vi.advanceTimersByTimeAsync(500)
    expect(await answer).toMatchObject({ code: 'FRAME_ERROR', shortMessage: 'An error occurred' })
  })

  it('refuses a request whose payload breaks its schema before posting it', async () => {
    const { fake, channel } = setUp()
    expect(await rejection(channel.request('APP_CONNECT_EMAIL', { email: 'not an address' }))).toMatchObject({ code: 'INVALID_MESSAGE', field: 'payload.email' })
    expect(fake.hosts).toEqual([])
  })

  it.each([
    ['APP_RPC_REQUEST', { method: 'personal_sign', params: ['0x00', '0x0000000000000000000000000000000000000000'] }, 'Request was aborted'],
    ['APP_CONNECT_OTP', { otp: '123456' }, 'Something went wrong'],
  ] as const)('aborts %s after 30 s without an answer: %s', async (type, payload, sentence) => {
    const { fake, channel } = setUp()
    const answer = rejection(channel.request(type, payload))
    fake.ready()
    await vi.advanceTimersByTimeAsync(500 + 29_999)
    await vi.advanceTimersByTimeAsync(1)
    expect((await answer).shortMessage).toBe(sentence)
  })

  it("says the frame's error in its code's sentence (with its values), and 'An error occurred' without a code", async () => {
    const { fake, channel } = setUp((request, f) =>
      request.type === 'APP_CONNECT_EMAIL' ? f.failure(request, { message: 'Please try again after 12 seconds', code: 'EMAIL_LOGIN_THROTTLED', params: { n: 12 } }) : f.failure(request, {}),
    )
    const throttled = rejection(channel.request('APP_CONNECT_EMAIL', { email: 'a@b.test' }))
    const unknown = rejection(channel.request('APP_SIGN_OUT'))
    fake.ready()
    await vi.advanceTimersByTimeAsync(500)
    expect(await throttled).toMatchObject({ code: 'EMAIL_LOGIN_THROTTLED', shortMessage: 'Please try again after 12 seconds', params: { n: 12 } })
    expect(await unknown).toMatchObject({ code: 'FRAME_ERROR', shortMessage: 'An error occurred' })
  })

  it('shows the frame while it needs the person, and its requests wait longer meanwhile', async () => {
    const onOpen = vi.fn()
    const onClose = vi.fn()
    const { fake, channel } = setUp(undefined, { onOpen, onClose })
    const answer = channel.request('APP_RPC_REQUEST', { method: 'eth_sendTransaction', params: [{}] })
    fake.ready()
    await vi.advanceTimersByTimeAsync(500 + 10_000)
    fake.emit({ type: 'FRAME_OPEN', payload: { reason: 'approval', minHeight: 520 } })
    expect(fake.hosts[0]!.shown).toEqual([520])
    expect(onOpen).toHaveBeenCalledWith('approval', 520)
    await vi.advanceTimersByTimeAsync(5 * 60_000)
    fake.emit(fake.success(fake.posted[0]!.message, '0xabc'))
    await expect(answer).resolves.toBe('0xabc')
    fake.emit({ type: 'FRAME_CLOSE', payload: {} })
    expect(fake.hosts[0]!.hidden).toBe(1)
    expect(onClose).toHaveBeenCalledOnce()
  })

  it('aborts a request by its signal, and everything on destroy', async () => {
    const { fake, channel } = setUp()
    const controller = new AbortController()
    const aborted = rejection(channel.request('APP_RPC_REQUEST', { method: 'personal_sign' }, { signal: controller.signal }))
    const other = rejection(channel.request('APP_GET_USER', {}))
    fake.ready()
    await vi.advanceTimersByTimeAsync(500)
    controller.abort()
    expect((await aborted).shortMessage).toBe('Request was aborted')
    channel.destroy()
    expect((await other).shortMessage).toBe('Something went wrong')
    expect(fake.hosts[0]!.removed).toBe(true)
    expect(fake.listeners.size).toBe(0)
  })

  it('bounds the requests waiting at once', async () => {
    const { fake, channel } = setUp(undefined, { maxPending: 2 })
    const waiting = [channel.request('APP_GET_CHAIN_ID'), channel.request('APP_GET_CHAIN_ID'), channel.request('APP_GET_CHAIN_ID')].map(rejection)
    fake.ready()
    await vi.advanceTimersByTimeAsync(500)
    expect(fake.posted).toHaveLength(2)
    expect((await waiting[2])!.code).toBe('LIMIT_EXCEEDED')
    channel.destroy()
    await Promise.all(waiting)
  })
})
