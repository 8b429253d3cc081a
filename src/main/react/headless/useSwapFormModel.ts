import { useEffect, useState } from 'react'
import type { SwapController, SwapState } from '../../widget/createSwapController'
import { useStoreSelector, useWidgetState } from '../WidgetProvider'
import type { ReadSwapFormReturnType } from './swapModel'
import type * as swapModelModule from './swapModel'

/** The swap module (swapModel.ts), as the Swap view imports it or `useSwap` loads it. */
export type SwapModel = typeof swapModelModule

const noStore = { getState: () => undefined, subscribe: () => () => {} }

export type SwapFormModel = Partial<ReadSwapFormReturnType> & {
  /** The form's state; undefined until the swap's code has loaded. */
  state: SwapState | undefined
  /** The amount as typed, in the locale's digits. */
  amountText: string
  setAmount: (text: string) => void
  /** Fills the amount with the most that can be swapped (the native currency leaves the fee). */
  fillMax: () => void
  /** Approves the router first when it must (`needsApproval`), else swaps (approval batched in when the wallet can). */
  submit: () => Promise<void>
}

/**
 * The swap form as the Swap view and `useSwap` run it: its tokens read on each network, the typed amount, the quote
 * read again once the form rests, and what the view says of it.
 */
export function useSwapFormModel(swap: SwapController, locale: string, model: SwapModel, nativeDecimals: number): SwapFormModel & { state: SwapState }
export function useSwapFormModel(swap: SwapController | undefined, locale: string, model: SwapModel | undefined, nativeDecimals: number): SwapFormModel
export function useSwapFormModel(swap: SwapController | undefined, locale: string, model: SwapModel | undefined, nativeDecimals: number): SwapFormModel {
  const state = useStoreSelector((swap?.store ?? noStore) as typeof noStore, () => swap?.store.getState())
  const [amountText, setAmountText] = useState(() => (state && model ? model.swapAmountTextOf(state.amount, locale) : ''))
  const caipNetworkId = useWidgetState((s) => s.activeCaipNetworkId)
  useEffect(() => {
    void swap?.load()
  }, [swap, caipNetworkId])
  // An emptied form (after a swap, on a switch) empties the field; a controller that arrives brings its amount.
  const [form, setForm] = useState({ swap, amount: state?.amount })
  if (form.swap !== swap || form.amount !== state?.amount) {
    setForm({ swap, amount: state?.amount })
    if (form.swap !== swap) setAmountText(state && model ? model.swapAmountTextOf(state.amount, locale) : '')
    else if (state?.amount === undefined) setAmountText('')
  }
  const [from, to, amount] = [state?.from, state?.to, state?.amount]
  const quoteDelayMs = model?.QUOTE_DELAY_MS
  useEffect(() => {
    if (!swap || quoteDelayMs === undefined) return
    const timer = setTimeout(() => void swap.refreshQuote(), quoteDelayMs)
    return () => clearTimeout(timer)
  }, [swap, quoteDelayMs, from, to, amount])

  const read = swap && state && model ? model.readSwapForm({ swap, state, amountText, locale, nativeDecimals }) : undefined
  const setAmount = (text: string) => {
    setAmountText(text)
    if (swap && model) swap.setAmount(model.swapAmountOfText(text, locale))
  }
  return {
    state,
    amountText,
    ...read,
    setAmount,
    fillMax: () => {
      const max = swap?.maxAmount()
      if (max !== undefined && model) setAmount(model.swapAmountTextOf(max, locale))
    },
    submit: async () => {
      if (!swap || !read?.canSubmit) return
      await (read.needsApproval ? swap.approve() : swap.swap())
    },
  }
}
