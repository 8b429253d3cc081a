import { describe, expect, it, vi } from 'vitest'
import { toHex } from 'viem'
import { createWidgetError } from '../../shared/protocol/errors'
import type { Transaction } from '../../shared/protocol/schemas/entities'
import type { Core } from '../core/createCore'
import { createNotifications } from '../state/createNotifications'
import { createRouter } from '../state/createRouter'
import type { Analytics } from './createAnalytics'
import { createHistoryController } from './createHistoryController'
import { createNamesController } from './createNamesController'
import { createSendController } from './createSendController'

const tx = (id: string, chain: string): Transaction => ({
  id,
  metadata: { operationType: 'send', hash: `0x${id}`, minedAt: '2026-11-01T00:00:00Z', sentFrom: '0xa', sentTo: '0xb', status: 'confirmed', chain },
  transfers: [{ fungible_info: { symbol: 'TSR' }, quantity: { numeric: '1.5' } }],
})

const coreWith = (dataService: Record<string, unknown>) => ({ dataService } as unknown as Core)

describe('history controller', () => {
  it('pages with the cursor, keeping only the connected chain', async () => {
    const getTransactionHistory = vi
      .fn()
      .mockResolvedValueOnce({ data: [tx('1', 'eip155:1'), tx('2', 'eip155:10')], next: 'c1' })
      .mockResolvedValueOnce({ data: [tx('3', 'eip155:1')], next: null })
    const history = createHistoryController({ core: coreWith({ getTransactionHistory }), notifications: createNotifications(), analytics: { track: vi.fn() } as unknown as Analytics, projectId: 'p' })
    await history.fetch({ accountAddress: '0xa', caipNetworkId: 'eip155:1' })
    await history.fetch({ accountAddress: '0xa', caipNetworkId: 'eip155:1', more: true })
    expect(getTransactionHistory.mock.calls.map((c) => c[0].cursor)).toEqual([undefined, 'c1'])
    expect(history.store.getState()).toMatchObject({ next: undefined, empty: false, loading: false })
    expect(history.store.getState().transactions.map((t) => t.id)).toEqual(['1', '3'])
    expect(Object.keys(history.store.getState().transactionsByYear[2026]!)).toEqual(['11'])
  })

  it("shows 'Failed to fetch transactions', tracks the error and marks the list empty", async () => {
    const notifications = createNotifications()
    const show = vi.spyOn(notifications, 'show')
    const track = vi.fn()
    const history = createHistoryController({ core: coreWith({ getTransactionHistory: vi.fn().mockRejectedValue(new Error('down')) }), notifications, analytics: { track } as unknown as Analytics, projectId: 'p' })
    await history.fetch({ accountAddress: '0xa', caipNetworkId: 'eip155:1' })
    expect(history.store.getState()).toMatchObject({ empty: true, next: undefined, loading: false })
    expect(show).toHaveBeenCalledWith('Failed to fetch transactions', { variant: 'error' })
    expect(track).toHaveBeenCalledWith('ERROR_FETCH_TRANSACTIONS', { address: '0xa', projectId: 'p', cursor: undefined, isSmartAccount: false })
  })

  it('needs an account address', async () => {
    const history = createHistoryController({ core: coreWith({}), notifications: createNotifications(), analytics: { track: vi.fn() } as unknown as Analytics, projectId: 'p' })
    await expect(history.fetch({ accountAddress: undefined, caipNetworkId: 'eip155:1' })).rejects.toThrow("Transactions can't be fetched without an accountAddress")
  })
})

