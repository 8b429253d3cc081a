import { createStore } from 'zustand/vanilla'
import type * as z from 'zod/mini'
import type { onrampOrderSchema, onrampProviderQuoteSchema } from '../../shared/protocol/schemas/dataService'
import type { Core } from '../core/createCore'
import type { Notifications } from '../state/createNotifications'
import { errorNotice, toErrorNotice, type ErrorNotice } from '../state/errorNotice'

export type BuyQuote = z.infer<typeof onrampProviderQuoteSchema>
export type BuyOrder = z.infer<typeof onrampOrderSchema>
export type PaymentMethod = 'card' | 'bank'
/** What can be bought for one of the visitor's accounts: the asset on the network that account is on. */
export type BuyAsset = { network: string; symbol: string; name: string; decimals: number; destination: string }
export type FiatLimit = { id: PaymentMethod; min: string; max: string }

/**
 * Time zones where Buy is not offered (SPEC §9: several mainland-China, Hong Kong and Macau zones), as IANA names and
 * their aliases.
 */
export const RESTRICTED_TIME_ZONES: ReadonlySet<string> = new Set(['Asia/Shanghai', 'Asia/Chongqing', 'Asia/Chungking', 'Asia/Harbin', 'Asia/Urumqi', 'Asia/Kashgar', 'PRC', 'Asia/Hong_Kong', 'Hongkong', 'Asia/Macau', 'Asia/Macao'])

/** SPEC §8: without options from the data service, the built-in samples (card 10–7,500, bank 10–25,000, USD and EUR). */
const SAMPLE_CURRENCIES: { id: string; methods: FiatLimit[] }[] = ['USD', 'EUR'].map((id) => ({
  id,
  methods: [
    { id: 'card', min: '10.00', max: '7500.00' },
    { id: 'bank', min: '10.00', max: '25000.00' },
  ],
}))

/** How long the amount rests before it is quoted (as Swap's). */
export const BUY_QUOTE_DELAY_MS = 300
/** How often an order is read while the visitor waits, and for how long at most. */
const ORDER_POLL_MS = 2_000
const ORDER_FOLLOW_MS = 45 * 60_000

export type BuyIssue = { reason: 'limits'; min: string; max: string; currency: string; method: PaymentMethod } | { reason: 'notANumber' }

export type BuyState = {
  /** The visitor's time zone is one where buying is not offered: the view says so and offers nothing. */
  isRestricted: boolean
  hasLoaded: boolean
  /** The options are the spec's samples, or the quotes a placeholder: shown as estimates that cannot be bought. */
  isEstimate: boolean
  currencies: { id: string; methods: FiatLimit[] }[]
  assets: BuyAsset[]
  currency: string
  method: PaymentMethod
  /** What the visitor pays, fees included, as a decimal string in `currency`. */
  amount: string | undefined
  asset: BuyAsset | undefined
  /** Every provider's quote for the form, most received first. */
  quotes: BuyQuote[]
  isQuoting: boolean
  /** The provider whose quote the visitor picked (the first, the best, unless they pick another). */
  provider: string | undefined
  /** The hand-off: asking for the checkout, then following the order. */
  step: 'form' | 'opening' | 'following'
  order: BuyOrder | undefined
  /** The provider's checkout page, kept for a blocked popup (a link) and to open it again. */
  checkoutUrl: string | undefined
  isPopupBlocked: boolean
  /** The provider's window was closed while the order still waited for payment. */
  isWindowClosed: boolean
  error: ErrorNotice | undefined
}

const initialBuyState = (): BuyState => ({
  isRestricted: false,
  hasLoaded: false,
  isEstimate: false,
  currencies: [],
  assets: [],
  currency: 'USD',
  method: 'card',
  amount: undefined,
  asset: undefined,
  quotes: [],
  isQuoting: false,
  provider: undefined,
  step: 'form',
  order: undefined,
  checkoutUrl: undefined,
  isPopupBlocked: false,
  isWindowClosed: false,
  error: undefined,
})

export type BuyContext = {
  core: Core | undefined
  notifications: Notifications
  /** The visitor's connected accounts Buy can pay to (eip155 and solana), each with the network it is on. */
  getAccounts: () => { network: string; address: string }[]
  /** The site's id for the visitor (SPEC §7 partnerUserId). */
  partnerUserId: () => string
  /** The visitor's time zone (IANA); the browser's unless a test says otherwise. */
  timeZone?: () => string | undefined
  onArrived?: (order: BuyOrder) => void
}

