import type { ErrorNotice } from '../../state/errorNotice'
import type { BuyAsset, BuyController, PaymentMethod } from '../../widget/createBuyController'
import type { Widget } from '../../widget/createWidget'
import { useWidgetState } from '../WidgetProvider'
import { useBuyFormModel, type BuyFormModel } from './useBuyFormModel'
import { useLoaded } from './useLoaded'
import { retryingImport } from '../../lazy/retryingImport'

const buyModelCode = retryingImport(() => import('./buyModel'), 'getBuyController')

/** Buy's controller and rules (the Buy view's code, never the modal's), loaded on first use. */
const loadBuy = (widget: Widget) =>
  widget
    .whenStarted()
    .then(buyModelCode)
    .then((model) => ({ model, buy: model.getBuyController(widget) }))

export type UseBuyReturnType = BuyFormModel & {
  /** Buy's code is loading. */
  isLoading: boolean
  loadError: ErrorNotice | undefined
  /** What the visitor pays, fees included, as a decimal string in `state.currency` ('' or undefined: none). */
  setAmount: (amount: string | undefined) => void
  setCurrency: (currency: string) => void
  setMethod: (method: PaymentMethod) => void
  chooseAsset: (asset: BuyAsset) => void
  /** Picks another provider's quote (the one that gives most is chosen first). */
  chooseProvider: (provider: string) => void
  /** Back to the form after an order. */
  reset: () => void
}

/**
 * The Buy view's form (an on-ramp: a card or a bank transfer), for a site that draws its own: the currencies, methods
 * and assets (`state`), every provider's quote (`state.quotes`, most received first), the amount's `issue`, and
 * `checkout()` (call it in the click), then the order as it goes (`state.order`). The same controller as the widget's
 * view. `state.isRestricted`: not offered in the visitor's time zone.
 * @example const buy = useBuy(); <button disabled={!buy.canContinue} onClick={() => buy.checkout()}>Continue with {buy.quote?.providerName}</button>
 */
export function useBuy(): UseBuyReturnType {
  const isConnected = useWidgetState((s) => s.status === 'connected')
  const loaded = useLoaded(isConnected ? 'buy' : undefined, loadBuy)
  const buy: BuyController | undefined = loaded?.value?.buy
  const form = useBuyFormModel(buy, loaded?.value?.model)
  return {
    ...form,
    isLoading: isConnected && !loaded,
    loadError: loaded?.error,
    setAmount: (amount) => buy?.setAmount(amount),
    setCurrency: (currency) => buy?.setCurrency(currency),
    setMethod: (method) => buy?.setMethod(method),
    chooseAsset: (asset) => buy?.chooseAsset(asset),
    chooseProvider: (provider) => buy?.chooseProvider(provider),
    reset: () => buy?.reset(),
  }
}
