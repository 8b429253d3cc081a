import type { Address } from 'viem'
import { parseCaipNetworkId } from '../../../shared/protocol/caip'
import { formatUnits } from '../../../shared/protocol/display'
import { parseAmountInput, toAmountInput } from '../../families/sendForm'
import { createSwapController, findSwapIssue, minimumReceived, QUOTE_DELAY_MS, swapFeeWei, type SwapController, type SwapState } from '../../widget/createSwapController'
import type { Widget } from '../../widget/createWidget'

export { QUOTE_DELAY_MS }

const controllers = new WeakMap<Widget, SwapController>()

/**
 * The widget's swap controller, made on first use (by the Swap view or `useSwap`: one form, whichever draws it). Its
 * code comes with the Swap view's chunk, never with the modal.
 */
export function getSwapController(widget: Widget): SwapController {
  const existing = controllers.get(widget)
  if (existing) return existing
  const controller = createSwapController({
    core: widget.core,
    notifications: widget.notifications,
    router: widget.router,
    getAccount: () => {
      const state = widget.getState().namespaces.eip155
      return {
        address: state?.address as Address | undefined,
        chainId: Number(parseCaipNetworkId(state?.activeCaipNetworkId ?? '')?.reference) || undefined,
        isSmartAccount: state?.embeddedWalletInfo?.accountType === 'smartAccount',
      }
    },
    walletRequest: (args) => widget.walletRequest(args),
    onConfirmed: () => void widget.refreshBalance(),
  })
  // A switch of network or account empties the form: its tokens and quote belong to the old one.
  widget.subscribe(
    (state) => `${state.activeCaipNetworkId}|${state.namespaces.eip155?.address}`,
    () => controller.reset(),
  )
  controllers.set(widget, controller)
  return controller
}

/**
 * What the Swap view says of the form (pure but for the controller's approval questions): the typed amount's issue,
 * else the swap's; the quote's figures as decimal strings; whether Approve comes first and whether the form can submit.
 */
export function readSwapForm({ swap, state, amountText, locale, nativeDecimals }: { swap: SwapController; state: SwapState; amountText: string; locale: string; nativeDecimals: number }) {
  const { from, to, quote } = state
  const parsed = parseAmountInput(amountText, locale)
  const typedIssue = parsed && 'issue' in parsed ? parsed.issue : undefined
  const issue = typedIssue ? undefined : findSwapIssue(state)
  const fee = swapFeeWei(state)
  const received = quote && to ? formatUnits(BigInt(quote.toAmount), Number(to.quantity.decimals)) : undefined
  const isApprovalBatched = swap.isApprovalBatched()
  const needsApproval = swap.needsApproval() && !isApprovalBatched
  const isBusy = state.step !== 'form'
  return {
    typedIssue,
    issue,
    nativeToken: state.tokens.find((token) => token.address === undefined),
    /** The network fee in the native currency, as a decimal string. */
    networkFee: fee !== undefined ? formatUnits(fee, nativeDecimals) : undefined,
    /** What the quote gives of `to`, as a decimal string. */
    received,
    /** The least received at the slippage tolerance. */
    minimumReceived: quote && to ? formatUnits(minimumReceived(quote, state.slippagePercent), Number(to.quantity.decimals)) : undefined,
    /** How many `to` one `from` buys at the quote. */
    rate: quote && from && to && state.amount ? Number(received) / Number(state.amount) : undefined,
    isApprovalBatched,
    needsApproval,
    isBusy,
    canSubmit: !!from && !!to && !!quote && !state.isQuoting && !typedIssue && !issue && !isBusy,
  }
}

export type ReadSwapFormReturnType = ReturnType<typeof readSwapForm>

/** What the controller is given for a typed amount: the amount as a decimal string, or undefined when it is none. */
export function swapAmountOfText(text: string, locale: string) {
  const read = parseAmountInput(text, locale)
  return read && 'amount' in read ? read.amount : undefined
}

/** The form's amount as the locale writes it. */
export const swapAmountTextOf = (amount: string | undefined, locale: string) => (amount ? toAmountInput(amount, locale) : '')
