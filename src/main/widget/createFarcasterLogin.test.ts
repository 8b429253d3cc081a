import { describe, expect, it, vi } from 'vitest'
import { createWidgetError, type WidgetError } from '../../shared/protocol/errors'
import type { AuthConnector } from '../connectors/auth/createAuthConnector'
import { createRouter } from '../state/createRouter'
import type { WidgetNetwork } from './config'
import { createAuthLogin } from './createAuthLogin'
import { waitForFarcaster } from './createFarcasterLogin'

const address = '0x1111111111111111111111111111111111111111'
const user = { email: null, address, chainId: 31337, accounts: [{ address, type: 'eoa' as const }], userName: 'alice', smartAccountDeployed: false, preferredAccountType: 'eoa' as const }
const pending = () => Promise.reject(createWidgetError('AUTH_FARCASTER_PENDING'))

describe('waitForFarcaster', () => {
  it('gives the URI for the QR code, asks again while the phone has not approved, and resolves to the user', async () => {
    const connectFarcaster = vi.fn().mockImplementationOnce(pending).mockImplementationOnce(pending).mockResolvedValueOnce(user)
    const onUri = vi.fn()
    const abandonLogin = vi.fn(async () => {})
    const result = await waitForFarcaster({ auth: { getFarcasterUri: async () => 'https://relay.test/connect?channelToken=abc', connectFarcaster, abandonLogin }, onUri, isCurrent: () => true })
    expect(abandonLogin).not.toHaveBeenCalled()
    expect(onUri).toHaveBeenCalledWith('https://relay.test/connect?channelToken=abc')
    expect(connectFarcaster).toHaveBeenCalledTimes(3)
    expect(result).toEqual(user)
  })

  it('stops when the person went away: no URI shown after, no further round, no user', async () => {
    let isCurrent = true
    const connectFarcaster = vi.fn().mockImplementation(() => {
      isCurrent = false
      return pending()
    })
    const onUri = vi.fn()
    const abandonLogin = vi.fn(async () => {})
    await expect(waitForFarcaster({ auth: { getFarcasterUri: async () => 'https://relay.test/c', connectFarcaster, abandonLogin }, onUri, isCurrent: () => isCurrent })).resolves.toBeUndefined()
    expect(connectFarcaster).toHaveBeenCalledTimes(1)

    const late = vi.fn()
    await expect(waitForFarcaster({ auth: { getFarcasterUri: async () => 'https://relay.test/c', connectFarcaster, abandonLogin }, onUri: late, isCurrent: () => false })).resolves.toBeUndefined()
    expect(late).not.toHaveBeenCalled()
    expect(abandonLogin).not.toHaveBeenCalled()
  })

  it('signs the frame out again when the phone approved after the person went away', async () => {
    let isCurrent = true
    const connectFarcaster = vi.fn(async () => {
      isCurrent = false
      return user
    })
    const abandonLogin = vi.fn(async () => {})
    await expect(waitForFarcaster({ auth: { getFarcasterUri: async () => 'https://relay.test/c', connectFarcaster, abandonLogin }, onUri: () => {}, isCurrent: () => isCurrent })).resolves.toBeUndefined()
    expect(abandonLogin).toHaveBeenCalledOnce()
  })

  it("passes any other refusal on (a signature the service could not verify), and expires after its rounds", async () => {
    const refused = (await waitForFarcaster({
      auth: { getFarcasterUri: async () => 'https://relay.test/c', connectFarcaster: () => Promise.reject(createWidgetError('AUTH_FARCASTER_FAILED')), abandonLogin: async () => {} },
      onUri: () => {},
      isCurrent: () => true,
    }).catch((error: unknown) => error)) as WidgetError
    expect(refused.shortMessage).toBe('The Farcaster sign-in could not be verified. Please try again')

    const connectFarcaster = vi.fn(pending)
    const expired = (await waitForFarcaster({ auth: { getFarcasterUri: async () => 'https://relay.test/c', connectFarcaster, abandonLogin: async () => {} }, onUri: () => {}, isCurrent: () => true, maxRounds: 3 }).catch((error: unknown) => error)) as WidgetError
    expect(connectFarcaster).toHaveBeenCalledTimes(3)
    expect(expired.shortMessage).toBe('This sign-in has expired. Please start again')
  })
})

