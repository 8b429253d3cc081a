import { BUY_QUOTE_DELAY_MS, createBuyController, findBuyIssue, type BuyController, type BuyState } from '../../widget/createBuyController'
import type { Widget } from '../../widget/createWidget'

export { BUY_QUOTE_DELAY_MS }

const controllers = new WeakMap<Widget, BuyController>()

/**
 * The widget's Buy controller, made on first use (by the Buy view or `useBuy`: one form, whichever draws it). Its code
 * comes with the Buy view's chunk, never with the modal.
 */
export function getBuyController(widget: Widget): BuyController {
  const existing = controllers.get(widget)
  if (existing) return existing
  const accounts = () => {
    const { namespaces } = widget.getState()
    return (['eip155', 'solana'] as const).flatMap((ns) => {
      const state = namespaces[ns]
      return state?.status === 'connected' && state.address && state.activeCaipNetworkId ? [{ network: state.activeCaipNetworkId, address: state.address }] : []
    })
  }
  const controller = createBuyController({
    core: widget.core,
    notifications: widget.notifications,
    getAccounts: accounts,
    // The account the purchase goes to names the visitor to the provider (as the peers do).
    partnerUserId: () => (accounts()[0]?.address ?? 'visitor').slice(0, 128),
    onArrived: () => void widget.refreshBalance(),
  })
  // Another account or network: the form's assets belong to the old one.
  widget.subscribe(
    (state) => `${state.activeCaipNetworkId}|${state.address}`,
    () => void controller.load(),
  )
  controllers.set(widget, controller)
  return controller
}

/** What the Buy view says of the form: the amount's issue, the chosen provider's quote, whether Continue can go on. */
export function readBuyForm(state: BuyState) {
  const issue = findBuyIssue(state)
  const quote = state.quotes.find((q) => q.provider === state.provider)
  return { issue, quote, canContinue: !!quote && !issue && !state.isQuoting && !state.isEstimate && state.step === 'form' }
}

export type ReadBuyFormReturnType = ReturnType<typeof readBuyForm>
