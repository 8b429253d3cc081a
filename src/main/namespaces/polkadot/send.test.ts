import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { encodeSs58, polkadotNetworks } from '../../../shared/protocol/addresses/polkadot'
import type { PolkadotTransfer } from '../../../shared/protocol/core/polkadotApi'
import { createWidgetError } from '../../../shared/protocol/errors'
import type { Core } from '../../core/createCore'
import { createNotifications } from '../../state/createNotifications'
import { createRouter } from '../../state/createRouter'
import type { WidgetNetwork } from '../../widget/config'
import type { NamespaceConnector } from '../types'
import { createSendController } from './send'

const LOCAL = polkadotNetworks.local.caipNetworkId
const key = (byte: number) => new Uint8Array(32).fill(byte)
const SENDER = encodeSs58(key(1), 2)
const RECEIVER = encodeSs58(key(2), 2)
const RECEIVER_GENERIC = encodeSs58(key(2), 42)
const RECEIVER_ON_POLKADOT = encodeSs58(key(2), 0)
const HASH = `0x${'ab'.repeat(32)}` as const
const ROC = 1_000_000_000_000n
const localNetwork: WidgetNetwork = {
  chainNamespace: 'polkadot',
  caipNetworkId: LOCAL,
  id: LOCAL.slice('polkadot:'.length),
  name: 'Polkadot Local',
  nativeCurrency: { name: 'Rococo', symbol: 'ROC', decimals: 12 },
  rpcUrls: { default: { http: ['http://127.0.0.1:9944'], webSocket: ['ws://127.0.0.1:9944'] } },
  ss58Prefix: 2,
}
const transfer = {
  payload: { address: SENDER, method: '0x0a03', genesisHash: `0x${'45'.repeat(32)}` },
  raw: { address: SENDER, data: '0x0a03', type: 'payload' },
  fee: 15_000_000n,
  existentialDeposit: 3_333_333n,
  to: RECEIVER,
  validUntilBlock: 80,
} as unknown as PolkadotTransfer
const submission = { hash: HASH, fromBlock: 11, validUntilBlock: 80 }

function setup({ build = vi.fn().mockResolvedValue(transfer), inclusion = () => Promise.resolve({ hash: HASH, blockHash: `0x${'cd'.repeat(32)}`, blockNumber: 11, index: 1, isFinalized: true, isSuccess: true }) as Promise<unknown> } = {}) {
  const notifications = createNotifications()
  const router = createRouter('Send')
  const polkadot = {
    // 10 ROC free, of which the existential deposit stays: 10 ROC - 3,333,333 planck can leave.
    getBalance: vi.fn().mockResolvedValue({ free: 10n * ROC, reserved: 2n * ROC, frozen: 0n, transferable: 10n * ROC - 3_333_333n }),
    buildTransfer: build,
    submitTransfer: vi.fn().mockResolvedValue(submission),
    waitForTransaction: vi.fn(inclusion),
  }
  const connector = { namespace: 'polkadot', signTransfer: vi.fn().mockResolvedValue(`0x01${'ee'.repeat(64)}`) }
  const onConfirmed = vi.fn()
  const send = createSendController({
    core: { polkadot } as unknown as Core,
    notifications,
    router,
    getAccount: () => ({ address: SENDER, caipNetworkId: LOCAL }),
    getNetwork: (id) => (id === LOCAL ? localNetwork : undefined),
    getConnector: () => connector as unknown as NamespaceConnector,
    onConfirmed,
    now: () => 0,
  })
  const fill = async (amount: string, receiver: string) => {
    await send.loadTokenBalances()
    send.setToken(send.store.getState().tokenBalances[0])
    send.setAmount(amount)
    send.setReceiver(receiver)
  }
  return { send, polkadot, connector, notifications, router, onConfirmed, fill, toast: () => notifications.store.getState() }
}

