import { describe, expect, it, vi } from 'vitest'
import { createStore } from 'zustand/vanilla'
import type { Address } from 'viem'
import { formatCaipAddress, type CaipNetworkId, type ChainNamespace } from '../../shared/protocol/caip'
import { createWidgetError } from '../../shared/protocol/errors'
import type { NamespaceConnector } from '../families/types'
import { createModal } from '../state/createModal'
import { createNotifications } from '../state/createNotifications'
import { createRouter } from '../state/createRouter'
import { createSignInController } from './createSignInController'
import type { SIWXAccount, SIWXConfig, SIWXSession } from './siwxConfig'
import { disconnectedNamespace, patchNamespace, topFields, type WidgetState } from './widgetState'

const A: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const B: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const C: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const SOLANA = 'solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3' as CaipNetworkId

/** A SIWX whose sessions are one address's on one network, kept in memory. */
function memorySiwx(required: boolean) {
  const sessions = new Map<string, SIWXSession>()
  const key = ({ accountAddress, caipNetworkId }: Pick<SIWXAccount, 'accountAddress' | 'caipNetworkId'>) => `${caipNetworkId}:${accountAddress}`.toLowerCase()
  return {
    sessions,
    createMessage: vi.fn(async (account: SIWXAccount) => `Sign in as ${key(account)}`),
    addSession: vi.fn(async (session: SIWXSession) => void sessions.set(session.caipAddress.toLowerCase(), session)),
    getSessions: vi.fn(async (account: SIWXAccount) => (sessions.has(key(account)) ? [sessions.get(key(account))!] : [])),
    revokeSession: vi.fn(async (account: SIWXAccount) => void sessions.delete(key(account))),
    getRequired: () => required,
  } satisfies SIWXConfig & { sessions: Map<string, SIWXSession> }
}

/** The widget's state, router and modal around a sign-in controller, and the wallet's moves as the connection reports them. */
function setup({ required = false, siwx = memorySiwx(required), isSmartAccount }: { required?: boolean; siwx?: ReturnType<typeof memorySiwx>; isSmartAccount?: () => boolean } = {}) {
  const namespaces = { eip155: disconnectedNamespace('eip155:1'), solana: disconnectedNamespace(SOLANA) }
  const store = createStore<WidgetState>()(() => ({
    ...(topFields(namespaces.eip155) as WidgetState),
    activeNamespace: 'eip155',
    namespaces,
    isSwitchingNamespace: false,
    requestedCaipNetworkIds: ['eip155:1', 'eip155:2', SOLANA],
    connectors: [],
    recentWallets: [],
    themeMode: 'light',
    siwxError: undefined,
    error: undefined,
    wcUri: undefined,
    wcPairingExpiry: undefined,
    wcLinking: undefined,
    wcWallet: undefined,
    wcError: undefined,
  }))
  const router = createRouter()
  const modal = createModal()
  const patch = (ns: ChainNamespace, values: Parameters<typeof patchNamespace>[2]) => store.setState((s) => patchNamespace(s, ns, values))
  const on = (address: string, caipNetworkId: CaipNetworkId) => ({ address, allAccounts: [address], activeCaipNetworkId: caipNetworkId, caipAddress: formatCaipAddress(caipNetworkId, address) })
  const disconnect = vi.fn(async () => patch(store.getState().activeNamespace, disconnectedNamespace(store.getState().activeCaipNetworkId)))
  const signMessage = vi.fn(async (message: string) => `0x${Buffer.from(message).toString('hex')}`)
  const controller = createSignInController({
    siwx: Promise.resolve(siwx),
    store,
    router,
    modal,
    notifications: createNotifications(),
    connectedConnector: () => ({ signMessage }) as unknown as NamespaceConnector,
    disconnect,
    isSmartAccount,
  })
  const view = () => (modal.store.getState().open ? router.store.getState().view : 'closed')
  return {
    store,
    router,
    modal,
    siwx,
    controller,
    disconnect,
    signMessage,
    view,
    /** What connect does: connected, then asked whether to sign in. */
    connect: async (address: Address, caipNetworkId: CaipNetworkId = 'eip155:1', ns: ChainNamespace = 'eip155') => {
      patch(ns, { status: 'connecting' })
      patch(ns, { status: 'connected', connectorId: 'dev', ...on(address, caipNetworkId) })
      return controller.requireSignIn()
    },
    /** The wallet's accountsChanged. */
    switchAccount: (address: Address) => patch('eip155', on(address, store.getState().activeCaipNetworkId)),
    /** The wallet's chainChanged. */
    switchChain: (caipNetworkId: CaipNetworkId) => patch('eip155', on(store.getState().address!, caipNetworkId)),
  }
}

