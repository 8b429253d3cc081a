import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { bitcoinNetworks } from '../../../shared/protocol/addresses/bitcoin'
import type { BitcoinTransfer } from '../../../shared/protocol/core/bitcoinApi'
import { createWidgetError } from '../../../shared/protocol/errors'
import type { Core } from '../../core/createCore'
import { createNotifications } from '../../state/createNotifications'
import { createRouter } from '../../state/createRouter'
import type { WidgetNetwork } from '../../widget/config'
import type { NamespaceConnector } from '../types'
import { createSendController } from './send'

const LOCAL = bitcoinNetworks.regtest.caipNetworkId
const SENDER = 'bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuw'
const SENDER_KEY = '02'.padEnd(66, 'a')
const RECEIVER = 'bcrt1qkf7j3rkd7qd4j0kf23g6x0mmczaykvtwywskqn'
const MAINNET_ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'
const TXID = 'ab'.repeat(32)
const localNetwork: WidgetNetwork = {
  chainNamespace: 'bip122',
  caipNetworkId: LOCAL,
  id: LOCAL.slice('bip122:'.length),
  name: 'Bitcoin Local',
  nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 },
  rpcUrls: { default: { http: ['http://127.0.0.1:3002'] } },
}
const transfer: BitcoinTransfer = {
  psbtBase64: 'cHNidP8BAA==',
  fee: 141n,
  feeRate: 1,
  vsize: 141,
  inputs: [
    { txid: '11'.repeat(32), vout: 0, value: 5_000_000_000n },
    { txid: '22'.repeat(32), vout: 1, value: 2_500_000_000n },
  ],
  change: 7_399_999_859n,
}