describe('polkadot send controller', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('lists the account’s free balance in the network’s token and decimals', async () => {
    const { send } = setup()
    await send.loadTokenBalances()
    expect(send.store.getState().tokenBalances).toEqual([expect.objectContaining({ symbol: 'ROC', name: 'Rococo', chainId: LOCAL, quantity: { decimals: '12', numeric: '10' } })])
  })

  it('takes any SS58 account address as a receiver, and nothing else', () => {
    const { send } = setup()
    expect(send.isReceiverLike(RECEIVER)).toBe(true)
    expect(send.isReceiverLike(RECEIVER_ON_POLKADOT)).toBe(true)
    expect(send.isReceiverLike('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe(false)
    expect(send.isReceiverLike(`${RECEIVER.slice(0, -1)}x`)).toBe(false)
  })

  it('shows the fee the node prices, in the token; Max keeps the fee and what the account must keep', async () => {
    const { send, polkadot, fill } = setup()
    await fill('1.5', RECEIVER)
    await send.estimate()
    expect(polkadot.buildTransfer).toHaveBeenCalledWith({ caipNetworkId: LOCAL, from: SENDER, to: RECEIVER, amount: 1_500_000_000_000n })
    expect(send.store.getState()).toMatchObject({ networkFee: { amount: '0.000015', symbol: 'ROC' }, feeReserve: '0.000018333333', error: undefined })
  })

  it('takes the generic format (42) of a receiver', async () => {
    const { send, polkadot, fill } = setup()
    await fill('1', RECEIVER_GENERIC)
    await send.estimate()
    expect(polkadot.buildTransfer).toHaveBeenCalledWith(expect.objectContaining({ to: RECEIVER_GENERIC }))
  })

  it('says an address of another network at once, naming both, and asks the worker nothing', async () => {
    const { send, polkadot, fill } = setup()
    await fill('1', RECEIVER_ON_POLKADOT)
    await send.estimate()
    expect(polkadot.buildTransfer).not.toHaveBeenCalled()
    expect(send.store.getState().error).toEqual({
      code: 'POLKADOT_ADDRESS_WRONG_NETWORK',
      params: { addressNetwork: 'Polkadot', network: 'Polkadot Local' },
      message: 'This is a Polkadot address; the selected network is Polkadot Local',
    })
  })

  it.each([
    [
      'an amount that leaves a new account under the existential deposit',
      createWidgetError('POLKADOT_BELOW_EXISTENTIAL_DEPOSIT', { params: { existentialDeposit: '0.000003333333 ROC', minimum: '0.000003333333 ROC' } }),
      'An account must hold at least 0.000003333333 ROC: send at least 0.000003333333 ROC to this address',
    ],
    [
      'more than the account can send while keeping its deposit',
      createWidgetError('POLKADOT_INSUFFICIENT_FUNDS', { params: { fee: '0.000015 ROC', available: '9.999996666667 ROC', existentialDeposit: '0.000003333333 ROC' } }),
      'The amount and its network fee of 0.000015 ROC are more than the 9.999996666667 ROC this account can send while keeping its existential deposit of 0.000003333333 ROC',
    ],
  ])('says %s (the worker’s rule) before anything is signed', async (_name, error, message) => {
    const { send, connector, fill } = setup({ build: vi.fn().mockRejectedValue(error) })
    await fill('0.000001', RECEIVER)
    await send.estimate()
    expect(send.store.getState()).toMatchObject({ networkFee: undefined, error: { code: error.code, message } })
    await expect(send.send()).rejects.toMatchObject({ code: error.code })
    expect(send.store.getState()).toMatchObject({ loading: false, error: { code: error.code, message } })
    expect(connector.signTransfer).not.toHaveBeenCalled()
  })

  it('asks the worker nothing for an amount the form already refuses (more than the balance)', async () => {
    const { send, polkadot, fill } = setup()
    await fill('11', RECEIVER)
    await send.estimate()
    expect(polkadot.buildTransfer).not.toHaveBeenCalled()
    expect(send.store.getState()).toMatchObject({ networkFee: undefined, error: undefined })
  })

  it('sends: built in the worker, signed by the extension, submitted by the worker, confirmed once its block is final', async () => {
    const { send, polkadot, connector, router, onConfirmed, fill, toast } = setup()
    await fill('1.5', RECEIVER)
    const views: string[] = []
    router.store.subscribe((s) => views.push(s.view))
    expect(await send.send()).toBe(HASH)
    expect(connector.signTransfer).toHaveBeenCalledWith(transfer)
    expect(polkadot.submitTransfer).toHaveBeenCalledWith({ caipNetworkId: LOCAL, payload: transfer.payload, signature: `0x01${'ee'.repeat(64)}` })
    expect(polkadot.waitForTransaction).toHaveBeenCalledWith({ caipNetworkId: LOCAL, submission, pollIntervalMs: 1_000, maxWaitMs: 600_000 })
    expect(views).toEqual(['ApproveTransaction', 'Account'])
    expect(toast()).toMatchObject({ message: 'Transaction started', variant: 'success' })
    await vi.advanceTimersByTimeAsync(2_500)
    expect(toast()).toMatchObject({ message: 'Transaction confirmed', variant: 'success', open: true })
    expect(onConfirmed).toHaveBeenCalledWith(HASH)
    expect(polkadot.getBalance).toHaveBeenLastCalledWith({ caipNetworkId: LOCAL, address: SENDER, force: true })
  })

  it('says a transfer whose call failed in its block as failed, not confirmed', async () => {
    const { send, fill, toast, onConfirmed } = setup({ inclusion: () => Promise.resolve({ hash: HASH, isSuccess: false, failure: 'balances.InsufficientBalance' }) })
    await fill('1.5', RECEIVER)
    await send.send()
    await vi.advanceTimersByTimeAsync(2_500)
    expect(toast()).toMatchObject({ message: 'Transaction failed: it was reverted on chain', variant: 'error' })
    expect(onConfirmed).not.toHaveBeenCalled()
  })

  it('says a declined signature in the widget’s words, goes back to the form, and submits nothing', async () => {
    const { send, polkadot, connector, router, fill, toast } = setup()
    connector.signTransfer.mockRejectedValue(createWidgetError('USER_REJECTED', { details: 'Cancelled' }))
    await fill('1.5', RECEIVER)
    await expect(send.send()).rejects.toMatchObject({ code: 'USER_REJECTED' })
    expect(send.store.getState()).toMatchObject({ loading: false, error: { code: 'USER_REJECTED', message: 'User rejected the request.' } })
    expect(router.store.getState().view).toBe('Send')
    expect(polkadot.submitTransfer).not.toHaveBeenCalled()
    expect(toast()).toMatchObject({ message: 'User rejected the request.', variant: 'error' })
  })

  it('says a transfer the era let expire as not sent', async () => {
    const { send, fill, toast } = setup({ inclusion: () => Promise.reject(createWidgetError('POLKADOT_TRANSACTION_NOT_INCLUDED')) })
    await fill('1.5', RECEIVER)
    await send.send()
    await vi.advanceTimersByTimeAsync(2_500)
    expect(toast()).toMatchObject({ message: 'The transaction expired before a block included it: nothing was sent, you can send it again', variant: 'error' })
  })
})
