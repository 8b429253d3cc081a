import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Core } from '../core/createCore'
import { createNotifications } from '../state/createNotifications'
import { createBuyController, findBuyIssue, type BuyAsset, type BuyOrder, type BuyQuote, type FiatLimit } from './createBuyController'

const base = 'eip155:8453'
const solana = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const evmAddress = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const solanaAddress = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'
const checkoutUrl = 'https://pay.example/checkout?session=abc123'

const sampleMethods: FiatLimit[] = [
  { id: 'card', min: '10.00', max: '7500.00' },
  { id: 'bank', min: '10.00', max: '25000.00' },
]
const currencies = [{ id: 'USD', methods: sampleMethods }]

const optionsAnswer = (isEstimate = false) => ({
  paymentCurrencies: [],
  purchaseCurrencies: [],
  providers: [
    { id: 'alpha', name: 'Alpha Pay' },
    { id: 'beta', name: 'Beta Ramp' },
  ],
  options: {
    countries: ['US'],
    paymentCurrencies: [
      { id: 'USD', methods: sampleMethods },
      { id: 'EUR', methods: sampleMethods },
    ],
    assets: [
      { network: 'eip155:1', symbol: 'ETH', name: 'Ether', decimals: 18 },
      { network: base, symbol: 'USDC', name: 'USD Coin', decimals: 6, address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
      { network: solana, symbol: 'SOL', name: 'Solana', decimals: 9 },
      { network: 'eip155:10', symbol: 'OP', name: 'Optimism', decimals: 18 },
    ],
  },
  isEstimate,
})

const usdcOnBase: BuyAsset = { network: base, symbol: 'USDC', name: 'USD Coin', decimals: 6, destination: evmAddress }
const solOnSolana: BuyAsset = { network: solana, symbol: 'SOL', name: 'Solana', decimals: 9, destination: solanaAddress }

const quoteOf = (provider: string, purchaseAmount: string): BuyQuote => ({
  provider,
  providerName: provider === 'alpha' ? 'Alpha Pay' : 'Beta Ramp',
  paymentCurrency: 'USD',
  paymentMethod: 'card',
  paymentTotal: '50.00',
  fees: { provider: '1.49', network: '0.01' },
  network: base,
  asset: 'USDC',
  purchaseAmount,
  price: '1.00',
})

const quoteAnswer = (quotes: BuyQuote[], isEstimate = false) => ({
  paymentTotal: { value: '50.00', currency: 'USD' },
  paymentSubtotal: { value: '48.50', currency: 'USD' },
  purchaseAmount: { value: quotes[0]?.purchaseAmount ?? '0', currency: 'USDC' },
  quoteId: 'q-1',
  quotes,
  failures: [],
  isEstimate,
})

const orderOf = (status: BuyOrder['status']): BuyOrder => ({
  orderId: 'order-42',
  provider: 'alpha',
  status,
  network: base,
  asset: 'USDC',
  destination: evmAddress,
  paymentCurrency: 'USD',
  paymentMethod: 'card',
  paymentTotal: '50.00',
  purchaseAmount: '48.50',
  ...(status === 'completed' ? { txHash: '0xfeed' } : {}),
  createdAt: 1,
  updatedAt: 2,
})

type Answers = Partial<Record<string, (args: never) => unknown>>

/** A core whose data service answers from `answers` (each a function of its arguments) and records every call. */
function setUp(answers: Answers = {}, { zone = 'Europe/Paris' }: { zone?: string } = {}) {
  const calls: { method: string; args: unknown }[] = []
  const dataService = new Proxy(
    {},
    {
      get: (_target, method: string) => async (args: never) => {
        calls.push({ method, args })
        const answer = answers[method]
        if (!answer) throw new Error(`unexpected ${method}`)
        return answer(args)
      },
    },
  )
  const core = { dataService } as unknown as Core
  const notifications = createNotifications()
  const onArrived = vi.fn()
  const getAccounts = vi.fn(() => [
    { network: solana, address: solanaAddress },
    { network: base, address: evmAddress },
  ])
  const buy = createBuyController({ core, notifications, getAccounts, partnerUserId: () => 'site-user-7', timeZone: () => zone, onArrived })
  const callsOf = (method: string) => calls.filter((c) => c.method === method)
  return { buy, calls, callsOf, notifications, onArrived, getAccounts }
}

/** A fake checkout window, as the view opens it in the click. */
const fakeWindow = () => ({ location: { href: '' }, closed: false, close: vi.fn() })
const asWindow = (win: ReturnType<typeof fakeWindow>) => win as unknown as Window

/** Loaded options and 50 USD by card quoted for USDC on Base, alpha first; `answers` change any of it. */
async function quotedPurchase(answers: Answers = {}) {
  let status: BuyOrder['status'] = 'pending'
  const setup = setUp({
    getOnrampOptions: () => optionsAnswer(),
    getOnrampQuote: () => quoteAnswer([quoteOf('alpha', '48.50'), quoteOf('beta', '48.10')]),
    generateOnrampUrl: () => ({ url: checkoutUrl, orderId: 'order-42' }),
    getOnrampOrder: () => orderOf(status),
    ...answers,
  })
  await setup.buy.load()
  setup.buy.setAmount('50')
  await setup.buy.refreshQuotes()
  return { ...setup, setStatus: (next: BuyOrder['status']) => (status = next) }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('findBuyIssue', () => {
  it.each([
    ['nothing without an amount', 'card', undefined, undefined],
    ['nothing at the card minimum', 'card', '10', undefined],
    ['nothing within the card limits', 'card', '50', undefined],
    ['nothing at the card maximum', 'card', '7500', undefined],
    ['the card limits below the minimum', 'card', '9.99', { reason: 'limits', min: '10.00', max: '7500.00', currency: 'USD', method: 'card' }],
    ['the card limits above the maximum', 'card', '7500.01', { reason: 'limits', min: '10.00', max: '7500.00', currency: 'USD', method: 'card' }],
    ['the card limits for 8000', 'card', '8000', { reason: 'limits', min: '10.00', max: '7500.00', currency: 'USD', method: 'card' }],
    ['nothing for 8000 by bank (10–25000)', 'bank', '8000', undefined],
    ['the bank limits above 25000', 'bank', '25000.01', { reason: 'limits', min: '10.00', max: '25000.00', currency: 'USD', method: 'bank' }],
    ['not a number', 'card', 'abc', { reason: 'notANumber' }],
  ] as const)('%s', (_name, method, amount, expected) => {
    expect(findBuyIssue({ currencies, currency: 'USD', method, amount })).toEqual(expected)
  })
})

describe('createBuyController', () => {
  describe('load', () => {
    it.each(['Asia/Shanghai', 'Asia/Hong_Kong', 'Asia/Macau'])('offers nothing in %s and asks the data service nothing', async (zone) => {
      const { buy, calls, getAccounts } = setUp({ getOnrampOptions: () => optionsAnswer() }, { zone })
      await buy.load()
      expect(buy.store.getState()).toMatchObject({ isRestricted: true, hasLoaded: true, assets: [], currencies: [], asset: undefined })
      expect(calls).toEqual([])
      expect(getAccounts).not.toHaveBeenCalled()
    })

    it('keeps only the assets on a connected account’s network, paid to that account, and picks the first', async () => {
      const { buy, calls } = setUp({ getOnrampOptions: () => optionsAnswer() })
      await buy.load()
      expect(calls.map((c) => c.method)).toEqual(['getOnrampOptions'])
      const state = buy.store.getState()
      expect(state.assets).toEqual([usdcOnBase, solOnSolana])
      expect(state).toMatchObject({ isRestricted: false, hasLoaded: true, isEstimate: false, asset: usdcOnBase, currency: 'USD', method: 'card' })
      expect(state.currencies.map((c) => c.id)).toEqual(['USD', 'EUR'])
    })

    it('keeps the asset chosen before when it is offered again', async () => {
      const { buy } = setUp({ getOnrampOptions: () => optionsAnswer() })
      await buy.load()
      buy.chooseAsset(solOnSolana)
      await buy.load()
      expect(buy.store.getState().asset).toEqual(solOnSolana)
    })

    it('falls back to the sample options, as estimates, when the options fail', async () => {
      const { buy } = setUp({
        getOnrampOptions: () => {
          throw new Error('unreachable')
        },
      })
      await buy.load()
      expect(buy.store.getState()).toMatchObject({ hasLoaded: true, isEstimate: true, assets: [], asset: undefined, isRestricted: false })
      expect(buy.store.getState().currencies).toEqual([
        { id: 'USD', methods: sampleMethods },
        { id: 'EUR', methods: sampleMethods },
      ])
    })
  })

  describe('refreshQuotes', () => {
    it('asks every provider for the form and keeps the quotes, the first as the chosen provider', async () => {
      const { buy, callsOf } = await quotedPurchase()
      expect(callsOf('getOnrampQuote').map((c) => c.args)).toEqual([{ purchaseCurrency: { id: 'USDC' }, paymentCurrency: { id: 'USD' }, amount: '50', network: base, paymentMethod: 'card' }])
      expect(buy.store.getState()).toMatchObject({ quotes: [quoteOf('alpha', '48.50'), quoteOf('beta', '48.10')], provider: 'alpha', isQuoting: false, isEstimate: false, error: undefined })
    })

    it('drops an answer for a form changed while it was pending', async () => {
      let release: () => void = () => {}
      const { buy, callsOf } = setUp({
        getOnrampOptions: () => optionsAnswer(),
        getOnrampQuote: (args: { amount: string }) =>
          args.amount === '50' ? new Promise((resolve) => (release = () => resolve(quoteAnswer([quoteOf('alpha', '48.50')])))) : quoteAnswer([quoteOf('beta', '97.00')]),
      })
      await buy.load()
      buy.setAmount('50')
      const first = buy.refreshQuotes()
      expect(buy.store.getState().isQuoting).toBe(true)
      buy.setAmount('100')
      await buy.refreshQuotes()
      release()
      await first
      expect(callsOf('getOnrampQuote').map((c) => (c.args as { amount: string }).amount)).toEqual(['50', '100'])
      expect(buy.store.getState()).toMatchObject({ amount: '100', quotes: [quoteOf('beta', '97.00')], provider: 'beta', isQuoting: false })
    })

    it.each([
      ['below the minimum', '5'],
      ['above the card maximum', '8000'],
    ])('asks nothing for an amount %s', async (_name, amount) => {
      const { buy, callsOf } = setUp({ getOnrampOptions: () => optionsAnswer(), getOnrampQuote: () => quoteAnswer([quoteOf('alpha', '1')]) })
      await buy.load()
      buy.setAmount(amount)
      await buy.refreshQuotes()
      expect(callsOf('getOnrampQuote')).toEqual([])
      expect(buy.store.getState()).toMatchObject({ quotes: [], provider: undefined, isQuoting: false })
    })

    it('says the provider could not be reached when the quote fails', async () => {
      const { buy } = await quotedPurchase({
        getOnrampQuote: () => {
          throw new Error('timeout')
        },
      })
      expect(buy.store.getState()).toMatchObject({ quotes: [], isQuoting: false, error: { code: 'ONRAMP_UNAVAILABLE' } })
    })
  })

  describe('checkout', () => {
    it('opens the chosen provider’s checkout in the window and follows the order every 2 s until it arrives', async () => {
      vi.useFakeTimers()
      const { buy, callsOf, notifications, onArrived, setStatus } = await quotedPurchase()
      const win = fakeWindow()
      await buy.checkout(asWindow(win))
      expect(callsOf('generateOnrampUrl').map((c) => c.args)).toEqual([
        {
          destinationWallets: [{ address: evmAddress, blockchains: [base], assets: ['USDC'] }],
          defaultNetwork: base,
          defaultAsset: 'USDC',
          partnerUserId: 'site-user-7',
          presetFiatAmount: 50,
          provider: 'alpha',
          paymentCurrency: 'USD',
          paymentMethod: 'card',
        },
      ])
      expect(win.location.href).toBe(checkoutUrl)
      expect(win.close).not.toHaveBeenCalled()
      expect(buy.store.getState()).toMatchObject({ step: 'following', checkoutUrl, isPopupBlocked: false, isWindowClosed: false, error: undefined })

      // The first read right away: still waiting for payment.
      await vi.advanceTimersByTimeAsync(0)
      expect(callsOf('getOnrampOrder').map((c) => c.args)).toEqual([{ orderId: 'order-42' }])
      expect(buy.store.getState().order?.status).toBe('pending')
      await vi.advanceTimersByTimeAsync(1_999)
      expect(callsOf('getOnrampOrder')).toHaveLength(1)

      setStatus('sent')
      await vi.advanceTimersByTimeAsync(1)
      expect(callsOf('getOnrampOrder')).toHaveLength(2)
      expect(buy.store.getState().order?.status).toBe('sent')
      expect(onArrived).not.toHaveBeenCalled()

      setStatus('completed')
      await vi.advanceTimersByTimeAsync(2_000)
      expect(callsOf('getOnrampOrder')).toHaveLength(3)
      expect(buy.store.getState().order).toEqual(orderOf('completed'))
      expect(notifications.store.getState()).toMatchObject({ code: 'TRANSACTION_CONFIRMED', variant: 'success', open: true })
      expect(onArrived).toHaveBeenCalledTimes(1)
      expect(onArrived).toHaveBeenCalledWith(orderOf('completed'))

      await vi.advanceTimersByTimeAsync(60_000)
      expect(callsOf('getOnrampOrder')).toHaveLength(3)
      expect(onArrived).toHaveBeenCalledTimes(1)
    })

    it('keeps the checkout link when the popup was blocked', async () => {
      vi.useFakeTimers()
      const { buy, callsOf } = await quotedPurchase()
      await buy.checkout(null)
      expect(callsOf('generateOnrampUrl')).toHaveLength(1)
      expect(buy.store.getState()).toMatchObject({ step: 'following', isPopupBlocked: true, checkoutUrl })
      buy.stop()
    })

    it('notices the window closed before paying, and opens the checkout again in a new one', async () => {
      vi.useFakeTimers()
      const { buy, callsOf } = await quotedPurchase()
      const win = fakeWindow()
      await buy.checkout(asWindow(win))
      await vi.advanceTimersByTimeAsync(0)
      expect(buy.store.getState().isWindowClosed).toBe(false)

      win.closed = true
      await vi.advanceTimersByTimeAsync(2_000)
      expect(callsOf('getOnrampOrder')).toHaveLength(2)
      expect(buy.store.getState().isWindowClosed).toBe(true)

      const again = fakeWindow()
      buy.reopen(asWindow(again))
      expect(again.location.href).toBe(checkoutUrl)
      expect(buy.store.getState()).toMatchObject({ isWindowClosed: false, isPopupBlocked: false })

      // The next read looks at the new window, which is open.
      await vi.advanceTimersByTimeAsync(2_000)
      expect(callsOf('getOnrampOrder')).toHaveLength(3)
      expect(buy.store.getState().isWindowClosed).toBe(false)
      buy.stop()
    })

    it.each([
      ['options that are estimates', optionsAnswer(true), false],
      ['a quote that is an estimate', optionsAnswer(false), true],
    ])('never checks out %s, and closes the window', async (_name, options, isQuoteEstimate) => {
      const { buy, callsOf } = await quotedPurchase({
        getOnrampOptions: () => options,
        getOnrampQuote: () => quoteAnswer([quoteOf('alpha', '48.50')], isQuoteEstimate),
      })
      expect(buy.store.getState()).toMatchObject({ isEstimate: true, provider: 'alpha' })
      const win = fakeWindow()
      await buy.checkout(asWindow(win))
      expect(callsOf('generateOnrampUrl')).toEqual([])
      expect(win.close).toHaveBeenCalledTimes(1)
      expect(win.location.href).toBe('')
      expect(buy.store.getState()).toMatchObject({ step: 'form', checkoutUrl: undefined })
    })

    it('goes back to the form and closes the window when the checkout cannot be made', async () => {
      const { buy, callsOf } = await quotedPurchase({
        generateOnrampUrl: () => {
          throw new Error('provider down')
        },
      })
      const win = fakeWindow()
      await buy.checkout(asWindow(win))
      expect(callsOf('generateOnrampUrl')).toHaveLength(1)
      expect(callsOf('getOnrampOrder')).toEqual([])
      expect(win.close).toHaveBeenCalledTimes(1)
      expect(win.location.href).toBe('')
      expect(buy.store.getState()).toMatchObject({ step: 'form', isPopupBlocked: false, checkoutUrl: undefined, error: { code: 'ONRAMP_UNAVAILABLE' } })
    })
  })

  describe('reset', () => {
    it('returns to the form and stops following the order', async () => {
      vi.useFakeTimers()
      const { buy, callsOf } = await quotedPurchase()
      await buy.checkout(asWindow(fakeWindow()))
      await vi.advanceTimersByTimeAsync(0)
      expect(callsOf('getOnrampOrder')).toHaveLength(1)

      buy.reset()
      expect(buy.store.getState()).toMatchObject({ step: 'form', order: undefined, checkoutUrl: undefined, isPopupBlocked: false, isWindowClosed: false, quotes: [], provider: undefined, amount: undefined })
      await vi.advanceTimersByTimeAsync(60_000)
      expect(callsOf('getOnrampOrder')).toHaveLength(1)
    })
  })
})
