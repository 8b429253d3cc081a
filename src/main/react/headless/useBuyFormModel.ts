import { useEffect } from 'react'
import type { BuyController, BuyState } from '../../widget/createBuyController'
import { useStoreSelector, useWidgetState } from '../WidgetProvider'
import type { ReadBuyFormReturnType } from './buyModel'
import type * as buyModelModule from './buyModel'

/** The Buy module (buyModel.ts), as the Buy view imports it or `useBuy` loads it. */
export type BuyModel = typeof buyModelModule

const noStore = { getState: () => undefined, subscribe: () => () => {} }

/** A window for the provider's checkout, opened in the click itself so that no popup blocker stops it; it never gets a handle on ours. */
export function openCheckoutWindow() {
  const opened = window.open('about:blank', '_blank')
  if (opened) opened.opener = null
  return opened
}

export type BuyFormModel = Partial<ReadBuyFormReturnType> & {
  /** The form's state; undefined until Buy's code has loaded. */
  state: BuyState | undefined
  /** Opens the chosen provider's checkout in a window of its own: call it in the click itself (a popup blocker allows it only there). */
  checkout: () => Promise<void>
  /** Opens the checkout again after the visitor closed its window while the order waited for payment. */
  reopen: () => void
}

/**
 * The Buy form as the Buy view and `useBuy` run it: the assets read for the account and network, every provider
 * quoted once the form rests, and what the view says of it.
 */
export function useBuyFormModel(buy: BuyController, model: BuyModel): BuyFormModel & { state: BuyState }
export function useBuyFormModel(buy: BuyController | undefined, model: BuyModel | undefined): BuyFormModel
export function useBuyFormModel(buy: BuyController | undefined, model: BuyModel | undefined): BuyFormModel {
  const state = useStoreSelector((buy?.store ?? noStore) as typeof noStore, () => buy?.store.getState())
  const caipNetworkId = useWidgetState((s) => s.activeCaipNetworkId)
  useEffect(() => {
    void buy?.load()
  }, [buy, caipNetworkId])
  const [amount, currency, method, asset] = [state?.amount, state?.currency, state?.method, state?.asset]
  const quoteDelayMs = model?.BUY_QUOTE_DELAY_MS
  useEffect(() => {
    if (!buy || quoteDelayMs === undefined) return
    const timer = setTimeout(() => void buy.refreshQuotes(), quoteDelayMs)
    return () => clearTimeout(timer)
  }, [buy, quoteDelayMs, amount, currency, method, asset])
  const read = state && model ? model.readBuyForm(state) : undefined
  return {
    state,
    ...read,
    checkout: async () => {
      if (buy && read?.canContinue) await buy.checkout(openCheckoutWindow())
    },
    reopen: () => buy?.reopen(openCheckoutWindow()),
  }
}
