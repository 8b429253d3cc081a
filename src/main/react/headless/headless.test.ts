import { createElement, type ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createStore } from 'zustand/vanilla'
import type { TokenBalance, Transaction } from '../../../shared/protocol/schemas/entities'
import { initialSendState, type SendState } from '../../families/sendForm'
import type { SendController } from '../../families/types'
import { createMemoryStorage, createWidgetStorage } from '../../storage/createWidgetStorage'
import { ConnectButton } from '../../ui/ConnectButton/ConnectButton'
import type { ConnectButtonRenderProps } from '../../ui/ConnectButton/ConnectButtonCustom'
import { activityRowsOf } from '../../ui/views/activityRows'
import { initialSwapState, type SwapController, type SwapState } from '../../widget/createSwapController'
import type { HistoryController } from '../../widget/createHistoryController'
import { createWidget, type Widget } from '../../widget/createWidget'
import type { ConnectorSummary } from '../../widget/widgetState'
import { WidgetProvider } from '../WidgetProvider'
import { readBuyForm } from './buyModel'
import * as sendFormRules from './sendFormRules'
import * as swapModel from './swapModel'
import { useActivityFeed } from './useActivityFeed'
import { useConnect, useSwitchNetwork } from './useConnection'
import { useSendForm } from './useSendForm'
import { useSendFormModel } from './useSendFormModel'
import { useReview } from './useReview'
import { useSignIn } from './useSignIn'
import { useSwapFormModel } from './useSwapFormModel'
import { useTokenBalances } from './useTokenBalances'
import { useWalletList } from './useWalletList'

const local = { chainNamespace: 'eip155' as const, caipNetworkId: 'eip155:31337', id: 31337, name: 'Tessera Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } } }
const local2 = { ...local, caipNetworkId: 'eip155:31338', id: 31338, name: 'Tessera Local 2' }
const solanaLocal = { chainNamespace: 'solana' as const, caipNetworkId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', id: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', name: 'Solana', nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 }, rpcUrls: { default: { http: ['http://127.0.0.1:8899'] } } }
const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const
const ether: TokenBalance = { name: 'Ether', symbol: 'ETH', chainId: 'eip155:31337', value: 3_000, price: 3_000, iconUrl: '', quantity: { decimals: '18', numeric: '1' } }
const tusd: TokenBalance = { name: 'Tessera USD', symbol: 'TUSD', chainId: 'eip155:31337', address: 'eip155:31337:0x5FbDB2315678afecb367f032d93F642f64180aa3', value: 5_000, price: 1, iconUrl: '', quantity: { decimals: '6', numeric: '5000' } }
const unpriced: TokenBalance = { ...tusd, symbol: 'TSR', name: 'Tessera Token', address: 'eip155:31337:0x0000000000000000000000000000000000000001', value: 0, price: 0 }

const widgets: Widget[] = []
afterEach(() => widgets.splice(0).forEach((widget) => widget.destroy()))

async function startedWidget({ networks = [local, local2], locale }: { networks?: (typeof local | typeof solanaLocal)[]; locale?: string } = {}) {
  const widget = createWidget({ projectId: 'headless', networks, locale, window: new EventTarget() as Window, storage: createWidgetStorage({ storage: createMemoryStorage() }) })
  widgets.push(widget)
  await widget.whenStarted()
  await widget.ready()
  return widget
}

/** Renders `useHook` once (as a server would: no effects) and gives what it returned. */
function renderHook<T>(widget: Widget, useHook: () => T): T {
  let result: T | undefined
  const Probe = () => {
    result = useHook()
    return null
  }
  renderToStaticMarkup(createElement(WidgetProvider, { widget, children: createElement(Probe) }))
  return result!
}

const connector = (id: string, name: string, namespace: ConnectorSummary['namespace'], type: ConnectorSummary['type'] = 'ANNOUNCED'): ConnectorSummary => ({ id, name, imageUrl: undefined, type, rdns: id, namespace })
const connected = (widget: Widget, address: `0x${string}` = ACCOUNT) =>
  widget.store.setState({ status: 'connected', address, caipAddress: `eip155:31337:${address}`, activeCaipNetworkId: 'eip155:31337' as never })

