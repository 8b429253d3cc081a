import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createWidgetError } from '../../../shared/protocol/errors'
import type { Core } from '../../core/createCore'
import { createNotifications } from '../../state/createNotifications'
import { createRouter } from '../../state/createRouter'
import type { NamespaceConnector } from '../types'
import { createSendController } from './send'

/** The account on Ethereum mainnet, its wallet answering requests with `request`. */
const onMainnet = (request: (args: { method: string; params?: unknown }) => Promise<unknown>) => ({
  getAccount: () => ({ address: '0x00000000000000000000000000000000000000aa', caipNetworkId: 'eip155:1' }),
  getNetwork: () => undefined,
  getConnector: () => ({ request }) as unknown as NamespaceConnector,
})

describe('send controller', () => {
  const setup = (getBalance = vi.fn().mockResolvedValue({ balances: [] }), now = () => 0) => {
    const notifications = createNotifications()
    const show = vi.spyOn(notifications, 'show')
    const send = createSendController({
      core: { dataService: { getBalance }, request: vi.fn().mockRejectedValue(new Error('no node')) } as unknown as Core,
      notifications,
      router: createRouter(),
      ...onMainnet(vi.fn()),
      now,
    })
    return { send, show, getBalance }
  }

  it('refuses to send without a token, an amount and a receiver', async () => {
    const { send } = setup()
    await expect(send.send()).rejects.toMatchObject({ code: 'SEND_INPUT_MISSING', details: 'missing: token, amount, receiverAddress' })
    expect(send.store.getState().error).toMatchObject({ code: 'SEND_INPUT_MISSING', message: 'A token, an amount and a receiver are needed to send' })
  })

  it("shows 'Token Balance Unavailable' and blocks retries for 30 s", async () => {
    let t = 0
    const { send, show, getBalance } = setup(vi.fn().mockRejectedValue(createWidgetError('TOKEN_BALANCE_UNAVAILABLE')), () => t)
    await send.loadTokenBalances()
    expect(show).toHaveBeenCalledWith({ code: 'TOKEN_BALANCE_UNAVAILABLE', message: 'Token Balance Unavailable' }, { variant: 'error' })
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
      ...onMainnet(() => new Promise((resolve, reject) => answers.push({ resolve, reject }))),
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
    expect(send.store.getState().error).toMatchObject({ code: 'USER_REJECTED', message: 'User rejected the request.' })
  })

  it('refuses an amount above the balance before asking the wallet', async () => {
    const eth = { name: 'Ether', symbol: 'ETH', chainId: 'eip155:1', value: 10, price: 2, iconUrl: '', quantity: { decimals: '18', numeric: '5' } }
    const walletRequest = vi.fn()
    const send = createSendController({
      core: { dataService: { getBalance: vi.fn().mockResolvedValue({ balances: [eth] }) }, request: vi.fn().mockResolvedValue('0x5208') } as unknown as Core,
      notifications: createNotifications(),
      router: createRouter('Send'),
      ...onMainnet(walletRequest),
    })
    await send.loadTokenBalances()
    send.setToken(send.store.getState().tokenBalances[0])
    send.setAmount('5.000000000000000001')
    send.setReceiver('0x00000000000000000000000000000000000000bb')
    await expect(send.send()).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS', field: 'amount', details: '5.000000000000000001 ETH is more than the 5 available' })
    expect(walletRequest).not.toHaveBeenCalled()
  })

  describe('once the receipt arrives', () => {
    const eth = { name: 'Ether', symbol: 'ETH', chainId: 'eip155:1', value: 10, price: 2, iconUrl: '', quantity: { decimals: '18', numeric: '5' } }
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    })
    afterEach(() => {
      vi.useRealTimers()
    })

    /** Sends 0.25 ETH; the worker's wait for the receipt ends with `receipt`. */
    const sendWithReceipt = async (receipt: () => Promise<unknown>) => {
      const notifications = createNotifications()
      const core = {
        dataService: { getBalance: vi.fn().mockResolvedValue({ balances: [eth] }) },
        request: vi.fn().mockResolvedValue('0x5208'),
        waitForTransactionReceipt: vi.fn(receipt),
        invalidateBalances: vi.fn().mockResolvedValue(undefined),
      }
      const onConfirmed = vi.fn()
      const send = createSendController({ core: core as unknown as Core, notifications, router: createRouter('Send'), ...onMainnet(vi.fn().mockResolvedValue('0xabc')), onConfirmed, now: () => 0 })
      await send.loadTokenBalances()
      send.setToken(send.store.getState().tokenBalances[0])
      send.setAmount('0.25')
      send.setReceiver('0x00000000000000000000000000000000000000bb')
      expect(await send.send()).toBe('0xabc')
      expect(core.waitForTransactionReceipt).toHaveBeenCalledWith({ chainId: 1, hash: '0xabc' })
      return { toast: () => notifications.store.getState(), core, onConfirmed }
    }

    it.each([
      { name: 'a successful receipt', receipt: () => Promise.resolve({ status: 'success' }), message: 'Transaction confirmed', variant: 'success', isMined: true, isConfirmed: true },
      { name: 'a reverted receipt', receipt: () => Promise.resolve({ status: 'reverted' }), message: 'Transaction failed: it was reverted on chain', variant: 'error', isMined: true, isConfirmed: false },
      {
        name: 'a wait that ends without a receipt',
        receipt: () => Promise.reject(createWidgetError('RPC_TIMEOUT')),
        message: 'The transaction could not be confirmed. Check its status before sending again.',
        variant: 'error',
        isMined: false,
        isConfirmed: false,
      },
    ])("shows the outcome of $name once 'Transaction started' has had its time on screen", async ({ receipt, message, variant, isMined, isConfirmed }) => {
      const { toast, core, onConfirmed } = await sendWithReceipt(receipt)
      await vi.advanceTimersByTimeAsync(2_499)
      expect(toast()).toMatchObject({ message: 'Transaction started', variant: 'success', open: true })
      await vi.advanceTimersByTimeAsync(1)
      expect(toast()).toMatchObject({ message, variant, open: true })
      expect(onConfirmed).toHaveBeenCalledTimes(isConfirmed ? 1 : 0)
      // A mined transaction spent gas, whatever its status: the balances are read again.
      expect(core.invalidateBalances).toHaveBeenCalledTimes(isMined ? 1 : 0)
    })

    it('says nothing when the widget is destroyed before the receipt', async () => {
      const { toast } = await sendWithReceipt(() => Promise.reject(createWidgetError('CORE_DESTROYED')))
      await vi.advanceTimersByTimeAsync(5_000)
      expect(toast()).toMatchObject({ message: 'Transaction started', open: false })
    })
  })

  it("drops tokens whose decimals are '0'", async () => {
    const balance = (symbol: string, decimals: string) => ({ name: symbol, symbol, chainId: 'eip155:1', value: 0, price: 0, iconUrl: '', quantity: { decimals, numeric: '1' } })
    const { send } = setup(vi.fn().mockResolvedValue({ balances: [balance('ETH', '18'), balance('NFT', '0')] }))
    await send.loadTokenBalances()
    expect(send.store.getState().tokenBalances.map((b) => b.symbol)).toEqual(['ETH'])
  })
})
