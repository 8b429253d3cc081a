import { afterEach, describe, expect, it, vi } from 'vitest'
import { formatUnits, parseUnits } from '../../shared/protocol/display'
import { createWidgetError } from '../../shared/protocol/errors'
import type { Core } from '../core/createCore'
import { createNotifications } from '../state/createNotifications'
import { createRouter } from '../state/createRouter'
import { createSendFlow, type SendFamily } from './sendFlow'

// A family of no chain: addresses start with 'addr:', amounts have 2 decimals, the worker prices a fee of 0.05 TOK.
const NETWORK = 'test:1'
const SENDER = 'addr:sender'
const RECEIVER = 'addr:receiver'
const TX = 'tx-1'
type Transfer = { fee: bigint }
const TOKEN = { name: 'Token', symbol: 'TOK', chainId: NETWORK, value: 0, price: 0, iconUrl: '', quantity: { decimals: '2', numeric: '10' } }

function setup({ family: options = {}, outcome = () => Promise.resolve({ isSuccess: true }) }: { family?: Partial<SendFamily<Transfer>>; outcome?: () => Promise<{ isSuccess: boolean }> } = {}) {
  // The outcome toasts wait on setTimeout for 'Transaction started' to have its time.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  const notifications = createNotifications()
  const router = createRouter('Send')
  const signAndSubmit = vi.fn().mockResolvedValue({ id: TX, waitForBlock: outcome })
  const family = {
    isAddress: (value: string) => value.startsWith('addr:'),
    receiverOn: (receiver: string | undefined) => {
      if (!receiver?.startsWith('addr:')) throw createWidgetError('INVALID_ADDRESS', { field: 'receiverAddress' })
      return receiver
    },
    parseAmount: (amount: string | undefined) => parseUnits(amount!, 2),
    buildTransfer: vi.fn<SendFamily<Transfer>['buildTransfer']>().mockResolvedValue({ fee: 5n }),
    feeOf: ({ fee }: Transfer) => ({ networkFee: { amount: formatUnits(fee, 2), symbol: 'TOK' }, feeReserve: formatUnits(fee, 2) }),
    readBalances: vi.fn().mockResolvedValue([TOKEN]),
    getSigner: vi.fn(() => signAndSubmit),
    refusals: new Set(['INVALID_ADDRESS', 'INSUFFICIENT_FUNDS']),
    ...options,
  }
  const onConfirmed = vi.fn()
  const send = createSendFlow(
    { core: {} as Core, notifications, router, getAccount: () => ({ address: SENDER, caipNetworkId: NETWORK }), getNetwork: () => undefined, getConnector: vi.fn(), onConfirmed, now: () => 0 },
    family,
  )
  const fill = async (amount: string, receiver: string) => {
    await send.loadTokenBalances()
    send.setToken(send.store.getState().tokenBalances[0])
    send.setAmount(amount)
    send.setReceiver(receiver)
  }
  return { send, family, signAndSubmit, router, onConfirmed, fill, toast: () => notifications.store.getState() }
}