describe('useWalletList', () => {
  it('lists the wallets in Connect’s order: WalletConnect, recent installed, other installed; one entry per wallet with its families', async () => {
    const widget = await startedWidget({ networks: [local, solanaLocal] })
    widget.store.setState({
      connectors: [
        connector('walletConnect', 'WalletConnect', 'eip155', 'WALLET_CONNECT'),
        connector('io.alpha', 'Alpha', 'eip155'),
        connector('io.both', 'Both Wallet', 'eip155'),
        connector('both-solana', 'Both Wallet', 'solana'),
        connector('io.recent', 'Recent Wallet', 'eip155'),
      ],
      recentWallets: [{ id: 'io.recent', name: 'Recent Wallet' }],
    })
    const list = renderHook(widget, () => useWalletList())
    expect(list.wallets.map((w) => [w.name, w.type, w.isRecent])).toEqual([
      ['WalletConnect', 'walletConnect', false],
      ['Recent Wallet', 'installed', true],
      ['Alpha', 'installed', false],
      ['Both Wallet', 'installed', false],
    ])
    expect(list.recent.map((w) => w.id)).toEqual(['io.recent'])
    expect(list.installed.map((w) => w.id)).toEqual(['io.alpha', 'io.both'])
    expect(list.installed[1]!.namespaces).toEqual(['eip155', 'solana'])
    expect(list.more).toEqual([])
    expect(list.hasRegistry).toBe(false)
    // A family's list, as the modal opened with a namespace shows it.
    expect(renderHook(widget, () => useWalletList({ namespace: 'solana' })).wallets.map((w) => w.id)).toEqual(['both-solana'])
  })

  it('connects an installed wallet on the family the visitor is on, and opens the pairing view for WalletConnect', async () => {
    const widget = await startedWidget({ networks: [local, solanaLocal] })
    widget.store.setState({ connectors: [connector('walletConnect', 'WalletConnect', 'eip155', 'WALLET_CONNECT'), connector('io.both', 'Both Wallet', 'eip155'), connector('both-solana', 'Both Wallet', 'solana')], activeNamespace: 'solana' })
    const connect = vi.spyOn(widget, 'connect').mockResolvedValue(undefined)
    const open = vi.spyOn(widget, 'open').mockReturnValue(undefined)
    const list = renderHook(widget, () => useWalletList())
    await list.connect(list.installed[0]!)
    expect(connect).toHaveBeenCalledWith('both-solana', 'solana')
    await list.connect(list.walletConnect[0]!)
    expect(open).toHaveBeenCalledWith({ view: 'ConnectingWalletConnectBasic' })
    await expect(list.connect({ id: 'nope', type: 'installed' })).rejects.toMatchObject({ code: 'WALLET_NOT_FOUND' })
  })
})

describe('useConnect and useSwitchNetwork', () => {
  it('give the status, the last error and the site’s networks', async () => {
    const widget = await startedWidget()
    widget.store.setState({ status: 'connecting', error: { code: 'USER_REJECTED', message: 'User rejected the request' } })
    const result = renderHook(widget, () => ({ connect: useConnect(), networks: useSwitchNetwork() }))
    expect(result.connect).toMatchObject({ status: 'connecting', isConnecting: true, error: { code: 'USER_REJECTED' } })
    expect(result.networks.networks.map((n) => n.caipNetworkId)).toEqual(['eip155:31337', 'eip155:31338'])
    expect(result.networks.activeCaipNetworkId).toBe('eip155:31337')
  })
})

/** A send controller over a store of `state`, its actions recorded. */
function fakeSend(state: Partial<SendState>) {
  const store = createStore<SendState>()(() => ({ ...initialSendState(), ...state }))
  return {
    store,
    loadTokenBalances: vi.fn(async () => {}),
    setToken: vi.fn((token: SendState['token']) => store.setState({ token })),
    setAmount: vi.fn((amount: string) => store.setState({ sendTokenAmount: amount })),
    setReceiver: vi.fn((receiver: string) => store.setState({ receiverAddress: receiver })),
    isReceiverLike: () => true,
    estimate: vi.fn(async () => void store.setState({ feeReserve: '0.01' })),
    reset: vi.fn(),
    send: vi.fn(async () => '0xhash'),
  } satisfies SendController
}

