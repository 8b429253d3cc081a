import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createWidgetError } from '../../../shared/protocol/errors'
import type { Core } from '../../core/createCore'
import { createNotifications } from '../../state/createNotifications'
import { createRouter } from '../../state/createRouter'
import type { NamespaceConnector } from '../types'
import { maxSendable } from '../sendForm'
import { checkEvmReceiver, createSendController } from './send'

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
    expect(router.store.getState()).toMatchObject({ view: 'ApproveTransaction', data: { to: '0x00000000000000000000000000000000000000bb', amount: '0.25', symbol: 'ETH', caipNetworkId: 'eip155:1' } })
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
      expect(core.waitForTransactionReceipt).toHaveBeenCalledWith({ caipNetworkId: 'eip155:1', hash: '0xabc' })
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

  describe('what the form can tell wrong, before any request', () => {
    const eth = { name: 'Ether', symbol: 'ETH', chainId: 'eip155:1', value: 10, price: 2, iconUrl: '', quantity: { decimals: '18', numeric: '5' } }
    const tsr = { name: 'Tessera Token', symbol: 'TSR', chainId: 'eip155:1', address: 'eip155:1:0x00000000000000000000000000000000000000cc', value: 0, price: 0, iconUrl: '', quantity: { decimals: '18', numeric: '10' } }
    /** A controller whose node answers `answer(method)`, counting what it is asked and what the wallet is asked. */
    const setupCounted = (answer: (method: string) => Promise<unknown> = (method) => Promise.resolve(method === 'eth_gasPrice' ? '0x3b9aca00' : '0x5208')) => {
      const request = vi.fn(({ method }: { method: string }) => answer(method))
      const lookupName = vi.fn(async ({ name }: { name: string }) => {
        if (name === 'alice.tessera.id') return { name, addresses: { '60': { address: '0x00000000000000000000000000000000000000dd' } } }
        throw createWidgetError('NAME_RESOLVE_FAILED', { status: 404 })
      })
      const walletRequest = vi.fn().mockResolvedValue('0xabc')
      const send = createSendController({
        core: { dataService: { getBalance: vi.fn().mockResolvedValue({ balances: [eth, tsr] }), lookupName }, request, waitForTransactionReceipt: () => new Promise(() => {}) } as unknown as Core,
        notifications: createNotifications(),
        router: createRouter('Send'),
        ...onMainnet(walletRequest),
      })
      const methods = () => request.mock.calls.map(([{ method }]) => method)
      return { send, request, walletRequest, lookupName, methods }
    }

    it('refuses an amount above the balance without asking the node or the wallet anything about it', async () => {
      const { send, methods, walletRequest } = setupCounted()
      await send.loadTokenBalances()
      send.setToken(send.store.getState().tokenBalances[1])
      send.setAmount('10.000000000000000001')
      send.setReceiver('0x00000000000000000000000000000000000000bb')
      await send.estimate()
      await expect(send.send()).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS', field: 'amount' })
      expect(methods()).toEqual([])
      expect(walletRequest).not.toHaveBeenCalled()
      // The form says it; the store holds no second message.
      expect(send.store.getState().error).toBeUndefined()
    })

    it('prices the native fee reserve once (Max leaves it), and never the transfer of an amount it cannot send', async () => {
      const { send, methods } = setupCounted()
      await send.loadTokenBalances()
      send.setToken(send.store.getState().tokenBalances[0])
      await send.estimate()
      // 1 gwei × 21,000 gas × 2 for the wallet's fee cap.
      expect(send.store.getState().feeReserve).toBe('0.000042')
      expect(maxSendable(send.store.getState())).toBe('4.999958')
      send.setAmount('4.99999')
      send.setReceiver('0x00000000000000000000000000000000000000bb')
      await send.estimate()
      await expect(send.send()).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS', details: 'amount: noRoomForFee' })
      expect(methods()).toEqual(['eth_gasPrice'])
      send.setAmount('4.999958')
      await send.estimate()
      expect(methods()).toEqual(['eth_gasPrice', 'eth_gasPrice', 'eth_estimateGas'])
    })

    it.each([
      ['a revert', createWidgetError('EXECUTION_REVERTED'), { error: { code: 'SEND_WOULD_FAIL', message: 'This transfer would fail on chain. Check the amount and the receiver.' }, isInsufficientGas: false }],
      ['a node that cannot be reached', createWidgetError('RPC_TIMEOUT'), { error: { code: 'SEND_FEE_UNAVAILABLE' }, isInsufficientGas: false }],
      // A token's transfer: the balance that does not pay is the native one, for the gas.
      ['insufficient funds', createWidgetError('INSUFFICIENT_FUNDS'), { error: undefined, isInsufficientGas: true }],
    ])('says %s of the estimate in our words, once', async (_name, failure, expected) => {
      const { send } = setupCounted((method) => (method === 'eth_estimateGas' ? Promise.reject(failure) : Promise.resolve('0x1')))
      await send.loadTokenBalances()
      send.setToken(send.store.getState().tokenBalances[1])
      send.setAmount('1')
      send.setReceiver('0x00000000000000000000000000000000000000bb')
      await send.estimate()
      expect(send.store.getState()).toMatchObject(expected)
      expect(JSON.stringify(send.store.getState().error ?? {})).not.toMatch(/revert|took too long/i)
    })

    it('says an unknown name while it is typed, and sends to a known name’s address', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
      try {
        const { send, walletRequest, lookupName } = setupCounted()
        await send.loadTokenBalances()
        send.setToken(send.store.getState().tokenBalances[1])
        send.setAmount('1')
        send.setReceiver('nobody.tessera.id')
        await vi.advanceTimersByTimeAsync(400)
        expect(send.store.getState().receiverIssue).toEqual({ reason: 'unknownName', name: 'nobody.tessera.id' })
        await expect(send.send()).rejects.toMatchObject({ code: 'NAME_RESOLVE_FAILED' })
        expect(walletRequest).not.toHaveBeenCalled()
        send.setReceiver('alice.tessera.id')
        await vi.advanceTimersByTimeAsync(400)
        expect(send.store.getState().receiverName).toEqual({ name: 'alice.tessera.id', status: 'resolved', address: '0x00000000000000000000000000000000000000dd' })
        await send.send()
        expect(lookupName).toHaveBeenCalledTimes(2)
        const [{ params }] = walletRequest.mock.calls[0] as [{ params: [{ to: string; data: string }] }]
        expect(params[0].to).toBe('0x00000000000000000000000000000000000000cc')
        expect(params[0].data).toContain('00000000000000000000000000000000000000dd')
      } finally {
        vi.useRealTimers()
      }
    })
  })

  it.each([
    ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', undefined],
    ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', undefined],
    ['0xF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266', undefined],
    ['0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266', { reason: 'badChecksum' }],
    ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb9226', { reason: 'badAddress' }],
    ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266a', { reason: 'badAddress' }],
    ['0x1234', { reason: 'badAddress' }],
    ['f39fd6e51aad88f6f4ce6ab8827279cfffb92266', { reason: 'badAddress' }],
    ['0Xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', { reason: 'badAddress' }],
    ['alice.tessera.id', 'name'],
    ['a.b', 'name'],
    ['alice', { reason: 'badAddress' }],
    ['alice..id', { reason: 'badAddress' }],
    ['al ice.id', { reason: 'badAddress' }],
  ])('reads the receiver %s as %o', (value, expected) => {
    expect(checkEvmReceiver(value)).toEqual(expected)
  })

  it("drops tokens whose decimals are '0'", async () => {
    const balance = (symbol: string, decimals: string) => ({ name: symbol, symbol, chainId: 'eip155:1', value: 0, price: 0, iconUrl: '', quantity: { decimals, numeric: '1' } })
    const { send } = setup(vi.fn().mockResolvedValue({ balances: [balance('ETH', '18'), balance('NFT', '0')] }))
    await send.loadTokenBalances()
    expect(send.store.getState().tokenBalances.map((b) => b.symbol)).toEqual(['ETH'])
  })
})
