import type { ErrorNotice } from '../../state/errorNotice'
import { widgetLocale } from '../../widget/locale'
import { useWidget, useWidgetState } from '../WidgetProvider'
import { loadSendForm } from './loadFeatures'
import { useLoaded } from './useLoaded'
import { useSendFormModel, type SendFormModel } from './useSendFormModel'

export type UseSendFormReturnType = SendFormModel & {
  /** The form's code (the family's send controller) is loading. */
  isLoading: boolean
  /** Why the form could not load (no core, the family's code not fetched). */
  loadError: ErrorNotice | undefined
}

/**
 * The Send view's form for the active family, for a site that draws its own: its state (token, amount, receiver, fee,
 * balances), what is wrong with it (`amountIssue`, `state.receiverIssue`, `state.isInsufficientGas`, `state.error`),
 * `isSendable`, and its actions. The same controller as the widget's view: one form, whichever draws it. Amounts are
 * typed in the widget's locale.
 * @example const form = useSendForm(); <input value={form.amountText} onChange={(e) => form.setAmount(e.target.value)} />
 */
export function useSendForm(): UseSendFormReturnType {
  const widget = useWidget()
  const namespace = useWidgetState((s) => s.activeNamespace)
  const isConnected = useWidgetState((s) => s.status === 'connected')
  // The form needs the account: its controller loads once there is one.
  const loaded = useLoaded(isConnected ? namespace : undefined, loadSendForm)
  const model = useSendFormModel(loaded?.value?.send, widgetLocale(widget.uiSettings.locale), loaded?.value?.rules)
  return { ...model, isLoading: isConnected && !loaded, loadError: loaded?.error }
}