describe('the send form (useSendForm, and the Send view through useSendFormModel)', () => {
  it('says the form is sendable only with a token, an amount within the balance and a receiver', () => {
    const ready = { ...initialSendState(), token: ether, tokenBalances: [ether], receiverAddress: ACCOUNT, feeReserve: '0.01' }
    expect(sendFormRules.readSendForm({ state: ready, amountText: '0.5', locale: 'en' })).toMatchObject({ isSendable: true, amountIssue: undefined, amountUsd: 1_500, nativeToken: ether })
    expect(sendFormRules.readSendForm({ state: ready, amountText: '2', locale: 'en' })).toMatchObject({ isSendable: false, amountIssue: { reason: 'overBalance', symbol: 'ETH' } })
    expect(sendFormRules.readSendForm({ state: { ...ready, receiverAddress: undefined }, amountText: '0.5', locale: 'en' }).isSendable).toBe(false)
    expect(sendFormRules.readSendForm({ state: ready, amountText: '0,5', locale: 'fr' }).isSendable).toBe(true)
    expect(sendFormRules.readSendForm({ state: ready, amountText: '0,5', locale: 'en' }).amountIssue).toEqual({ reason: 'decimalSeparator' })
  })

  it('fills Max with the balance less the priced fee, in the locale’s digits', async () => {
    const send = fakeSend({ token: ether, tokenBalances: [ether] })
    expect(await sendFormRules.maxAmountText(send, 'fr')).toBe('0,99')
    expect(send.estimate).toHaveBeenCalledOnce()
    expect(sendFormRules.defaultToken([tusd, ether])).toBe(ether)
  })

  it('gives the form’s state, its typed amount and its actions to a site', async () => {
    const widget = await startedWidget({ locale: 'fr' })
    const send = fakeSend({ token: ether, tokenBalances: [ether], sendTokenAmount: '0.5', receiverAddress: ACCOUNT, feeReserve: '0.01' })
    const form = renderHook(widget, () => useSendFormModel(send, 'fr', sendFormRules))
    expect(form).toMatchObject({ amountText: '0,5', isSendable: true, amountUsd: 1_500 })
    expect(form.state?.token).toBe(ether)
    form.setReceiver(' 0xabc ')
    expect(send.setReceiver).toHaveBeenCalledWith('0xabc')
    await expect(form.send()).resolves.toBe('0xhash')
  })

  it('loads the family’s controller only once an account is connected', async () => {
    const widget = await startedWidget()
    expect(renderHook(widget, () => useSendForm())).toMatchObject({ isLoading: false, state: undefined, amountText: '' })
    connected(widget)
    expect(renderHook(widget, () => useSendForm())).toMatchObject({ isLoading: true, state: undefined })
  })
})

describe('useTokens (through useTokenBalances, as the Tokens view)', () => {
  it('lists the account’s tokens, the most valuable first, unpriced ones in the network’s order', async () => {
    const widget = await startedWidget()
    const send = fakeSend({ tokenBalances: [unpriced, ether, tusd], hasLoadedBalances: true })
    const result = renderHook(widget, () => useTokenBalances(send))
    expect(result.tokens.map((t) => t.symbol)).toEqual(['TUSD', 'ETH', 'TSR'])
    expect(result.hasLoaded).toBe(true)
    expect(renderHook(widget, () => useTokenBalances(undefined))).toMatchObject({ tokens: [], hasLoaded: false })
  })
})

const transfer = (hash: string, minedAt: string, direction: 'out' | 'in'): Transaction =>
  ({
    id: hash,
    metadata: { operationType: 'send', hash, minedAt, sentFrom: direction === 'out' ? ACCOUNT : '0x1111111111111111111111111111111111111111', sentTo: direction === 'out' ? '0x1111111111111111111111111111111111111111' : ACCOUNT, status: 'confirmed', nonce: 1, chain: 'eip155:31337' },
    transfers: [{ fungible_info: { name: 'Ether', symbol: 'ETH', icon: { url: '' } }, direction, quantity: { numeric: '0.5' }, value: 0, price: 0 }],
  }) as unknown as Transaction

describe('useActivity (through useActivityFeed, as the Activity view)', () => {
  it('gives this widget’s own sends first until the service has them, then the service’s history', async () => {
    const widget = await startedWidget()
    connected(widget)
    const state = { transactions: [transfer('0xaa', '2026-01-02T00:00:00Z', 'in')], trackedTransactions: [transfer('0xbb', '2026-01-03T00:00:00Z', 'out'), transfer('0xAA', '2026-01-02T00:00:00Z', 'in')], loading: false, hasFailed: false, next: undefined }
    const history = { store: createStore(() => state), fetch: vi.fn(async () => {}), watchTracked: vi.fn(() => () => {}) } as unknown as HistoryController
    const { rows } = renderHook(widget, () => useActivityFeed(history, activityRowsOf))
    expect(rows.map((r) => [r.hash, r.direction])).toEqual([
      ['0xbb', 'out'],
      ['0xaa', 'in'],
    ])
  })
})

describe('useSignIn', () => {
  it('says the widget asks for a sign-in while its view is open, with the last failure', async () => {
    const widget = await startedWidget()
    expect(renderHook(widget, () => useSignIn()).isAsked).toBe(false)
    widget.router.reset('SIWXSignMessage')
    await widget.modal.open({})
    widget.store.setState({ siwxError: 'Signature declined' })
    expect(renderHook(widget, () => useSignIn())).toMatchObject({ isAsked: true, error: 'Signature declined' })
  })
})