describe('send flow', () => {
  afterEach(() => vi.useRealTimers())

  it('prices the transfer the form holds, from the account to the receiver, with the family’s fee', async () => {
    const { send, family, fill } = setup()
    await fill('1.5', RECEIVER)
    await send.estimate()
    expect(family.readBalances).toHaveBeenCalledWith(expect.anything(), { caipNetworkId: NETWORK, address: SENDER, force: false })
    expect(family.buildTransfer).toHaveBeenCalledWith(expect.anything(), { caipNetworkId: NETWORK, from: SENDER, to: RECEIVER, amount: 150n, token: TOKEN, balances: [TOKEN] })
    expect(send.store.getState()).toMatchObject({ networkFee: { amount: '0.05', symbol: 'TOK' }, feeReserve: '0.05', error: undefined })
  })

  it.each([
    ['no receiver', '1', ''],
    ['a receiver that is no address of the family', '1', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'],
    ['no amount', '', RECEIVER],
    ['an amount the form refuses (more than the balance)', '11', RECEIVER],
  ])('drops the fee and asks the worker nothing for %s', async (_name, amount, receiver) => {
    const { send, family, fill } = setup()
    await fill('1', RECEIVER)
    await send.estimate()
    send.setAmount(amount)
    send.setReceiver(receiver)
    await send.estimate()
    expect(family.buildTransfer).toHaveBeenCalledTimes(1)
    expect(send.store.getState()).toMatchObject({ networkFee: undefined, feeReserve: undefined, error: undefined })
  })

  it('keeps the fee it was priced with for an amount that leaves no room for it', async () => {
    const { send, family, fill } = setup()
    await fill('1', RECEIVER)
    await send.estimate()
    send.setAmount('10')
    await send.estimate()
    expect(family.buildTransfer).toHaveBeenCalledTimes(1)
    expect(send.store.getState()).toMatchObject({ networkFee: { amount: '0.05', symbol: 'TOK' }, feeReserve: '0.05' })
  })

  it('says a refusal of the family’s rules at once, in its own words, and asks the worker nothing', async () => {
    const receiverOn = () => {
      throw createWidgetError('INVALID_ADDRESS', { field: 'receiverAddress' })
    }
    const { send, family, fill } = setup({ family: { receiverOn } })
    await fill('1', RECEIVER)
    await send.estimate()
    expect(family.buildTransfer).not.toHaveBeenCalled()
    expect(send.store.getState()).toMatchObject({ networkFee: undefined, error: { code: 'INVALID_ADDRESS', message: 'Address is invalid.' } })
  })

  it('says a refusal of the worker at once, in its own words', async () => {
    const { send, fill } = setup({ family: { buildTransfer: vi.fn().mockRejectedValue(createWidgetError('INSUFFICIENT_FUNDS')) } })
    await fill('1', RECEIVER)
    await send.estimate()
    expect(send.store.getState()).toMatchObject({ networkFee: undefined, error: { code: 'INSUFFICIENT_FUNDS' } })
  })

  it('keeps quiet when the fee cannot be priced for a reason that is not the form’s, and drops an estimate answered late', async () => {
    let answer!: (value: Transfer) => void
    const buildTransfer = vi.fn().mockImplementationOnce(() => new Promise((resolve) => (answer = resolve))).mockRejectedValueOnce(createWidgetError('HTTP_REQUEST_FAILED'))
    const { send, fill } = setup({ family: { buildTransfer } })
    await fill('1', RECEIVER)
    const first = send.estimate()
    send.setAmount('2')
    await send.estimate()
    answer({ fee: 5n })
    await first
    expect(send.store.getState()).toMatchObject({ networkFee: undefined, error: undefined })
  })

  it('takes back a refusal an estimate said once a later estimate prices the transfer (the balance grew, say)', async () => {
    const buildTransfer = vi.fn().mockRejectedValueOnce(createWidgetError('INSUFFICIENT_FUNDS')).mockResolvedValue({ fee: 5n })
    const { send, fill } = setup({ family: { buildTransfer } })
    await fill('1', RECEIVER)
    await send.estimate()
    expect(send.store.getState().error).toMatchObject({ code: 'INSUFFICIENT_FUNDS' })
    await send.estimate()
    expect(send.store.getState()).toMatchObject({ networkFee: { amount: '0.05', symbol: 'TOK' }, error: undefined })
  })

  it('keeps what a send said (the wallet refused) when a later estimate prices the transfer', async () => {
    const { send, signAndSubmit, fill } = setup()
    signAndSubmit.mockRejectedValue(createWidgetError('USER_REJECTED'))
    await fill('1', RECEIVER)
    await send.send().catch(() => {})
    await send.estimate()
    expect(send.store.getState()).toMatchObject({ networkFee: { amount: '0.05', symbol: 'TOK' }, error: { code: 'USER_REJECTED' } })
  })

  it('sends: the fee on screen before the wallet is asked, the approve view while it decides, then the account and the toasts', async () => {
    const { send, family, signAndSubmit, router, onConfirmed, fill, toast } = setup()
    await fill('1.5', RECEIVER)
    const views: string[] = []
    router.store.subscribe((s) => views.push(s.view))
    signAndSubmit.mockImplementation(async () => {
      expect(send.store.getState().networkFee).toEqual({ amount: '0.05', symbol: 'TOK' })
      expect(router.store.getState().history.at(-1)).toEqual({ view: 'ApproveTransaction', data: { to: RECEIVER, amount: '1.5', symbol: 'TOK', caipNetworkId: NETWORK } })
      return { id: TX, waitForBlock: () => Promise.resolve({ isSuccess: true }) }
    })
    expect(await send.send()).toBe(TX)
    expect(signAndSubmit).toHaveBeenCalledWith({ transfer: { fee: 5n }, to: RECEIVER, amount: '1.5', token: TOKEN, caipNetworkId: NETWORK, from: SENDER })
    expect(views).toEqual(['ApproveTransaction', 'Account'])
    expect(send.store.getState()).toMatchObject({ sendTokenAmount: undefined, receiverAddress: undefined })
    expect(toast()).toMatchObject({ message: 'Transaction started', variant: 'success' })
    await vi.advanceTimersByTimeAsync(2_500)
    expect(toast()).toMatchObject({ message: 'Transaction confirmed', variant: 'success', open: true })
    expect(onConfirmed).toHaveBeenCalledWith(TX)
    expect(family.readBalances).toHaveBeenLastCalledWith(expect.anything(), { caipNetworkId: NETWORK, address: SENDER, force: true })
  })

  it.each([
    // The form says what is wrong with its fields: no second sentence.
    ['a receiver the form refuses, without a second sentence', { receiver: 'nope' }, 'SEND_INPUT_MISSING', undefined],
    ['a refusal of the family’s rules, in its own words', { receiverOn: true }, 'INVALID_ADDRESS', { code: 'INVALID_ADDRESS', message: 'Address is invalid.' }],
    ['a refusal of the worker, in its own words', { build: createWidgetError('INSUFFICIENT_FUNDS') }, 'INSUFFICIENT_FUNDS', { code: 'INSUFFICIENT_FUNDS' }],
    ['any other failure, as ours', { build: createWidgetError('HTTP_REQUEST_FAILED') }, 'HTTP_REQUEST_FAILED', { code: 'SOMETHING_WENT_WRONG', message: 'Something went wrong' }],
  ])('says %s before the wallet is asked', async (_name, { receiver = RECEIVER, build, receiverOn }: { receiver?: string; build?: Error; receiverOn?: boolean }, code, error) => {
    const refuseReceiver = () => {
      throw createWidgetError('INVALID_ADDRESS', { field: 'receiverAddress' })
    }
    const { send, family, router, fill } = setup({ family: { ...(build && { buildTransfer: vi.fn().mockRejectedValue(build) }), ...(receiverOn && { receiverOn: refuseReceiver }) } })
    await fill('1', receiver)
    await expect(send.send()).rejects.toMatchObject({ code })
    expect(send.store.getState()).toMatchObject({ loading: false, error })
    expect(family.getSigner).not.toHaveBeenCalled()
    expect(router.store.getState().view).toBe('Send')
  })

  it('asks no wallet of another family: the form stays and says so', async () => {
    const { send, fill, router, toast } = setup({
      family: {
        getSigner: () => {
          throw createWidgetError('AUTH_CONNECTOR_NOT_FOUND')
        },
      },
    })
    await fill('1', RECEIVER)
    await expect(send.send()).rejects.toMatchObject({ code: 'AUTH_CONNECTOR_NOT_FOUND' })
    expect(send.store.getState()).toMatchObject({ loading: false, error: { code: 'AUTH_CONNECTOR_NOT_FOUND' } })
    expect(router.store.getState().history.map((entry) => entry.view)).toEqual(['Send'])
    expect(toast()).toMatchObject({ message: 'Failed to send transaction. Please try again.', variant: 'error' })
  })

  it('a refusal in the wallet says so and goes back to the form', async () => {
    const { send, signAndSubmit, router, fill, toast } = setup()
    signAndSubmit.mockRejectedValue(createWidgetError('USER_REJECTED'))
    await fill('1', RECEIVER)
    await expect(send.send()).rejects.toMatchObject({ code: 'USER_REJECTED' })
    expect(send.store.getState()).toMatchObject({ loading: false, error: { code: 'USER_REJECTED', message: 'User rejected the request.' } })
    expect(router.store.getState().view).toBe('Send')
    expect(toast()).toMatchObject({ message: 'User rejected the request.', variant: 'error' })
  })

  it.each([
    ['as a transfer that would fail, never in the node’s words', new Set<string>(), 'SEND_WOULD_FAIL'],
    ['in its own words where the family says so', new Set(['POLKADOT_TRANSACTION_STALE']), 'POLKADOT_TRANSACTION_STALE'],
  ])('says a refusal by the network %s', async (_name, submitRefusals, shown) => {
    const { send, signAndSubmit, router, fill, toast } = setup({ family: { submitRefusals } })
    signAndSubmit.mockRejectedValue(createWidgetError('POLKADOT_TRANSACTION_STALE'))
    await fill('1', RECEIVER)
    await expect(send.send()).rejects.toMatchObject({ code: 'POLKADOT_TRANSACTION_STALE' })
    expect(send.store.getState()).toMatchObject({ loading: false, error: { code: shown } })
    expect(router.store.getState().view).toBe('Send')
    expect(toast()).toMatchObject({ message: 'Failed to send transaction. Please try again.', variant: 'error' })
  })

  it.each([
    ['a call that failed in its block', {}, () => Promise.resolve({ isSuccess: false }), 'Transaction failed: it was reverted on chain'],
    ['a wait that ends without a block', {}, () => Promise.reject(createWidgetError('RPC_TIMEOUT')), 'The transaction could not be confirmed. Check its status before sending again.'],
    [
      'a transfer the family says can no longer be included',
      { notIncludedCode: 'POLKADOT_TRANSACTION_NOT_INCLUDED' as const },
      () => Promise.reject(createWidgetError('POLKADOT_TRANSACTION_NOT_INCLUDED')),
      'The transaction expired before a block included it: nothing was sent, you can send it again',
    ],
    ['a wait that ends with an error of no code', {}, () => Promise.reject(new Error('socket closed')), 'The transaction could not be confirmed. Check its status before sending again.'],
    ['an end the family does not know', {}, () => Promise.reject(createWidgetError('POLKADOT_TRANSACTION_NOT_INCLUDED')), 'The transaction could not be confirmed. Check its status before sending again.'],
    ['a destroyed widget (nothing)', {}, () => Promise.reject(createWidgetError('CORE_DESTROYED')), 'Transaction started'],
  ])('says %s once Transaction started has had its time', async (_name, family, outcome, message) => {
    const { send, fill, toast, onConfirmed } = setup({ family, outcome })
    await fill('1', RECEIVER)
    await send.send()
    await vi.advanceTimersByTimeAsync(2_499)
    expect(toast()).toMatchObject({ message: 'Transaction started' })
    await vi.advanceTimersByTimeAsync(1)
    expect(toast()).toMatchObject({ message })
    expect(onConfirmed).not.toHaveBeenCalled()
  })
})