/** The limits of `method` in `currency`, if offered. */
export const limitOf = (state: Pick<BuyState, 'currencies' | 'currency' | 'method'>) => state.currencies.find((c) => c.id === state.currency)?.methods.find((m) => m.id === state.method)

/** What stops the form from being quoted: an amount outside the method's limits. */
export function findBuyIssue(state: Pick<BuyState, 'currencies' | 'currency' | 'method' | 'amount'>): BuyIssue | undefined {
  if (state.amount === undefined) return undefined
  const amount = Number(state.amount)
  if (!Number.isFinite(amount)) return { reason: 'notANumber' }
  const limit = limitOf(state)
  if (limit && (amount < Number(limit.min) || amount > Number(limit.max))) return { reason: 'limits', min: limit.min, max: limit.max, currency: state.currency, method: state.method }
  return undefined
}

/**
 * Buy (SPEC §1, §7, §9): the amount in a fiat currency, the payment method, the asset on one of the visitor's
 * networks; every configured provider's quote side by side; the chosen provider's checkout in a window of its own;
 * then the order followed (waiting for payment, sent, arrived) through the data service, which the provider reports to.
 * @example const buy = createBuyController(context); await buy.load(); buy.setAmount('50'); await buy.refreshQuotes()
 */
export function createBuyController({ core, notifications, getAccounts, partnerUserId, timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone, onArrived }: BuyContext) {
  const store = createStore<BuyState>()(initialBuyState)
  const formKey = ({ currency, method, amount, asset }: Pick<BuyState, 'currency' | 'method' | 'amount' | 'asset'>) => (amount && asset ? `${currency}|${method}|${amount}|${asset.network}|${asset.symbol}` : undefined)
  let popup: Window | null = null
  let following: ReturnType<typeof setTimeout> | undefined
  /** The order being followed: reads of an order left behind (Buy again) are dropped. */
  let followedOrderId: string | undefined

  async function load() {
    const zone = timeZone()
    if (zone && RESTRICTED_TIME_ZONES.has(zone)) return store.setState({ isRestricted: true, hasLoaded: true })
    if (!core) return
    const accounts = getAccounts()
    try {
      const { options, isEstimate } = await core.dataService.getOnrampOptions()
      const assets = options.assets.flatMap((asset) => {
        const account = accounts.find((a) => a.network === asset.network)
        return account ? [{ network: asset.network, symbol: asset.symbol, name: asset.name, decimals: asset.decimals, destination: account.address }] : []
      })
      const currencies = options.paymentCurrencies.length > 0 ? options.paymentCurrencies : SAMPLE_CURRENCIES
      const { asset, currency } = store.getState()
      store.setState({
        hasLoaded: true,
        isEstimate,
        currencies,
        assets,
        asset: assets.find((a) => a.network === asset?.network && a.symbol === asset?.symbol) ?? assets[0],
        currency: currencies.some((c) => c.id === currency) ? currency : (currencies[0]?.id ?? 'USD'),
      })
    } catch {
      // SPEC §8: the built-in sample options, shown as estimates.
      store.setState({ hasLoaded: true, isEstimate: true, currencies: SAMPLE_CURRENCIES, assets: [] })
    }
  }

  const change = (patch: Partial<BuyState>) => store.setState({ quotes: [], provider: undefined, error: undefined, isQuoting: false, ...patch })

  /** Every provider's quote for the form; an answer for a form changed since is dropped. */
  async function refreshQuotes() {
    const state = store.getState()
    const key = formKey(state)
    const { amount, asset, currency, method } = state
    if (!core || !key || !amount || !asset || findBuyIssue(state) || Number(amount) <= 0) return
    store.setState({ isQuoting: true })
    try {
      const answer = await core.dataService.getOnrampQuote({ purchaseCurrency: { id: asset.symbol }, paymentCurrency: { id: currency }, amount, network: asset.network, paymentMethod: method })
      if (formKey(store.getState()) !== key) return
      store.setState({ quotes: answer.quotes, provider: answer.quotes[0]?.provider, isEstimate: store.getState().isEstimate || answer.isEstimate, error: answer.quotes.length === 0 && !answer.isEstimate ? errorNotice('ONRAMP_UNAVAILABLE') : undefined })
    } catch (error) {
      // SPEC §8: a quote that fails is a placeholder; the form says the provider could not be reached.
      if (formKey(store.getState()) === key) store.setState({ quotes: [], error: toErrorNotice(error, 'ONRAMP_UNAVAILABLE') })
    } finally {
      if (formKey(store.getState()) === key) store.setState({ isQuoting: false })
    }
  }

  /**
   * Continue: the chosen provider's checkout, opened in `window` (opened by the view in the click, so no popup blocker
   * stops it; null when the browser blocked it anyway: the view shows a link), then the order followed.
   */
  async function checkout(window: Window | null) {
    const state = store.getState()
    const quote = state.quotes.find((q) => q.provider === state.provider)
    if (!core || !quote || !state.asset || !state.amount || state.isEstimate || state.step !== 'form') {
      window?.close()
      return
    }
    popup = window
    store.setState({ step: 'opening', error: undefined, isPopupBlocked: window === null, isWindowClosed: false })
    try {
      const { url, orderId } = await core.dataService.generateOnrampUrl({
        destinationWallets: [{ address: state.asset.destination, blockchains: [state.asset.network], assets: [state.asset.symbol] }],
        defaultNetwork: state.asset.network,
        defaultAsset: state.asset.symbol,
        partnerUserId: partnerUserId(),
        presetFiatAmount: Number(state.amount),
        provider: quote.provider,
        paymentCurrency: state.currency,
        paymentMethod: state.method,
      })
      if (!orderId) throw new Error('the data service answered no order')
      // The visitor went back to the form meanwhile: this checkout is dropped.
      if (store.getState().step !== 'opening') return void popup?.close()
      followedOrderId = orderId
      if (popup) popup.location.href = url
      store.setState({ step: 'following', checkoutUrl: url })
      void follow(orderId, Date.now())
    } catch (error) {
      popup?.close()
      popup = null
      store.setState({ step: 'form', isPopupBlocked: false, error: toErrorNotice(error, 'ONRAMP_UNAVAILABLE') })
    }
  }

  /** Reads the order until it lands or fails; notices a checkout window closed before paying. */
  async function follow(orderId: string, startedAt: number) {
    clearTimeout(following)
    const order = await core!.dataService.getOnrampOrder({ orderId }).catch(() => undefined)
    if (store.getState().step !== 'following' || followedOrderId !== orderId) return
    if (order) store.setState({ order, isWindowClosed: order.status === 'pending' && popup !== null && popup.closed })
    if (order?.status === 'completed') {
      notifications.show({ ...errorNotice('TRANSACTION_CONFIRMED') }, { variant: 'success' })
      onArrived?.(order)
      return
    }
    if (order?.status === 'failed' || Date.now() - startedAt > ORDER_FOLLOW_MS) return
    following = setTimeout(() => void follow(orderId, startedAt), ORDER_POLL_MS)
  }

  /** Opens the checkout again (after a blocked popup or a window closed before paying). */
  function reopen(window: Window | null) {
    const { checkoutUrl } = store.getState()
    if (!checkoutUrl || !window) return
    window.location.href = checkoutUrl
    popup = window
    store.setState({ isWindowClosed: false, isPopupBlocked: false })
  }

  return {
    store,
    load,
    refreshQuotes,
    checkout,
    reopen,
    setAmount: (amount: string | undefined) => change({ amount: amount || undefined }),
    setCurrency: (currency: string) => change({ currency }),
    setMethod: (method: PaymentMethod) => change({ method }),
    chooseAsset: (asset: BuyAsset) => change({ asset }),
    chooseProvider: (provider: string) => store.setState({ provider }),
    /** Back to the form for another purchase. */
    reset: () => {
      clearTimeout(following)
      followedOrderId = undefined
      popup = null
      store.setState({ step: 'form', order: undefined, checkoutUrl: undefined, isPopupBlocked: false, isWindowClosed: false, quotes: [], provider: undefined, amount: undefined })
    },
    stop: () => clearTimeout(following),
  }
}

export type BuyController = ReturnType<typeof createBuyController>