describe('send controller', () => {
  const setup = (getBalance = vi.fn().mockResolvedValue({ balances: [] }), now = () => 0) => {
    const notifications = createNotifications()
    const show = vi.spyOn(notifications, 'show')
    const send = createSendController({
      core: { dataService: { getBalance }, request: vi.fn().mockRejectedValue(new Error('no node')) } as unknown as Core,
      notifications,
      router: createRouter(),
      getAccount: () => ({ address: '0x00000000000000000000000000000000000000aa', chainId: 1 }),
      walletRequest: vi.fn(),
      now,
    })
    return { send, show, getBalance }
  }

  it('refuses to send without a token, an amount and a receiver', async () => {
    const { send } = setup()
    await expect(send.send()).rejects.toMatchObject({ code: 'SEND_INPUT_MISSING', details: 'missing: token, amount, receiverAddress' })
    expect(send.store.getState().error).toBe('A token, an amount and a receiver are needed to send')
  })

  it("shows 'Token Balance Unavailable' and blocks retries for 30 s", async () => {
    let t = 0
    const { send, show, getBalance } = setup(vi.fn().mockRejectedValue(createWidgetError('TOKEN_BALANCE_UNAVAILABLE')), () => t)
    await send.loadTokenBalances()
    expect(show).toHaveBeenCalledWith('Token Balance Unavailable', { variant: 'error' })
    t = 29_999
    await send.loadTokenBalances()
    expect(getBalance).toHaveBeenCalledTimes(1)
    t = 30_000
    await send.loadTokenBalances()
    expect(getBalance).toHaveBeenCalledTimes(2)
  })

  it('shows the transaction on the approve view while the wallet decides; Account after, Send again with the reason on refusal', async () => {
    const eth = { name: 'Ether', symbol: 'ETH', chainId: 'eip155:1', value: 10, price: 2, iconUrl: '', quantity: { decimals: '18', numeric: '5' } }
    const answers: { resolve: (hash: string) => void; reject: (error: unknown) => void }[] = []
    const router = createRouter('Send')
    const send = createSendController({
      core: { dataService: { getBalance: vi.fn().mockResolvedValue({ balances: [eth] }) }, request: vi.fn().mockResolvedValue('0x5208'), waitForTransactionReceipt: () => new Promise(() => {}) } as unknown as Core,
      notifications: createNotifications(),
      router,
      getAccount: () => ({ address: '0x00000000000000000000000000000000000000aa', chainId: 1 }),
      walletRequest: () => new Promise((resolve, reject) => answers.push({ resolve, reject })),
    })
    await send.loadTokenBalances()
    send.setToken(send.store.getState().tokenBalances[0])
    send.setAmount('0.25')
    send.setReceiver('0x00000000000000000000000000000000000000bb')
    const first = send.send()
    await vi.waitFor(() => expect(answers).toHaveLength(1))
    expect(router.store.getState()).toMatchObject({ view: 'ApproveTransaction', data: { to: '0x00000000000000000000000000000000000000bb', amount: '0.25', symbol: 'ETH', chainId: 1 } })
    answers[0]!.resolve('0xabc')
    await first
    expect(router.store.getState().view).toBe('Account')

    router.reset('Send')
    await send.loadTokenBalances({ force: true })
    send.setToken(send.store.getState().tokenBalances[0])
    send.setAmount('0.25')
    send.setReceiver('0x00000000000000000000000000000000000000bb')
    const second = send.send()
    await vi.waitFor(() => expect(answers).toHaveLength(2))
    answers[1]!.reject(createWidgetError('USER_REJECTED'))
    await expect(second).rejects.toMatchObject({ code: 'USER_REJECTED' })
    expect(router.store.getState().view).toBe('Send')
    expect(send.store.getState().error).toBe('User rejected the request.')
  })

  it('refuses an amount above the balance before asking the wallet', async () => {
    const eth = { name: 'Ether', symbol: 'ETH', chainId: 'eip155:1', value: 10, price: 2, iconUrl: '', quantity: { decimals: '18', numeric: '5' } }
    const walletRequest = vi.fn()
    const send = createSendController({
      core: { dataService: { getBalance: vi.fn().mockResolvedValue({ balances: [eth] }) }, request: vi.fn().mockResolvedValue('0x5208') } as unknown as Core,
      notifications: createNotifications(),
      router: createRouter('Send'),
      getAccount: () => ({ address: '0x00000000000000000000000000000000000000aa', chainId: 1 }),
      walletRequest,
    })
    await send.loadTokenBalances()
    send.setToken(send.store.getState().tokenBalances[0])
    send.setAmount('5.000000000000000001')
    send.setReceiver('0x00000000000000000000000000000000000000bb')
    await expect(send.send()).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS', field: 'amount', details: '5.000000000000000001 ETH is more than the 5 available' })
    expect(walletRequest).not.toHaveBeenCalled()
  })

  it("drops tokens whose decimals are '0'", async () => {
    const balance = (symbol: string, decimals: string) => ({ name: symbol, symbol, chainId: 'eip155:1', value: 0, price: 0, iconUrl: '', quantity: { decimals, numeric: '1' } })
    const { send } = setup(vi.fn().mockResolvedValue({ balances: [balance('ETH', '18'), balance('NFT', '0')] }))
    await send.loadTokenBalances()
    expect(send.store.getState().tokenBalances.map((b) => b.symbol)).toEqual(['ETH'])
  })
})

describe('names controller', () => {
  it('signs {name, attributes: {}, timestamp in seconds, coinType} and registers it with the same coin type', async () => {
    const registerName = vi.fn().mockResolvedValue({ success: true })
    const walletRequest = vi.fn().mockResolvedValue('0xsig')
    const router = createRouter('RegisterAccountName')
    const names = createNamesController({ core: coreWith({ registerName }), router, getAddress: () => '0x00000000000000000000000000000000000000aa', walletRequest, now: () => 1_700_000_000_999 })
    expect(await names.register('alice')).toBe(true)
    const message = JSON.stringify({ name: 'alice', attributes: {}, timestamp: 1_700_000_000, coinType: 60 })
    expect(registerName).toHaveBeenCalledWith({ name: 'alice', coinType: 60, address: '0x00000000000000000000000000000000000000aa', message, signature: '0xsig' })
    expect(walletRequest.mock.calls[0]![0]).toEqual({ method: 'personal_sign', params: [toHex(message), '0x00000000000000000000000000000000000000aa'] })
    expect(router.store.getState()).toMatchObject({ view: 'RegisterAccountNameSuccess', data: { name: 'alice' } })
  })

  it('returns to the register view with the server’s first reason', async () => {
    const registerName = vi.fn().mockRejectedValue(createWidgetError('NAME_REGISTER_FAILED', { params: { name: 'alice' }, details: 'registerName: alice.tessera.id is already registered' }))
    const router = createRouter('RegisterAccountName')
    const names = createNamesController({ core: coreWith({ registerName }), router, getAddress: () => '0x00000000000000000000000000000000000000aa', walletRequest: vi.fn().mockResolvedValue('0x') })
    expect(await names.register('alice')).toBe(false)
    expect(names.store.getState().error).toBe('Error registering name alice: alice.tessera.id is already registered')
    expect(router.store.getState().view).toBe('RegisterAccountName')
  })
})
