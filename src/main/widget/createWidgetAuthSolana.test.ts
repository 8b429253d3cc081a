import { afterEach, describe, expect, it, vi } from 'vitest'
import type { createAuthConnector as realCreateAuthConnector, CreateAuthConnectorParameters } from '../connectors/auth/createAuthConnector'
import { createFakeFrame, type FakeRequest } from '../connectors/auth/testing/createFakeFrame'
import { createMemoryStorage, createWidgetStorage } from '../storage/createWidgetStorage'
import { initialAuthLoginState } from './authLoginState'
import { createWidget, type Widget } from './createWidget'

// The widget's auth connector talks to the fake frame of the test (no iframe in node): everything else is the widget's own.
type FakeFrame = ReturnType<typeof createFakeFrame>
const frames = vi.hoisted(() => ({ current: undefined as FakeFrame | undefined }))
vi.mock('../connectors/auth/createAuthConnector', async (importOriginal) => {
  const actual = await importOriginal<{ createAuthConnector: typeof realCreateAuthConnector }>()
  return { ...actual, createAuthConnector: (parameters: CreateAuthConnectorParameters) => actual.createAuthConnector({ ...parameters, window: frames.current!.window, createHost: frames.current!.createHost, readyDelayMs: 0 }) }
})

const evmAddress = '0x1111111111111111111111111111111111111111'
const solanaAddress = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV'
const cluster = 'solana:LocaLnet111111111111111111111111'
const evm = { chainNamespace: 'eip155' as const, caipNetworkId: 'eip155:31337', id: 31337, name: 'Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } }
const solana = { chainNamespace: 'solana' as const, caipNetworkId: cluster, id: 'LocaLnet111111111111111111111111', name: 'Solana Local', nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 }, rpcUrls: { default: { http: [] } } }

/** A frame that keeps a login and a network as the real one does (its Solana side answering only on configured clusters). */
function startFrame({ solanaClusters = [cluster] }: { solanaClusters?: string[] } = {}) {
  let isSignedIn = false
  let chainId: string | number = 31337
  const user = () => ({ email: 'me@example.test', address: typeof chainId === 'number' ? evmAddress : solanaAddress, chainId, accounts: [] })
  const answer = (request: FakeRequest): { ok: unknown } | { error: unknown } | undefined => {
    const payload = (request.payload ?? {}) as { chainId?: string | number; method?: string }
    const onNetwork = (id: string | number | undefined) => {
      if (typeof id === 'string' && !solanaClusters.includes(id)) return false
      if (id !== undefined) chainId = id
      return true
    }
    switch (request.type) {
      case 'APP_CONNECT_EMAIL':
        return { ok: { action: 'VERIFY_OTP' } }
      case 'APP_CONNECT_OTP':
        isSignedIn = true
        return { ok: {} }
      case 'APP_IS_CONNECTED':
        return { ok: { isConnected: isSignedIn } }
      case 'APP_GET_USER':
      case 'APP_SWITCH_NETWORK':
        if (!onNetwork(payload.chainId)) return { error: { message: 'Unsupported chain id', code: 'UNSUPPORTED_CHAIN_ID' } }
        return { ok: request.type === 'APP_GET_USER' ? user() : { chainId } }
      case 'APP_GET_CHAIN_ID':
        return { ok: { chainId } }
      case 'APP_SIGN_OUT':
        isSignedIn = false
        return { ok: {} }
      case 'APP_RPC_REQUEST':
        if (payload.method === 'solana_signAndSendTransaction') return { ok: { signature: '5sig' } }
        return payload.method === 'eth_accounts' ? { ok: isSignedIn ? [evmAddress] : [] } : payload.method === 'eth_chainId' ? { ok: '0x7a69' } : undefined
    }
    return request.type.startsWith('APP_SYNC_') ? { ok: {} } : undefined
  }
  const fake = createFakeFrame({ answer })
  // The frame says it is ready as soon as it is loaded.
  const createHost = fake.createHost
  frames.current = { ...fake, createHost: (src) => (queueMicrotask(() => fake.ready()), createHost(src)) }
  return { sent: () => fake.posted.map((p) => p.message.type) }
}

const widgets: Widget[] = []
afterEach(() => widgets.splice(0).forEach((widget) => widget.destroy()))
function page({ storage = createMemoryStorage(), networks = [evm, solana] }: { storage?: ReturnType<typeof createMemoryStorage>; networks?: (typeof evm | typeof solana)[] } = {}) {
  const widget = createWidget({ projectId: 'demo', networks, window: new EventTarget() as Window, storage: createWidgetStorage({ storage }), auth: { frameUrl: 'https://frame.test/' } })
  widgets.push(widget)
  return { widget, storage }
}
async function emailLogin(widget: Widget) {
  await widget.ready()
  await widget.auth!.submitEmail('me@example.test')
  await widget.auth!.submitOtp('123456')
}

