import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createWidgetError } from '../../../shared/protocol/errors'
import type { Core } from '../../core/createCore'
import { createNotifications } from '../../state/createNotifications'
import { createRouter } from '../../state/createRouter'
import type { NamespaceConnector } from '../types'
import { maxSendable } from '../sendForm'
import { checkSolanaReceiver, createSendController } from './send'

const MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const SENDER = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T'
const RECEIVER = '11111111111111111111111111111112'
const SIGNATURE = '5'.repeat(88)

describe('solana send controller, once the transfer is sent', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  /** Sends 0.5 SOL; the worker's wait for its confirmation ends with `confirmation`. */
  const sendWithConfirmation = async (confirmation: () => Promise<unknown>) => {
    const notifications = createNotifications()
    const solana = {
      getBalance: vi.fn().mockResolvedValue(5_000_000_000n),
      getTokenBalances: vi.fn().mockResolvedValue([]),
      buildTransfer: vi.fn().mockResolvedValue({ transaction: new Uint8Array([1]), lastValidBlockHeight: 100n }),
      estimateFee: vi.fn().mockResolvedValue(5_000n),
      sendTransaction: vi.fn().mockResolvedValue(SIGNATURE),
      waitForConfirmation: vi.fn(confirmation),
    }
    const onConfirmed = vi.fn()
    const send = createSendController({
      core: { solana } as unknown as Core,
      notifications,
      router: createRouter('Send'),
      getAccount: () => ({ address: SENDER, caipNetworkId: MAINNET }),
      getNetwork: () => undefined,
      getConnector: () => ({ signTransaction: vi.fn().mockResolvedValue(new Uint8Array([2])) }) as unknown as NamespaceConnector,
      onConfirmed,
      now: () => 0,
    })
    await send.loadTokenBalances()
    send.setToken(send.store.getState().tokenBalances[0])
    send.setAmount('0.5')
    send.setReceiver(RECEIVER)
    expect(await send.send()).toBe(SIGNATURE)
    expect(solana.waitForConfirmation).toHaveBeenCalledWith({ caipNetworkId: MAINNET, signature: SIGNATURE, lastValidBlockHeight: 100n })
    return { toast: () => notifications.store.getState(), solana, onConfirmed }
  }

  it.each([
    { name: 'a confirmation', confirmation: () => Promise.resolve({ signature: SIGNATURE, slot: 7n, confirmationStatus: 'confirmed' }), message: 'Transaction confirmed', variant: 'success', isConfirmed: true },
    // Failed on chain or expired: the worker says SOLANA_SEND_FAILED, and the spec's sentence for it is shown.
    { name: 'a failure on chain', confirmation: () => Promise.reject(createWidgetError('SOLANA_SEND_FAILED')), message: 'Failed to send transaction. Please try again.', variant: 'error', isConfirmed: false },
    {
      name: 'a wait that timed out',
      confirmation: () => Promise.reject(createWidgetError('RPC_TIMEOUT')),
      message: 'The transaction could not be confirmed. Check its status before sending again.',
      variant: 'error',
      isConfirmed: false,
    },
  ])("shows the outcome of $name once 'Transaction started' has had its time on screen", async ({ confirmation, message, variant, isConfirmed }) => {
    const { toast, solana, onConfirmed } = await sendWithConfirmation(confirmation)
    await vi.advanceTimersByTimeAsync(2_499)
    expect(toast()).toMatchObject({ message: 'Transaction started', variant: 'success', open: true })
    await vi.advanceTimersByTimeAsync(1)
    expect(toast()).toMatchObject({ message, variant, open: true })
    expect(onConfirmed).toHaveBeenCalledTimes(isConfirmed ? 1 : 0)
    // A confirmed transfer changed the balances: they are read again.
    expect(solana.getBalance).toHaveBeenCalledTimes(isConfirmed ? 2 : 1)
  })

  it('says nothing when the widget is destroyed before the confirmation', async () => {
    const { toast } = await sendWithConfirmation(() => Promise.reject(createWidgetError('CORE_DESTROYED')))
    await vi.advanceTimersByTimeAsync(5_000)
    expect(toast()).toMatchObject({ message: 'Transaction started', open: false })
  })
})

