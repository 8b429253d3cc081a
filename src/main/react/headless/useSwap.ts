import type { TokenBalance } from '../../../shared/protocol/schemas/entities'
import type { ErrorNotice } from '../../state/errorNotice'
import type { SwapController } from '../../widget/createSwapController'
import type { Widget } from '../../widget/createWidget'
import { widgetLocale } from '../../widget/locale'
import { useNetwork } from '../hooks'
import { useWidget, useWidgetState } from '../WidgetProvider'
import { useLoaded } from './useLoaded'
import { useSwapFormModel, type SwapFormModel } from './useSwapFormModel'
import { retryingImport } from '../../lazy/retryingImport'

const swapModelCode = retryingImport(() => import('./swapModel'), 'getSwapController')

/** The swap's controller and rules (the Swap view's code, never the modal's), loaded on first use. */
const loadSwap = (widget: Widget) =>
  widget
    .whenStarted()
    .then(swapModelCode)
    .then((model) => ({ model, swap: model.getSwapController(widget) }))

export type UseSwapReturnType = SwapFormModel & {
  /** The swap's code is loading. */
  isLoading: boolean
  loadError: ErrorNotice | undefined
  /** Picks the token paid (`from`) or received (`to`). */
  choose: (side: 'from' | 'to', token: TokenBalance) => void
  /** Swaps `from` and `to`. */
  flip: () => void
  /** The slippage tolerance, in percent (SPEC §9: 1 by default). */
  setSlippage: (percent: number) => void
}

/**
 * The Swap view's form, for a site that draws its own: the tokens the network's swap provider trades with the
 * account's balances, the quote (`received`, `minimumReceived`, `rate`, `networkFee`, `state.quote.priceImpact`), what
 * stops the swap (`typedIssue`, `issue`, `state.error`), and `submit()`, which approves first when it must. The same
 * controller as the widget's view. EVM networks only (`state.isUnsupported` elsewhere).
 * @example const swap = useSwap(); <button disabled={!swap.canSubmit} onClick={() => swap.submit()}>{swap.needsApproval ? 'Approve' : 'Swap'}</button>
 */
export function useSwap(): UseSwapReturnType {
  const widget = useWidget()
  const { network } = useNetwork()
  const isConnected = useWidgetState((s) => s.status === 'connected')
  const loaded = useLoaded(isConnected ? 'swap' : undefined, loadSwap)
  const swap: SwapController | undefined = loaded?.value?.swap
  const form = useSwapFormModel(swap, widgetLocale(widget.uiSettings.locale), loaded?.value?.model, network.nativeCurrency.decimals)
  return {
    ...form,
    isLoading: isConnected && !loaded,
    loadError: loaded?.error,
    choose: (side, token) => swap?.choose(side, token),
    flip: () => swap?.flip(),
    setSlippage: (percent) => swap?.setSlippage(percent),
  }
}