function setup({ build = vi.fn().mockResolvedValue(transfer), confirmation = () => Promise.resolve({ txid: TXID, blockHeight: 500, blockHash: 'cd'.repeat(32) }) as Promise<unknown> } = {}) {
  const notifications = createNotifications()
  const router = createRouter('Send')
  const bitcoin = {
    getBalance: vi.fn().mockResolvedValue({ confirmed: 7_500_000_000n, pending: 0n }),
    buildTransfer: build,
    finalizeAndBroadcast: vi.fn().mockResolvedValue(TXID),
    waitForConfirmation: vi.fn(confirmation),
  }
  const connector = {
    namespace: 'bip122',
    bitcoinAccounts: () => [{ address: SENDER, purpose: 'payment', publicKey: SENDER_KEY }],
    signPsbt: vi.fn().mockResolvedValue('c2lnbmVk'),
  }
  const onConfirmed = vi.fn()
  const send = createSendController({
    core: { bitcoin } as unknown as Core,
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
  return { send, bitcoin, connector, notifications, router, onConfirmed, fill, toast: () => notifications.store.getState() }
}

describe('bitcoin send controller', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('lists the account’s BTC: confirmed and pending, 8 decimals', async () => {
    const { send, bitcoin } = setup()
    bitcoin.getBalance.mockResolvedValue({ confirmed: 150_000_000n, pending: -20_000n })
    await send.loadTokenBalances()
    expect(send.store.getState().tokenBalances).toEqual([expect.objectContaining({ symbol: 'BTC', name: 'Bitcoin', chainId: LOCAL, quantity: { decimals: '8', numeric: '1.4998' } })])
  })

  it('takes any Bitcoin address as a receiver, and nothing else', () => {
    const { send } = setup()
    expect(send.isReceiverLike(RECEIVER)).toBe(true)
    expect(send.isReceiverLike(MAINNET_ADDRESS)).toBe(true)
    expect(send.isReceiverLike('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe(false)
  })

  it('shows the fee the worker prices, from the payment account (with its key) to the receiver, in sats', async () => {
    const { send, bitcoin, fill } = setup()
    await fill('0.1', RECEIVER)
    await send.estimate()
    expect(bitcoin.buildTransfer).toHaveBeenCalledWith({ caipNetworkId: LOCAL, from: { address: SENDER, publicKey: SENDER_KEY }, to: RECEIVER, amount: 10_000_000n })
    expect(send.store.getState()).toMatchObject({ networkFee: { amount: '0.00000141', symbol: 'BTC' }, feeReserve: '0.00000141', error: undefined })
  })

  it('says an address of another network at once, naming both networks, and asks the worker nothing', async () => {
    const { send, bitcoin, fill } = setup()
    await fill('0.1', MAINNET_ADDRESS)
    await send.estimate()
    expect(bitcoin.buildTransfer).not.toHaveBeenCalled()
    expect(send.store.getState().error).toEqual({
      code: 'BITCOIN_ADDRESS_WRONG_NETWORK',
      params: { addressNetwork: 'Bitcoin mainnet', network: 'Bitcoin Local' },
      message: 'This is a Bitcoin mainnet address; the selected network is Bitcoin Local',
    })
  })

  it.each([
    ['dust', createWidgetError('BITCOIN_AMOUNT_BELOW_DUST', { params: { dust: '294' } }), 'The amount is below the dust limit: send at least 294 sats to this address'],
    ['more than the account can spend', createWidgetError('BITCOIN_INSUFFICIENT_FUNDS', { params: { fee: '141', available: '5000' } }), 'The amount and its network fee of 141 sats are more than the 5000 sats this account can spend'],
  ])('says %s (the worker’s rule) before anything is sent', async (_name, error, message) => {
    const { send, fill } = setup({ build: vi.fn().mockRejectedValue(error) })
    await fill('0.00000001', RECEIVER)
    await send.estimate()
    expect(send.store.getState()).toMatchObject({ networkFee: undefined, error: { code: error.code, message } })
  })

  it('asks the worker nothing for an amount the form already refuses (more than the balance)', async () => {
    const { send, bitcoin, fill } = setup()
    await fill('100', RECEIVER)
    await send.estimate()
    expect(bitcoin.buildTransfer).not.toHaveBeenCalled()
    expect(send.store.getState()).toMatchObject({ networkFee: undefined, error: undefined })
  })

  it('keeps quiet when the fee cannot be priced for a reason that is not the form’s, and drops an estimate answered late', async () => {
    let answer!: (value: BitcoinTransfer) => void
    const build = vi.fn().mockImplementationOnce(() => new Promise((resolve) => (answer = resolve))).mockRejectedValueOnce(createWidgetError('HTTP_REQUEST_FAILED'))
    const { send, fill } = setup({ build })
    await fill('0.1', RECEIVER)
    const first = send.estimate()
    send.setAmount('0.2')
    await send.estimate()
    answer(transfer)
    await first
    expect(send.store.getState()).toMatchObject({ networkFee: undefined, error: undefined })
  })

  it('sends: the PSBT built in the worker, signed by the wallet for every input, broadcast by the worker, confirmed after its block', async () => {
    const { send, bitcoin, connector, router, onConfirmed, fill, toast } = setup()
    await fill('0.1', RECEIVER)
    const views: string[] = []
    router.store.subscribe((s) => views.push(s.view))
    expect(await send.send()).toBe(TXID)
    expect(connector.signPsbt).toHaveBeenCalledWith({ psbtBase64: transfer.psbtBase64, address: SENDER, signingIndexes: [0, 1], caipNetworkId: LOCAL })
    expect(bitcoin.finalizeAndBroadcast).toHaveBeenCalledWith({ caipNetworkId: LOCAL, psbtBase64: 'c2lnbmVk' })
    expect(bitcoin.waitForConfirmation).toHaveBeenCalledWith({ caipNetworkId: LOCAL, txid: TXID, pollIntervalMs: 1_000 })
    expect(views).toEqual(['ApproveTransaction', 'Account'])
    expect(toast()).toMatchObject({ message: 'Transaction started', variant: 'success' })
    await vi.advanceTimersByTimeAsync(2_500)
    expect(toast()).toMatchObject({ message: 'Transaction confirmed', variant: 'success', open: true })
    expect(onConfirmed).toHaveBeenCalledWith(TXID)
    expect(bitcoin.getBalance).toHaveBeenLastCalledWith({ caipNetworkId: LOCAL, address: SENDER, force: true })
  })

  it.each([
    ['an amount that is not one', '0.1.2', RECEIVER, 'BITCOIN_AMOUNT_INVALID'],
    ['too many decimals', '0.000000001', RECEIVER, 'BITCOIN_AMOUNT_INVALID'],
    ['an address of another network', '0.1', MAINNET_ADDRESS, 'BITCOIN_ADDRESS_WRONG_NETWORK'],
    ['an address of another family', '0.1', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', 'INVALID_ADDRESS'],
  ])('refuses %s before the wallet is asked or anything is broadcast', async (_name, amount, receiver, code) => {
    const { send, bitcoin, connector, fill } = setup()
    await fill(amount, receiver)
    await expect(send.send()).rejects.toMatchObject({ code })
    expect(send.store.getState()).toMatchObject({ loading: false, error: { code } })
    expect(connector.signPsbt).not.toHaveBeenCalled()
    expect(bitcoin.finalizeAndBroadcast).not.toHaveBeenCalled()
  })

  it('refuses dust the worker finds before the wallet is asked', async () => {
    const { send, bitcoin, connector, fill } = setup({ build: vi.fn().mockRejectedValue(createWidgetError('BITCOIN_AMOUNT_BELOW_DUST', { params: { dust: '294' } })) })
    await fill('0.00000001', RECEIVER)
    await expect(send.send()).rejects.toMatchObject({ code: 'BITCOIN_AMOUNT_BELOW_DUST' })
    expect(connector.signPsbt).not.toHaveBeenCalled()
    expect(bitcoin.finalizeAndBroadcast).not.toHaveBeenCalled()
  })

  it('a refusal in the wallet says so, goes back to the form, and broadcasts nothing', async () => {
    const { send, bitcoin, connector, router, fill, toast } = setup()
    connector.signPsbt.mockRejectedValue(createWidgetError('USER_REJECTED'))
    await fill('0.1', RECEIVER)
    await expect(send.send()).rejects.toMatchObject({ code: 'USER_REJECTED' })
    expect(send.store.getState().error).toMatchObject({ code: 'USER_REJECTED', message: 'User rejected the request.' })
    expect(router.store.getState().view).toBe('Send')
    expect(bitcoin.finalizeAndBroadcast).not.toHaveBeenCalled()
    expect(toast()).toMatchObject({ message: 'User rejected the request.', variant: 'error' })
  })

  it('a refusal by the network is said as a transfer that would fail, never in the node’s words', async () => {
    const { send, bitcoin, fill, toast } = setup()
    bitcoin.finalizeAndBroadcast.mockRejectedValue(createWidgetError('BITCOIN_BROADCAST_REFUSED', { params: { reason: 'bad-txns-inputs-missingorspent' } }))
    await fill('0.1', RECEIVER)
    await expect(send.send()).rejects.toMatchObject({ code: 'BITCOIN_BROADCAST_REFUSED' })
    expect(send.store.getState().error).toMatchObject({ code: 'SEND_WOULD_FAIL' })
    expect(toast()).toMatchObject({ message: 'Failed to send transaction. Please try again.', variant: 'error' })
  })

  it('a wait that ends without a block leaves the outcome unknown, said once Transaction started has had its time', async () => {
    const { send, fill, toast, onConfirmed } = setup({ confirmation: () => Promise.reject(createWidgetError('RPC_TIMEOUT')) })
    await fill('0.1', RECEIVER)
    await send.send()
    await vi.advanceTimersByTimeAsync(2_499)
    expect(toast()).toMatchObject({ message: 'Transaction started' })
    await vi.advanceTimersByTimeAsync(1)
    expect(toast()).toMatchObject({ message: 'The transaction could not be confirmed. Check its status before sending again.', variant: 'error' })
    expect(onConfirmed).not.toHaveBeenCalled()
  })
})