describe('createAuthLogin().connectFarcaster', () => {
  const network: WidgetNetwork = { chainNamespace: 'eip155', caipNetworkId: 'eip155:31337', id: 31337, name: 'Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } } }
  function setUp(connectFarcaster: () => Promise<unknown>) {
    const router = createRouter()
    const setConnected = vi.fn()
    const onConnectDone = vi.fn(async () => {})
    const eip155 = { name: 'Embedded wallet', connect: vi.fn(async () => ({ accounts: [address], caipNetworkId: 'eip155:31337' as const })) }
    const abandonLogin = vi.fn(async () => {})
    const reload = vi.fn(async () => {})
    const auth = { eip155, getFarcasterUri: async () => 'https://relay.test/connect?channelToken=abc', connectFarcaster, abandonLogin, reload } as unknown as AuthConnector
    const login = createAuthLogin({ load: async () => auth, router, activeNetwork: () => network, activate: () => {}, setConnected, onConnectSuccess: () => {}, onConnectDone, window: undefined })
    return { login, router, setConnected, onConnectDone, eip155, abandonLogin, reload }
  }

  it('opens the Farcaster view, shows the URI while it waits, then connects the EVM account on the widget’s network', async () => {
    let approve!: (value: unknown) => void
    const { login, router, setConnected, onConnectDone, eip155 } = setUp(() => new Promise((resolve) => (approve = resolve)))
    const connecting = login.connectFarcaster()
    expect(router.store.getState().view).toBe('FarcasterLogin')
    await vi.waitFor(() => expect(login.store.getState().farcasterUri).toBe('https://relay.test/connect?channelToken=abc'))
    expect(login.store.getState()).toMatchObject({ socialProvider: 'farcaster', isBusy: true })
    approve(user)
    await connecting
    expect(eip155.connect).toHaveBeenCalledWith(network)
    expect(setConnected).toHaveBeenCalledWith(eip155, [address], 'eip155:31337')
    expect(onConnectDone).toHaveBeenCalledOnce()
    expect(login.store.getState()).toMatchObject({ step: 'email', socialProvider: undefined, farcasterUri: undefined, isBusy: false })
  })

  it('keeps a refusal in the view, in its sentence, and connects nothing; leaving it then reloads no frame (nothing waits)', async () => {
    const { login, setConnected, reload } = setUp(() => Promise.reject(createWidgetError('AUTH_FARCASTER_FAILED')))
    await login.connectFarcaster()
    expect(login.store.getState().error).toMatchObject({ code: 'AUTH_FARCASTER_FAILED', message: 'The Farcaster sign-in could not be verified. Please try again' })
    expect(setConnected).not.toHaveBeenCalled()
    login.reset()
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(reload).not.toHaveBeenCalled()
  })

  it("reloads the frame when the person leaves while it waits for the phone, which ends the frame's long poll", async () => {
    const { login, reload } = setUp(() => new Promise(() => {}))
    void login.connectFarcaster()
    await vi.waitFor(() => expect(login.store.getState().farcasterUri).toBeDefined())
    login.reset()
    await vi.waitFor(() => expect(reload).toHaveBeenCalledOnce())
  })

  it('connects nothing when the person left the view before the phone approved', async () => {
    let approve!: (value: unknown) => void
    const { login, setConnected, abandonLogin } = setUp(() => new Promise((resolve) => (approve = resolve)))
    const connecting = login.connectFarcaster()
    await vi.waitFor(() => expect(approve).toBeDefined())
    login.reset()
    approve(user)
    await connecting
    expect(setConnected).not.toHaveBeenCalled()
    expect(abandonLogin).toHaveBeenCalledOnce()
    expect(login.store.getState()).toMatchObject({ step: 'email', farcasterUri: undefined, isBusy: false })
  })
})
