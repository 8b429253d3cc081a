import { checkAmount, isNativeToken, maxSendable, parseAmountInput, toAmountInput, type AmountIssue, type SendState } from '../../families/sendForm'
import type { SendController } from '../../families/types'

/**
 * The send form's rules as the Send view applies them to what the visitor typed: loaded with the view (the modal's
 * chunk), or by `useSendForm` on first use. Pure: the form's state and the typed amount in, what the form says out.
 */
export function readSendForm({ state, amountText, locale }: { state: SendState; amountText: string; locale: string }) {
  const { token } = state
  const parsed = parseAmountInput(amountText, locale)
  const amount = parsed && 'amount' in parsed ? parsed.amount : undefined
  const amountIssue: AmountIssue | undefined = parsed && 'issue' in parsed ? parsed.issue : checkAmount(amount, { token, feeReserve: state.feeReserve })
  const receiverText = state.receiverAddress ?? ''
  const isResolving = state.receiverName?.status === 'resolving'
  const resolvedName = state.receiverName?.status === 'resolved' ? state.receiverName : undefined
  const isSendable =
    !!token && amount !== undefined && amountIssue === undefined && !!receiverText && state.receiverIssue === undefined && !isResolving && !state.isInsufficientGas && !state.loading
  const amountUsd = amount !== undefined && amountIssue === undefined && token && token.price > 0 ? Number(amount) * token.price : undefined
  return { amountIssue, isResolving, resolvedName, isSendable, amountUsd, nativeToken: state.tokenBalances.find(isNativeToken) }
}

export type ReadSendFormReturnType = ReturnType<typeof readSendForm>

/** The token the form starts with once balances arrive: the network's own currency, else the first. */
export const defaultToken = (balances: SendState['tokenBalances']) => balances.find(isNativeToken) ?? balances[0]

/** What the controller is given for a typed amount: the amount as a decimal string, or the text (the controller refuses it). */
export function amountOfText(text: string, locale: string) {
  const read = parseAmountInput(text, locale)
  return read && 'amount' in read ? read.amount : text.trim()
}

/** The form's amount as the locale writes it. */
export const amountTextOf = (amount: string | undefined, locale: string) => (amount ? toAmountInput(amount, locale) : '')

/** The most the form can send of its token, as the locale writes it (the native one priced first, so its fee is left). */
export async function maxAmountText(send: SendController, locale: string): Promise<string | undefined> {
  const { token } = send.store.getState()
  if (!token) return undefined
  if (isNativeToken(token) && send.store.getState().feeReserve === undefined) await send.estimate()
  const { token: chosen, feeReserve } = send.store.getState()
  const max = maxSendable({ token: chosen, feeReserve })
  return max === undefined ? undefined : toAmountInput(max, locale)
}
