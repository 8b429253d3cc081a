import { describe, expect, it } from 'vitest'
import { createWidgetError } from '../../shared/protocol/errors'
import { appEvents, parseFrameReply, type AppEvent } from '../../shared/protocol/schemas/frameMessages'
import { createFrameMessenger, type FrameRequestHandler } from './createFrameMessenger'

const PAGE = 'https://dapp.example'

/** The frame's window and its parent, as far as the messenger sees them. */
function setup(handle: FrameRequestHandler = async () => ({}), options: { maxInFlight?: number } = {}) {
  const self = new EventTarget()
  const posted: { message: { id?: string; type: string; payload?: unknown }; targetOrigin: string }[] = []
  const parent = { postMessage: (message: unknown, targetOrigin: string) => void posted.push({ message: message as never, targetOrigin }) }
  const stranger = { postMessage: () => {} }
  const messenger = createFrameMessenger({ self: self as never, parent, parentOrigin: PAGE, handle, ...options })
  const send = (data: unknown, { origin = PAGE, source = parent as unknown }: { origin?: string; source?: unknown } = {}) =>
    self.dispatchEvent(Object.assign(new Event('message'), { data, origin, source }))
  return { messenger, posted, send, parent, stranger }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('createFrameMessenger', () => {
  it('answers a request from the page with its id and FRAME_…_SUCCESS, posted to the exact origin', async () => {
    const { send, posted } = setup(async (request) => (request.type === 'APP_IS_CONNECTED' ? { isConnected: true } : {}))
    send({ id: 'r1', type: 'APP_IS_CONNECTED' })
    await settle()
    expect(posted).toEqual([{ message: { id: 'r1', type: 'FRAME_IS_CONNECTED_SUCCESS', payload: { isConnected: true } }, targetOrigin: PAGE }])
    expect(parseFrameReply(posted[0]!.message, 'APP_IS_CONNECTED')).toEqual({ id: 'r1', isError: false, payload: { isConnected: true } })
  })

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['the page origin with a trailing slash', { origin: `${PAGE}/` }],
    ['http instead of https', { origin: 'http://dapp.example' }],
    ['the null origin of a sandboxed frame', { origin: 'null' }],
  ])('ignores a request from %s', async (_, from) => {
    let calls = 0
    const { send, posted, messenger } = setup(async () => {
      calls += 1
      return {}
    })
    send({ id: 'r1', type: 'APP_IS_CONNECTED' }, from)
    await settle()
    expect(posted).toEqual([])
    expect(calls).toBe(0)
    expect(messenger.stats().ignored).toBe(1)
  })

  it('ignores a request with the right origin from another window (a popup or another frame of the page)', async () => {
    const { send, posted, stranger } = setup()
    send({ id: 'r1', type: 'APP_IS_CONNECTED' }, { source: stranger })
    send({ id: 'r2', type: 'APP_IS_CONNECTED' }, { source: null })
    await settle()
    expect(posted).toEqual([])
  })

  it.each([
    ['null', null],
    ['a string', 'APP_IS_CONNECTED'],
    ['an empty object', {}],
    ['no id', { type: 'APP_IS_CONNECTED' }],
    ['a numeric id', { id: 1, type: 'APP_IS_CONNECTED' }],
    ['an empty id', { id: '', type: 'APP_IS_CONNECTED' }],
    ['an id of 129 characters', { id: 'x'.repeat(129), type: 'APP_IS_CONNECTED' }],
    ['an unknown type', { id: 'r1', type: 'APP_STEAL_KEYS' }],
    ['a reply type', { id: 'r1', type: 'FRAME_IS_CONNECTED_SUCCESS' }],
    ['a prototype key as type', { id: 'r1', type: '__proto__' }],
    ['an array', [{ id: 'r1', type: 'APP_IS_CONNECTED' }]],
  ])('ignores a message with %s, without a reply or a crash', async (_, data) => {
    const { send, posted, messenger } = setup()
    expect(() => send(data)).not.toThrow()
    await settle()
    expect(posted).toEqual([])
    expect(messenger.stats().ignored).toBe(1)
  })

  it('answers a request whose payload breaks its schema with FRAME_…_ERROR naming the field (INVALID_MESSAGE)', async () => {
    let calls = 0
    const { send, posted } = setup(async () => {
      calls += 1
      return {}
    })
    send({ id: 'r1', type: 'APP_CONNECT_EMAIL', payload: { email: 'not-an-email' } })
    send({ id: 'r2', type: 'APP_CONNECT_OTP', payload: { otp: '12ab56' } })
    await settle()
    expect(calls).toBe(0)
    expect(posted.map((p) => p.message)).toEqual([
      { id: 'r1', type: 'FRAME_CONNECT_EMAIL_ERROR', payload: { message: 'Invalid message', code: 'INVALID_MESSAGE' } },
      { id: 'r2', type: 'FRAME_CONNECT_OTP_ERROR', payload: { message: 'Invalid message', code: 'INVALID_MESSAGE' } },
    ])
  })

  it('answers a failure with the error sentence and code, and an unexpected failure with "An error occurred" and no details', async () => {
    const { send, posted } = setup(async (request) => {
      if (request.type === 'APP_RPC_REQUEST') throw createWidgetError('RPC_NOT_ALLOWED', { details: 'eth_sign' })
      throw new Error('secret internal state 0xdeadbeef')
    })
    send({ id: 'r1', type: 'APP_RPC_REQUEST', payload: { method: 'eth_sign', params: [] } })
    send({ id: 'r2', type: 'APP_GET_USER' })
    await settle()
    expect(posted.map((p) => p.message)).toEqual([
      { id: 'r1', type: 'FRAME_RPC_REQUEST_ERROR', payload: { message: 'Requested RPC call is not allowed', code: 'RPC_NOT_ALLOWED' } },
      { id: 'r2', type: 'FRAME_GET_USER_ERROR', payload: { message: 'An error occurred', code: 'FRAME_ERROR' } },
    ])
    expect(JSON.stringify(posted)).not.toContain('deadbeef')
  })

  it('keeps the JSON-RPC code of a provider error (4001 for a rejection)', async () => {
    const { send, posted } = setup(async () => {
      throw createWidgetError('USER_REJECTED')
    })
    send({ id: 'r1', type: 'APP_RPC_REQUEST', payload: { method: 'personal_sign', params: ['0x00', '0x00'] } })
    await settle()
    expect(posted[0]!.message.payload).toEqual({ message: 'User rejected the request.', code: 'USER_REJECTED', rpcCode: 4001 })
  })

  it('never posts an answer that breaks its reply schema, nor fields the schema does not name', async () => {
    const { send, posted } = setup(async (request) => (request.type === 'APP_IS_CONNECTED' ? { isConnected: 'yes' } : { chainId: 1, privateKey: '0x01' }))
    send({ id: 'r1', type: 'APP_IS_CONNECTED' })
    send({ id: 'r2', type: 'APP_GET_CHAIN_ID' })
    await settle()
    expect(posted.map((p) => p.message)).toEqual([
      { id: 'r1', type: 'FRAME_IS_CONNECTED_ERROR', payload: { message: 'An error occurred', code: 'FRAME_ERROR' } },
      { id: 'r2', type: 'FRAME_GET_CHAIN_ID_SUCCESS', payload: { chainId: 1 } },
    ])
  })

  it('answers every APP_* event of SPEC §7 with its own reply type', async () => {
    const { send, posted } = setup(async () => {
      throw createWidgetError('SOMETHING_WENT_WRONG')
    })
    const valid: Partial<Record<AppEvent, unknown>> = {
      APP_CONNECT_EMAIL: { email: 'a@b.co' },
      APP_CONNECT_OTP: { otp: '123456' },
      APP_CONNECT_SOCIAL: { uri: 'https://frame.example/callback?code=1' },
      APP_GET_SOCIAL_REDIRECT_URI: { provider: 'google' },
      APP_SWITCH_NETWORK: { chainId: 1 },
      APP_RPC_REQUEST: { method: 'eth_chainId' },
      APP_UPDATE_EMAIL: { email: 'a@b.co' },
      APP_UPDATE_EMAIL_PRIMARY_OTP: { otp: '123456' },
      APP_UPDATE_EMAIL_SECONDARY_OTP: { otp: '123456' },
      APP_SYNC_THEME: { themeMode: 'light' },
      APP_SYNC_DAPP_DATA: { projectId: 'p', sdkVersion: 'react-wagmi-1.0.0', sdkType: 'tessera' },
      APP_SET_PREFERRED_ACCOUNT: { type: 'eoa' },
    }
    appEvents.forEach((type, index) => send({ id: `r${index}`, type, payload: valid[type] }))
    await settle()
    expect(posted.map((p) => p.message.type)).toEqual(appEvents.map((type) => `FRAME_${type.slice(4)}_ERROR`))
    expect(posted.map((p) => p.message.id)).toEqual(appEvents.map((_, index) => `r${index}`))
  })

  it('refuses requests past maxInFlight with LIMIT_EXCEEDED, and ignores a second request with a running id', async () => {
    const gates: (() => void)[] = []
    const { send, posted } = setup(() => new Promise((resolve) => gates.push(() => resolve({ isConnected: false }))), { maxInFlight: 2 })
    send({ id: 'a', type: 'APP_IS_CONNECTED' })
    send({ id: 'a', type: 'APP_IS_CONNECTED' })
    send({ id: 'b', type: 'APP_IS_CONNECTED' })
    send({ id: 'c', type: 'APP_IS_CONNECTED' })
    await settle()
    expect(posted.map((p) => [p.message.id, p.message.type, (p.message.payload as { code?: string }).code])).toEqual([['c', 'FRAME_IS_CONNECTED_ERROR', 'LIMIT_EXCEEDED']])
    gates.forEach((open) => open())
    await settle()
    expect(posted.map((p) => p.message.id)).toEqual(['c', 'a', 'b'])
  })

  it('posts its own events to the exact origin, and nothing once stopped', async () => {
    const gates: (() => void)[] = []
    const { send, posted, messenger } = setup(() => new Promise((resolve) => gates.push(() => resolve({}))))
    messenger.post({ type: 'FRAME_READY', payload: { version: '1' } })
    send({ id: 'r1', type: 'APP_SIGN_OUT' })
    await settle()
    messenger.stop()
    gates.forEach((open) => open())
    send({ id: 'r2', type: 'APP_SIGN_OUT' })
    messenger.post({ type: 'FRAME_CLOSE' })
    await settle()
    expect(posted).toEqual([{ message: { type: 'FRAME_READY', payload: { version: '1' } }, targetOrigin: PAGE }])
  })

  it('survives 20,000 fuzzed messages from the page and elsewhere: no throw, and only well-formed requests from the page answered', async () => {
    let seed = 42
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31)
    const pick = <T,>(items: readonly T[]) => items[Math.floor(random() * items.length)]!
    const values: unknown[] = [null, undefined, 0, -1, 1e308, NaN, '', 'x'.repeat(1000), true, [], {}, { toString: 1 }, new Uint8Array(4), new Date(0), '__proto__']
    const shapes = () => {
      const roll = random()
      if (roll < 0.3) return pick(values)
      if (roll < 0.6) return { id: pick([...values, 'ok']), type: pick([...appEvents, 'APP_X', ...values]), payload: pick(values) }
      return { id: `f${Math.floor(random() * 1e9)}`, type: pick(appEvents), payload: pick([...values, { email: 'a@b.co' }, { otp: '123456' }, { chainId: 1 }, { method: 'eth_chainId' }]) }
    }
    const { send, posted, stranger, messenger } = setup(async (request) => {
      throw createWidgetError('SOMETHING_WENT_WRONG', { details: request.type })
    })
    let fromPage = 0
    for (let i = 0; i < 20_000; i++) {
      const fromTheRightWindow = random() < 0.5
      if (fromTheRightWindow) fromPage += 1
      expect(() => send(shapes(), fromTheRightWindow ? {} : pick([{ origin: 'https://evil.example' }, { source: stranger }]))).not.toThrow()
      if (i % 1000 === 0) await settle()
    }
    await settle()
    const { answered, ignored, refused } = messenger.stats()
    expect(answered).toBe(posted.length)
    expect(answered + ignored).toBe(20_000)
    expect(refused).toBeLessThanOrEqual(answered)
    expect(answered).toBeLessThanOrEqual(fromPage)
    for (const { message, targetOrigin } of posted) {
      expect(targetOrigin).toBe(PAGE)
      expect(message.type).toMatch(/^FRAME_[A-Z_]+_ERROR$/)
    }
  })
})
