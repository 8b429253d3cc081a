import { describe, expect, it, vi } from 'vitest'
import { createWidgetError } from '../../shared/protocol/errors'
import type { AuthConnector } from '../connectors/auth/createAuthConnector'
import { createRouter } from '../state/createRouter'
import { createAuthLogin } from './createAuthLogin'
import { parseWidgetConfig, type WidgetNetwork } from './config'

const address = '0x1111111111111111111111111111111111111111'
const network: WidgetNetwork = { chainNamespace: 'eip155', caipNetworkId: 'eip155:31337', id: 31337, name: 'Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } } }

/** A login over a fake auth connector whose steps answer as given. */
function setUp(connector: Partial<AuthConnector>) {
  const router = createRouter()
  const setConnected = vi.fn()
  const onConnectDone = vi.fn(async () => {})
  const eip155 = { name: 'Embedded wallet', connect: vi.fn(async () => ({ accounts: [address], caipNetworkId: 'eip155:31337' as const })) }
  const auth = { eip155, ...connector } as unknown as AuthConnector
  const login = createAuthLogin({ load: async () => auth, router, activeNetwork: () => network, activate: () => {}, setConnected, onConnectSuccess: () => {}, onConnectDone, window: undefined })
  return { login, router, setConnected, onConnectDone }
}

describe('createAuthLogin', () => {
  it('goes from the e-mail to the device approval, then to the code, then connects the account', async () => {
    let approvals = 0
    const { login, router, setConnected, onConnectDone } = setUp({
      connectEmail: async () => 'VERIFY_DEVICE',
      // The long poll ends twice before the person approves.
      connectDevice: async () => {
        if (++approvals < 3) throw createWidgetError('AUTH_DEVICE_NOT_APPROVED')
      },
      connectOtp: async () => {},
    })
    await login.submitEmail('me@example.test')
    expect(approvals).toBe(3)
    expect(router.store.getState().history.map((r) => r.view)).toEqual(['Connect', 'EmailVerifyOtp'])
    expect(login.store.getState()).toMatchObject({ step: 'otp', email: 'me@example.test', error: undefined })
    await login.submitOtp('123456')
    expect(setConnected).toHaveBeenCalledWith(expect.objectContaining({ name: 'Embedded wallet' }), [address], 'eip155:31337')
    expect(onConnectDone).toHaveBeenCalledOnce()
    expect(login.store.getState().step).toBe('email')
  })

  it('keeps a refusal in the view, in its sentence, and stays on the step', async () => {
    const { login, setConnected } = setUp({
      connectEmail: async () => 'VERIFY_OTP',
      connectOtp: async () => {
        throw createWidgetError('AUTH_CODE_INVALID', { params: { attemptsLeft: 4 } })
      },
    })
    await login.submitEmail('me@example.test')
    await login.submitOtp('000000')
    expect(login.store.getState()).toMatchObject({ step: 'otp', isBusy: false, error: { code: 'AUTH_CODE_INVALID', message: 'The code is not correct. Please check it and try again' } })
    expect(setConnected).not.toHaveBeenCalled()
  })

  it('stops waiting for the device when the person goes back', async () => {
    let rounds = 0
    const { login } = setUp({
      connectEmail: async () => 'VERIFY_DEVICE',
      connectDevice: async () => {
        rounds += 1
        if (rounds === 2) login.reset()
        throw createWidgetError('AUTH_DEVICE_NOT_APPROVED')
      },
    })
    await login.submitEmail('me@example.test')
    expect(rounds).toBe(2)
    expect(login.store.getState()).toMatchObject({ step: 'email', error: undefined })
  })
})

describe('auth config', () => {
  const base = { projectId: 'demo', networks: [network] }
  it('takes the frame URL and the social providers', () => {
    expect(parseWidgetConfig({ ...base, auth: { frameUrl: 'https://frame.example/', socials: ['github', 'google'] } }).auth).toEqual({ frameUrl: 'https://frame.example/', socials: ['github', 'google'] })
    expect(parseWidgetConfig({ ...base, auth: { frameUrl: 'https://frame.example/', socials: ['farcaster', 'google'] } }).auth?.socials).toEqual(['farcaster', 'google'])
  })
  it.each([
    [{ frameUrl: 'javascript:alert(1)' }, 'auth.frameUrl'],
    [{ frameUrl: 'https://frame.example/', socials: ['myspace'] }, 'auth.socials.0'],
  ])('refuses %j', (auth, field) => {
    expect(() => parseWidgetConfig({ ...base, auth })).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG', field }))
  })
})
