import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { WidgetError } from '../../../shared/protocol/errors'
import { createMemoryStorage, createWidgetStorage } from '../../storage/createWidgetStorage'
import { createTestAuthConnector } from './testing/createTestAuthConnector'
import { createFakeFrame, type FakeRequest } from './testing/createFakeFrame'

const address = '0x1111111111111111111111111111111111111111'
const user = { email: 'me@example.test', address, chainId: 31337, accounts: [{ address, type: 'eoa' }] }

/** An auth connector over a fake frame that answers each request by its type (absent: no answer). */
function setUp(answers: Record<string, (request: FakeRequest) => { ok: unknown } | { error: unknown }>) {
  const fake = createFakeFrame({ answer: (request) => answers[request.type]?.(request) ?? (request.type.startsWith('APP_SYNC_') ? { ok: {} } : undefined) })
  const storage = createWidgetStorage({ storage: createMemoryStorage() })
  let clock = 1_000_000
  const auth = createTestAuthConnector(fake, { storage, dappData: { sdkType: 'tessera', metadata: { name: 'Demo' } }, now: () => clock })
  const tick = (ms: number) => (clock += ms)
  /** Lets the frame get ready (its event, then the 500 ms the widget waits). */
  const ready = async () => {
    await vi.advanceTimersByTimeAsync(0)
    fake.ready()
    await vi.advanceTimersByTimeAsync(500)
  }
  const types = () => fake.posted.map((p) => p.message.type)
  return { fake, auth, storage, tick, ready, types }
}
const rejection = async (promise: Promise<unknown>) => (await promise.then(() => undefined, (error: unknown) => error)) as WidgetError

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('createAuthConnector', () => {
  it('refuses at once, without the frame, what the frame does not allow (eth_sign, eth_signTransaction)', async () => {
    const { auth, types } = setUp({})
    expect(await auth.eip155.refusesMethod!('eth_sign')).toBe(true)
    expect(await auth.eip155.refusesMethod!('eth_signTransaction')).toBe(true)
    expect(await auth.eip155.refusesMethod!('personal_sign')).toBe(false)
    expect(await auth.eip155.refusesMethod!('eth_sendTransaction')).toBe(false)
    expect(types()).toEqual([])
  })

  it("tells the frame the theme and the dApp's data before the first login request", async () => {
    const { fake, auth, ready, types } = setUp({ APP_CONNECT_EMAIL: () => ({ ok: { action: 'VERIFY_OTP' } }) })
    const action = auth.connectEmail('me@example.test')
    await ready()
    await expect(action).resolves.toBe('VERIFY_OTP')
    expect(types()).toEqual(['APP_SYNC_THEME', 'APP_SYNC_DAPP_DATA', 'APP_CONNECT_EMAIL'])
    expect(fake.posted[1]!.message.payload).toEqual({ projectId: 'demo', sdkVersion: 'react-eip155-0.2.0', sdkType: 'tessera', metadata: { name: 'Demo' } })
  })

  it("keeps SPEC §4's login data: a second e-mail login within 30 s is refused, a code stores the e-mail and the flag", async () => {
    const { auth, storage, tick, ready, types } = setUp({ APP_CONNECT_EMAIL: () => ({ ok: { action: 'VERIFY_OTP' } }), APP_CONNECT_OTP: () => ({ ok: {} }) })
    const first = auth.connectEmail('me@example.test')
    await ready()
    await first
    expect(storage.get('lastEmailLoginTime')).toBe(1_000_000)
    tick(12_400)
    expect(await rejection(auth.connectEmail('me@example.test'))).toMatchObject({ code: 'EMAIL_LOGIN_THROTTLED', shortMessage: 'Please try again after 18 seconds' })
    expect(types().filter((t) => t === 'APP_CONNECT_EMAIL')).toHaveLength(1)
    await auth.connectOtp('123456')
    expect([storage.get('email'), storage.get('emailLoginUsed'), storage.get('lastEmailLoginTime')]).toEqual(['me@example.test', true, undefined])
  })

  it("says the service's refusal of a code in its sentence", async () => {
    const { auth, ready } = setUp({
      APP_CONNECT_EMAIL: () => ({ ok: { action: 'VERIFY_OTP' } }),
      APP_CONNECT_OTP: () => ({ error: { message: 'The code is not correct. Please check it and try again', code: 'AUTH_CODE_INVALID', params: { attemptsLeft: 3 } } }),
    })
    const started = auth.connectEmail('me@example.test')
    await ready()
    await started
    expect(await rejection(auth.connectOtp('000000'))).toMatchObject({ code: 'AUTH_CODE_INVALID', shortMessage: 'The code is not correct. Please check it and try again' })
  })

  it('clears the login data when the frame says it is not connected, and on sign-out', async () => {
    let isConnected = true
    const { auth, storage, ready } = setUp({ APP_IS_CONNECTED: () => ({ ok: { isConnected } }), APP_SIGN_OUT: () => ({ ok: {} }) })
    storage.set('email', 'me@example.test')
    storage.set('emailLoginUsed', true)
    const first = auth.eip155.isAuthorized()
    await ready()
    expect(await first).toBe(true)
    expect(storage.get('email')).toBe('me@example.test')
    isConnected = false
    expect(await auth.eip155.isAuthorized()).toBe(false)
    expect([storage.get('email'), storage.get('emailLoginUsed')]).toEqual([undefined, undefined])
    storage.set('connectedSocialProvider', 'github')
    await auth.eip155.disconnect()
    expect(storage.get('connectedSocialProvider')).toBeUndefined()
  })

  it('connects with the user the frame opens, on the network asked for', async () => {
    const { fake, auth, ready } = setUp({ APP_GET_USER: () => ({ ok: user }) })
    const connected = auth.eip155.connect({ caipNetworkId: 'eip155:31337' } as never)
    await ready()
    await expect(connected).resolves.toEqual({ accounts: [address], caipNetworkId: 'eip155:31337' })
    // The account type the visitor prefers travels with it: smartAccount unless they chose otherwise (SPEC §6).
    expect(fake.posted.at(-1)!.message.payload).toEqual({ chainId: 31337, preferredAccountType: 'smartAccount' })
  })

  it('switches the account type in the frame, stores it per namespace, and tells the connection the new address', async () => {
    const smart = '0x00000000000000000000000000000000000000aa'
    const { fake, auth, ready, storage } = setUp({
      APP_GET_USER: (request) => ({
        ok: { ...user, address: (request.payload as { preferredAccountType?: string }).preferredAccountType === 'eoa' ? address : smart, accounts: [{ address, type: 'eoa' }, { address: smart, type: 'smartAccount' }], smartAccountDeployed: false, preferredAccountType: (request.payload as { preferredAccountType?: string }).preferredAccountType },
      }),
      APP_SET_PREFERRED_ACCOUNT: (request) => ({ ok: { type: (request.payload as { type: string }).type, address } }),
    })
    const connected = auth.eip155.connect({ caipNetworkId: 'eip155:31337' } as never)
    await ready()
    await expect(connected).resolves.toMatchObject({ accounts: [smart] })
    expect(auth.eip155.embeddedWalletInfo?.()).toEqual({ accountType: 'smartAccount', accounts: [{ address, type: 'eoa' }, { address: smart, type: 'smartAccount' }], isSmartAccountDeployed: false })
    const onAccountsChanged = vi.fn()
    auth.eip155.watch({ onAccountsChanged })

    await expect(auth.setPreferredAccountType('eoa')).resolves.toBe(address)
    expect(fake.posted.map((p) => p.message.type)).toContain('APP_SET_PREFERRED_ACCOUNT')
    expect(storage.get('preferredAccountTypes')).toEqual({ eip155: 'eoa' })
    expect(fake.posted.at(-1)!.message.payload).toMatchObject({ preferredAccountType: 'eoa' })
    expect(onAccountsChanged).toHaveBeenCalledWith([address])
    expect(auth.eip155.embeddedWalletInfo?.()?.accountType).toBe('eoa')
  })

  it('reconnects (after a reload) with the user read again on the frame’s chain: the preferred account type, both accounts', async () => {
    const smart = '0x00000000000000000000000000000000000000aa'
    const { fake, auth, ready, storage } = setUp({
      APP_RPC_REQUEST: (request) => ((request.payload as { method: string }).method === 'eth_chainId' ? { ok: '0x7a69' } : undefined)!,
      APP_GET_USER: (request) => ({ ok: { ...user, address: smart, accounts: [{ address, type: 'eoa' }, { address: smart, type: 'smartAccount' }], smartAccountDeployed: true, preferredAccountType: (request.payload as { preferredAccountType?: string }).preferredAccountType } }),
    })
    storage.set('preferredAccountTypes', { eip155: 'smartAccount' })
    const accounts = auth.eip155.getAccounts()
    await ready()
    await expect(accounts).resolves.toEqual([smart])
    expect(fake.posted.map((p) => p.message).filter((m) => !m.type.startsWith('APP_SYNC_')).map(({ type, payload }) => ({ type, payload }))).toEqual([
      { type: 'APP_RPC_REQUEST', payload: { method: 'eth_chainId', chainNamespace: 'eip155' } },
      { type: 'APP_GET_USER', payload: { chainId: 31337, preferredAccountType: 'smartAccount' } },
    ])
    expect(auth.eip155.embeddedWalletInfo?.()).toEqual({ accountType: 'smartAccount', accounts: [{ address, type: 'eoa' }, { address: smart, type: 'smartAccount' }], isSmartAccountDeployed: true })
  })

  it("sends the wallet's requests as APP_RPC_REQUEST, switches network in the frame, and aborts open approvals", async () => {
    const { fake, auth, ready } = setUp({
      APP_RPC_REQUEST: (request) => ((request.payload as { method: string }).method === 'eth_accounts' ? { ok: [address] } : undefined)!,
      APP_SWITCH_NETWORK: (request) => ({ ok: request.payload }),
    })
    const onNetworkChanged = vi.fn()
    auth.eip155.watch({ onNetworkChanged })
    const accounts = auth.eip155.request!({ method: 'eth_requestAccounts' })
    await ready()
    await expect(accounts).resolves.toEqual([address])
    expect(fake.posted.at(-1)!.message).toMatchObject({ type: 'APP_RPC_REQUEST', payload: { method: 'eth_accounts', chainNamespace: 'eip155' } })
    await auth.eip155.request!({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a6a' }] })
    expect(fake.posted.at(-1)!.message).toMatchObject({ type: 'APP_SWITCH_NETWORK', payload: { chainId: 31338 } })
    expect(onNetworkChanged).toHaveBeenCalledWith('eip155:31338')
    const signing = rejection(auth.eip155.signMessage('hello', address))
    await vi.advanceTimersByTimeAsync(0)
    expect(fake.posted.at(-1)!.message.payload).toEqual({ method: 'personal_sign', params: ['0x68656c6c6f', address], chainNamespace: 'eip155' })
    auth.abortRpcRequests()
    expect((await signing).shortMessage).toBe('Request was aborted')
  })
})