/** Lets what a state change started (asking the SIWX, opening the view) finish. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('sign-in controller: sign-in follows the account', () => {
  it('with sign-in required: a new account asks again, signing signs in as it, a new network asks again, declining disconnects', async () => {
    const page = setup({ required: true })
    expect(await page.connect(A)).toBe(true)
    expect(page.view()).toBe('SIWXSignMessage')
    expect(await page.controller.signIn()).toBe(true)
    expect(page.view()).toBe('closed')

    page.switchAccount(B)
    await settle()
    expect(page.siwx.getSessions).toHaveBeenLastCalledWith({ accountAddress: B, chainId: 1, caipNetworkId: 'eip155:1' })
    expect(page.view()).toBe('SIWXSignMessage')
    expect(await page.controller.signIn()).toBe(true)
    expect(page.signMessage).toHaveBeenLastCalledWith(`Sign in as eip155:1:${B.toLowerCase()}`, B)
    expect([...page.siwx.sessions.keys()]).toEqual([`eip155:1:${A}`.toLowerCase(), `eip155:1:${B}`.toLowerCase()])
    expect(page.view()).toBe('closed')

    page.switchChain('eip155:2')
    await settle()
    expect(page.siwx.getSessions).toHaveBeenLastCalledWith({ accountAddress: B, chainId: 2, caipNetworkId: 'eip155:2' })
    expect(page.view()).toBe('SIWXSignMessage')
    await page.controller.cancelSignIn()
    expect(page.disconnect).toHaveBeenCalledOnce()
    expect(page.store.getState().status).toBe('disconnected')
    expect(page.view()).toBe('closed')
  })

  it('with sign-in optional: a new account asks again and declining only closes; a new network does not ask', async () => {
    const page = setup({ required: false })
    await page.connect(A)
    await page.controller.signIn()
    page.switchAccount(B)
    await settle()
    expect(page.view()).toBe('SIWXSignMessage')
    await page.controller.cancelSignIn()
    expect(page.view()).toBe('closed')
    expect(page.disconnect).not.toHaveBeenCalled()
    expect(page.store.getState()).toMatchObject({ status: 'connected', address: B })

    const asked = page.siwx.getSessions.mock.calls.length
    page.switchChain('eip155:2')
    await settle()
    expect(page.siwx.getSessions).toHaveBeenCalledTimes(asked)
    expect(page.view()).toBe('closed')
  })

  it('does not ask for an account that has a session there, and back on one closes the question asked for the other', async () => {
    const page = setup({ required: true })
    await page.connect(A)
    await page.controller.signIn()
    page.switchAccount(B)
    await settle()
    expect(page.view()).toBe('SIWXSignMessage')
    page.switchAccount(A)
    await settle()
    expect(page.view()).toBe('closed')
    // An address in other letters is the same EVM account: nothing to follow.
    const asked = page.siwx.getSessions.mock.calls.length
    page.switchAccount(A.toLowerCase() as Address)
    await settle()
    expect(page.siwx.getSessions).toHaveBeenCalledTimes(asked)
  })

  it('asks about the account the wallet is on when it moves on while the SIWX answers', async () => {
    const page = setup({ required: true })
    await page.connect(A)
    await page.controller.signIn()
    await page.siwx.addSession({ caipAddress: `eip155:1:${C}`, message: 'm', signature: '0x' })
    // B's answer (no session) comes after C's (signed in): B's question must not open for C.
    let answerB: (sessions: SIWXSession[]) => void = () => {}
    page.siwx.getSessions.mockImplementationOnce(() => new Promise((resolve) => (answerB = resolve)))
    page.switchAccount(B)
    await settle()
    page.switchAccount(C)
    await settle()
    answerB([])
    await settle()
    expect(page.view()).toBe('closed')
  })

  it('keeps asking when the wallet moved on to an account without a session while it signed', async () => {
    const page = setup({ required: true })
    await page.connect(A)
    let sign: (signature: string) => void = () => {}
    page.signMessage.mockImplementationOnce(() => new Promise((resolve) => (sign = resolve)))
    const signing = page.controller.signIn()
    await settle()
    page.switchAccount(B)
    await settle()
    sign('0xa')
    expect(await signing).toBe(true)
    expect([...page.siwx.sessions.keys()]).toEqual([`eip155:1:${A}`.toLowerCase()])
    expect(page.view()).toBe('SIWXSignMessage')
  })

  it('leaves a wallet on a network the site does not offer to Switch Network', async () => {
    const page = setup({ required: true })
    await page.connect(A)
    await page.controller.signIn()
    page.router.reset('UnsupportedChain')
    void page.modal.open()
    page.switchChain('eip155:9')
    await settle()
    expect(page.view()).toBe('UnsupportedChain')
  })

  it('does not ask on connect by itself (the connection asks once), nor when another connected family becomes active', async () => {
    const page = setup({ required: true })
    await page.connect(A)
    await page.controller.signIn()
    expect(page.siwx.getSessions).toHaveBeenCalledTimes(1)
    // A second family connected in the background, then made active (Account's family switch).
    page.store.setState((s) => patchNamespace(s, 'solana', { status: 'connected', address: B, caipAddress: formatCaipAddress(SOLANA, B) }))
    page.store.setState((s) => ({ activeNamespace: 'solana', ...topFields(s.namespaces.solana!) }))
    await settle()
    expect(page.siwx.getSessions).toHaveBeenCalledTimes(1)
    expect(page.view()).toBe('closed')
  })

  it('signs the account out when its family disconnects: on the network it was on and every other network of its family', async () => {
    const page = setup({ required: true })
    await page.connect(A)
    await page.controller.signIn()
    page.switchChain('eip155:2')
    await settle()
    await page.controller.signIn()
    page.switchAccount(B)
    await settle()
    await page.controller.signIn()
    expect(page.siwx.sessions.size).toBe(3)

    await page.disconnect()
    await settle()
    expect(page.siwx.revokeSession.mock.calls.map(([account]) => account)).toEqual([
      { accountAddress: B, chainId: 2, caipNetworkId: 'eip155:2' },
      { accountAddress: B, chainId: 1, caipNetworkId: 'eip155:1' },
    ])
    // Only that account signs out: A's sessions stay until A disconnects.
    expect([...page.siwx.sessions.keys()]).toEqual([`eip155:1:${A}`.toLowerCase(), `eip155:2:${A}`.toLowerCase()])
  })

  it('still signs out when the SIWX fails to revoke on one network', async () => {
    const page = setup({ required: true })
    await page.connect(A)
    await page.controller.signIn()
    page.siwx.revokeSession.mockRejectedValueOnce(createWidgetError('SERVICE_UNREACHABLE'))
    await page.disconnect()
    await settle()
    expect(page.siwx.revokeSession).toHaveBeenCalledTimes(2)
  })

  it('stops following the account after stop()', async () => {
    const page = setup({ required: true })
    await page.connect(A)
    await page.controller.signIn()
    page.controller.stop()
    page.switchAccount(B)
    await page.disconnect()
    await settle()
    expect(page.siwx.getSessions).toHaveBeenCalledTimes(1)
    expect(page.siwx.revokeSession).not.toHaveBeenCalled()
    expect(page.view()).toBe('closed')
  })
})

describe('sign-in controller: what a failed sign-in says', () => {
  const SMART_ACCOUNT_UNSUPPORTED = 'This application might not support Smart Accounts'
  const SIGNATURE_DECLINED = 'Signature declined'
  const INIT_FAILED = 'A problem occurred while trying initialize authentication'
  type Page = ReturnType<typeof setup>
  const siteRefuses = (page: Page) => page.siwx.addSession.mockRejectedValueOnce(new Error('The signature was not made by the message’s address'))
  const walletDeclines = (page: Page) => page.signMessage.mockRejectedValueOnce(createWidgetError('USER_REJECTED'))
  const messageFails = (page: Page) => page.siwx.createMessage.mockRejectedValueOnce(new Error('nonce service down'))

  it.each([
    ['the site refuses a smart account’s signature', SMART_ACCOUNT_UNSUPPORTED, true, siteRefuses],
    ['the site refuses a key’s signature', INIT_FAILED, false, siteRefuses],
    ['a smart account declines to sign', SIGNATURE_DECLINED, true, walletDeclines],
    ['a key declines to sign', SIGNATURE_DECLINED, false, walletDeclines],
    ['there is no message for a smart account to sign', INIT_FAILED, true, messageFails],
  ] as const)('when %s, says “%s”', async (_name, sentence, isSmart, fail) => {
    const page = setup({ required: true, isSmartAccount: () => isSmart })
    await page.connect(A)
    fail(page)
    expect(await page.controller.signIn()).toBe(false)
    expect(page.store.getState().siwxError).toBe(sentence)
    expect(page.view()).toBe('SIWXSignMessage')
    expect(page.siwx.sessions.size).toBe(0)
    // Signing again clears it, and succeeds.
    expect(await page.controller.signIn()).toBe(true)
    expect(page.store.getState().siwxError).toBeUndefined()
  })

  it('takes an account for a key’s when the widget is not told otherwise', async () => {
    const page = setup({ required: true })
    await page.connect(A)
    siteRefuses(page)
    await page.controller.signIn()
    expect(page.store.getState().siwxError).toBe(INIT_FAILED)
  })
})