describe('e-mail login with EVM and Solana networks', () => {
  it('starts with the whole idle login state, the Farcaster URI included, and comes back to it after a login', async () => {
    startFrame()
    const { widget } = page()
    await widget.ready()
    // toStrictEqual: a field left out (farcasterUri was) is not the same as one that is undefined.
    expect(widget.auth!.store.getState()).toStrictEqual(initialAuthLoginState)
    await emailLogin(widget)
    expect(widget.auth!.store.getState()).toStrictEqual(initialAuthLoginState)
  })

  it('connects both families from the one login, the EVM one active, and stores both', async () => {
    startFrame()
    const { widget, storage } = page()
    await emailLogin(widget)
    const { namespaces, activeNamespace, address } = widget.getState()
    expect(activeNamespace).toBe('eip155')
    expect(address).toBe(evmAddress)
    expect(namespaces.eip155).toMatchObject({ status: 'connected', connectorId: 'auth', caipAddress: `eip155:31337:${evmAddress}` })
    expect(namespaces.solana).toMatchObject({ status: 'connected', connectorId: 'auth', address: solanaAddress, caipAddress: `${cluster}:${solanaAddress}`, connectedWalletInfo: { name: 'Embedded wallet' } })
    expect(JSON.parse(storage.getItem('tessera:v1:connectedConnectorIds')!)).toEqual({ solana: 'auth', eip155: 'auth' })
    expect(widget.getConnectedConnector('solana')).toMatchObject({ namespace: 'solana', type: 'AUTH' })
  })

  it('a site’s sign-and-send on the embedded wallet’s Solana side is reviewed first: the frame is asked only after Continue, and a decline never reaches it', async () => {
    const frame = startFrame()
    const { widget } = page()
    await emailLogin(widget)
    type SignAndSend = { signAndSendTransaction: (transaction: Uint8Array, address: string, caipNetworkId: string) => Promise<string> }
    const solanaSide = widget.getConnectedConnector('solana') as unknown as SignAndSend
    const asked = () => frame.sent().filter((type) => type === 'APP_RPC_REQUEST').length
    const before = asked()

    const declined = solanaSide.signAndSendTransaction(new Uint8Array([1, 2]), solanaAddress, cluster)
    await expect.poll(() => widget.reviewStore.getState().pending?.method).toBe('solana_signTransaction')
    widget.decideReview(false)
    await expect(declined).rejects.toMatchObject({ code: 4001 })
    expect(asked()).toBe(before)

    const sent = solanaSide.signAndSendTransaction(new Uint8Array([1, 2]), solanaAddress, cluster)
    await expect.poll(() => widget.reviewStore.getState().pending?.status).toBe('ready')
    expect(asked()).toBe(before)
    widget.decideReview(true)
    await expect(sent).resolves.toBe('5sig')
    expect(asked()).toBe(before + 1)
  })

  it('disconnecting the Solana family signs out once and ends both families (SPEC §4)', async () => {
    const frame = startFrame()
    const { widget, storage } = page()
    await emailLogin(widget)
    await widget.disconnect('solana')
    expect(frame.sent().filter((type) => type === 'APP_SIGN_OUT')).toHaveLength(1)
    expect(widget.getState().namespaces.eip155!.status).toBe('disconnected')
    expect(widget.getState().namespaces.solana!.status).toBe('disconnected')
    expect(storage.getItem('tessera:v1:connectedConnectorIds')).toBeNull()
  })

  it('disconnecting the EVM family ends the Solana one too', async () => {
    const frame = startFrame()
    const { widget } = page()
    await emailLogin(widget)
    await widget.disconnect()
    expect(frame.sent().filter((type) => type === 'APP_SIGN_OUT')).toHaveLength(1)
    expect([widget.getState().namespaces.eip155!.status, widget.getState().namespaces.solana!.status]).toEqual(['disconnected', 'disconnected'])
  })

  it('a reload keeps both families connected, each with its own account', async () => {
    startFrame()
    const first = page()
    await emailLogin(first.widget)
    first.widget.destroy()
    // The same frame (its login kept) for the page loaded again.
    const { widget } = page({ storage: first.storage })
    await widget.reconnect()
    expect(widget.getState().namespaces.eip155).toMatchObject({ status: 'connected', address: evmAddress, activeCaipNetworkId: 'eip155:31337' })
    expect(widget.getState().namespaces.solana).toMatchObject({ status: 'connected', address: solanaAddress, activeCaipNetworkId: cluster })
  })

  it('a Solana side the frame cannot open leaves the login connected on EVM only', async () => {
    startFrame({ solanaClusters: [] })
    const { widget } = page()
    await emailLogin(widget)
    expect(widget.getState().namespaces.eip155!.status).toBe('connected')
    expect(widget.getState().namespaces.solana!.status).toBe('disconnected')
    expect(widget.auth!.store.getState()).toMatchObject({ step: 'email', error: undefined })
  })

  it('a site without Solana networks connects the EVM account only, and never asks for the Solana one', async () => {
    const frame = startFrame()
    const { widget } = page({ networks: [evm] })
    await emailLogin(widget)
    expect(widget.getState()).toMatchObject({ status: 'connected', address: evmAddress })
    expect(widget.getState().namespaces.solana).toBeUndefined()
    expect(frame.sent().filter((type) => type === 'APP_GET_USER')).toHaveLength(1)
  })
})