describe('solana send form, before anything is sent', () => {
  const setup = () => {
    const solana = {
      getBalance: vi.fn().mockResolvedValue(1_000_000_000n),
      getTokenBalances: vi.fn().mockResolvedValue([]),
      buildTransfer: vi.fn().mockResolvedValue({ transaction: new Uint8Array([1]), lastValidBlockHeight: 100n }),
      estimateFee: vi.fn().mockResolvedValue(5_000n),
      sendTransaction: vi.fn(),
    }
    const signTransaction = vi.fn()
    const send = createSendController({
      core: { solana } as unknown as Core,
      notifications: createNotifications(),
      router: createRouter('Send'),
      getAccount: () => ({ address: SENDER, caipNetworkId: MAINNET }),
      getNetwork: () => undefined,
      getConnector: () => ({ signTransaction }) as unknown as NamespaceConnector,
      now: () => 0,
    })
    return { send, solana, signTransaction }
  }

  it('prices the fee reserve of SOL once from a transfer of the same shape, and Max leaves it', async () => {
    const { send, solana } = setup()
    await send.loadTokenBalances()
    send.setToken(send.store.getState().tokenBalances[0])
    await send.estimate()
    await send.estimate()
    expect(solana.buildTransfer).toHaveBeenCalledTimes(1)
    expect(solana.buildTransfer).toHaveBeenCalledWith({ caipNetworkId: MAINNET, from: SENDER, to: SENDER, amount: 1n, decimals: 9 })
    expect(send.store.getState().feeReserve).toBe('0.000005')
    expect(maxSendable(send.store.getState())).toBe('0.999995')
  })

  it.each([
    ['more than the balance', '1.5', RECEIVER, 'INSUFFICIENT_FUNDS'],
    ['no room for the fee', '1', RECEIVER, 'INSUFFICIENT_FUNDS'],
    ['more decimals than SOL has', '0.0000000001', RECEIVER, 'SOLANA_SEND_INVALID'],
    ['zero', '0', RECEIVER, 'SOLANA_SEND_INVALID'],
    ['not an address', '0.5', '0x00000000000000000000000000000000000000bb', 'SOLANA_SEND_INVALID'],
  ])('refuses %s without building, signing or sending anything', async (_name, amount, receiver, code) => {
    const { send, solana, signTransaction } = setup()
    await send.loadTokenBalances()
    send.setToken(send.store.getState().tokenBalances[0])
    await send.estimate()
    solana.buildTransfer.mockClear()
    send.setAmount(amount)
    send.setReceiver(receiver)
    await send.estimate()
    await expect(send.send()).rejects.toMatchObject({ code })
    expect(solana.buildTransfer).not.toHaveBeenCalled()
    expect(solana.sendTransaction).not.toHaveBeenCalled()
    expect(signTransaction).not.toHaveBeenCalled()
    // The form says what is wrong; the store holds no second sentence.
    expect(send.store.getState().error).toBeUndefined()
  })

  it.each([
    ['no amount', undefined, RECEIVER],
    ['no receiver', '0.5', undefined],
  ])("says 'Please enter a valid amount and receiver address' for %s (SPEC §5)", async (_name, amount, receiver) => {
    const { send, solana } = setup()
    await send.loadTokenBalances()
    send.setToken(send.store.getState().tokenBalances[0])
    if (amount) send.setAmount(amount)
    if (receiver) send.setReceiver(receiver)
    await expect(send.send()).rejects.toMatchObject({ code: 'SOLANA_SEND_INVALID' })
    expect(send.store.getState().error).toEqual({ code: 'SOLANA_SEND_INVALID', message: 'Please enter a valid amount and receiver address' })
    expect(solana.buildTransfer).not.toHaveBeenCalled()
  })

  it.each([
    [RECEIVER, undefined],
    [SENDER, undefined],
    ['0x00000000000000000000000000000000000000bb', { reason: 'badAddress' }],
    ['alice.tessera.id', { reason: 'badAddress' }],
    ['O0Il', { reason: 'badAddress' }],
  ])('reads the receiver %s as %o', (value, expected) => {
    expect(checkSolanaReceiver(value)).toEqual(expected)
  })
})