describe('useReview', () => {
  it('gives the request under review and the visitor’s answers: nothing before, then the pending review, confirm and decline', async () => {
    const widget = await startedWidget()
    expect(renderHook(widget, () => useReview()).pending).toBeUndefined()
    const pending = { id: 7, method: 'eth_sendTransaction' as const, caipNetworkId: 'eip155:31337', status: 'ready' as const, failure: 'unavailable' as const }
    widget.reviewStore.setState({ pending })
    const decide = vi.spyOn(widget, 'decideReview')
    const review = renderHook(widget, () => useReview())
    expect(review.pending).toEqual(pending)
    review.confirm()
    review.decline()
    expect(decide.mock.calls).toEqual([[true], [false]])
  })
})

describe('useSwap and useBuy (through their models, as the views)', () => {
  it('reads the swap form: the quote’s figures, the typed amount’s issue, and whether it can be submitted', async () => {
    const widget = await startedWidget()
    const quote = { toAmount: '3000000000', gas: '150000', priceImpact: 0.3, source: { name: 'Uniswap V2', router: '0x' }, blockNumber: '1' }
    const state: SwapState = { ...initialSwapState(), tokens: [ether, tusd], hasLoadedTokens: true, from: ether, to: tusd, amount: '0.5', quote: quote as unknown as SwapState['quote'], gasPrice: 10n ** 9n }
    const swap = { store: createStore<SwapState>()(() => state), load: vi.fn(async () => {}), isApprovalBatched: () => false, needsApproval: () => false, setAmount: vi.fn(), maxAmount: () => '0.9' } as unknown as SwapController
    const form = renderHook(widget, () => useSwapFormModel(swap, 'en', swapModel, 18))
    expect(form).toMatchObject({ amountText: '0.5', received: '3000', rate: 6000, minimumReceived: '2970', networkFee: '0.00015', canSubmit: true, needsApproval: false })
    expect(swapModel.readSwapForm({ swap, state, amountText: '1e3', locale: 'en', nativeDecimals: 18 })).toMatchObject({ typedIssue: { reason: 'notANumber' }, canSubmit: false })
    form.fillMax()
    expect(swap.setAmount).toHaveBeenCalledWith('0.9')
  })

  it('reads the Buy form: the chosen provider’s quote, the amount outside the limits', () => {
    const base = { currencies: [{ id: 'USD', methods: [{ id: 'card' as const, min: '10.00', max: '7500.00' }] }], currency: 'USD', method: 'card' as const, quotes: [{ provider: 'a' }, { provider: 'b' }], provider: 'b', isQuoting: false, isEstimate: false, step: 'form' as const }
    expect(readBuyForm({ ...base, amount: '50' } as never)).toMatchObject({ issue: undefined, quote: { provider: 'b' }, canContinue: true })
    expect(readBuyForm({ ...base, amount: '5' } as never)).toMatchObject({ issue: { reason: 'limits', min: '10.00', max: '7500.00' }, canContinue: false })
  })
})

describe('ConnectButton.Custom', () => {
  const renderCustom = (widget: Widget, children: (props: ConnectButtonRenderProps) => ReactNode) => renderToStaticMarkup(createElement(WidgetProvider, { widget, children: createElement(ConnectButton.Custom, { children }) }))

  it('gives the site the account, the network and the modal’s actions to draw its own button', async () => {
    const widget = await startedWidget()
    let props: ConnectButtonRenderProps | undefined
    const draw = (given: ConnectButtonRenderProps) => {
      props = given
      return createElement('button', null, given.account ? given.account.displayName : 'Sign up')
    }
    expect(renderCustom(widget, draw)).toBe('<button>Sign up</button>')
    expect(props).toMatchObject({ account: undefined, isConnected: false, status: 'disconnected', network: { name: 'Tessera Local' } })
    connected(widget)
    widget.store.setState({ profileName: undefined })
    expect(renderCustom(widget, draw)).toBe('<button>0x70…dc79C8</button>')
    expect(props).toMatchObject({ isConnected: true, account: { address: ACCOUNT, displayName: '0x70…dc79C8' } })
    const open = vi.spyOn(widget, 'open').mockReturnValue(undefined)
    props!.openAccount()
    props!.openNetworks()
    props!.openConnect()
    expect(open.mock.calls).toEqual([[{ view: 'Account' }], [{ view: 'Networks' }], [{ view: 'Connect' }]])
  })
})
