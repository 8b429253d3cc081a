import { useEffect, useState } from 'react'
import type { SendState } from '../../families/sendForm'
import type { SendController } from '../../families/types'
import { useStoreSelector, useWidgetState } from '../WidgetProvider'
import type { ReadSendFormReturnType } from './sendFormRules'
import type * as sendFormRulesModule from './sendFormRules'

/** The rules module (sendFormRules.ts), as the view imports it or `useSendForm` loads it. */
export type SendFormRules = typeof sendFormRulesModule

/** How long the form rests before its transfer is priced. */
const ESTIMATE_DELAY_MS = 300

const noBalances: SendState['tokenBalances'] = []
const noStore = { getState: () => undefined, subscribe: () => () => {} }

export type SendFormModel = Partial<ReadSendFormReturnType> & {
  /** The form's state (SPEC §3); undefined until the family's send controller has loaded. */
  state: SendState | undefined
  /** The amount as typed, in the locale's digits. */
  amountText: string
  setAmount: (text: string) => void
  /** Fills the amount with the most that can be sent (the native token leaves its network fee). */
  fillMax: () => Promise<void>
  setToken: (token: SendState['token']) => void
  setReceiver: (text: string) => void
  /** Sends what the form holds (once `isSendable`): resolves to the transaction's hash or signature. */
  send: () => Promise<string>
}

/**
 * The send form as the Send view and `useSendForm` run it: the typed amount, the balances read on each network, the
 * network's currency chosen first, the transfer priced once the form rests, and what is wrong with it.
 */
export function useSendFormModel(send: SendController, locale: string, rules: SendFormRules): SendFormModel & { state: SendState }
export function useSendFormModel(send: SendController | undefined, locale: string, rules: SendFormRules | undefined): SendFormModel
export function useSendFormModel(send: SendController | undefined, locale: string, rules: SendFormRules | undefined): SendFormModel {
  const state = useStoreSelector((send?.store ?? noStore) as typeof noStore, (s) => s as SendState | undefined)
  const [amountText, setAmountText] = useState(() => (state && rules ? rules.amountTextOf(state.sendTokenAmount, locale) : ''))
  // A reset form (after a send, on a network switch) empties the field; a controller that arrives brings its amount.
  const [form, setForm] = useState({ send, amount: state?.sendTokenAmount })
  if (form.send !== send || form.amount !== state?.sendTokenAmount) {
    setForm({ send, amount: state?.sendTokenAmount })
    if (form.send !== send) setAmountText(state && rules ? rules.amountTextOf(state.sendTokenAmount, locale) : '')
    else if (state?.sendTokenAmount === undefined) setAmountText('')
  }
  const token = state?.token
  const tokenBalances = state?.tokenBalances ?? noBalances

  // The network's balances: a switch under the form (the wallet switched) empties the list, and it is read again.
  const caipNetworkId = useWidgetState((s) => s.activeCaipNetworkId)
  useEffect(() => {
    void send?.loadTokenBalances()
  }, [send, caipNetworkId])
  // The network's own currency is chosen first, as soon as balances arrive.
  useEffect(() => {
    if (send && rules && !token && tokenBalances.length > 0) send.setToken(rules.defaultToken(tokenBalances))
  }, [send, rules, token, tokenBalances])
  const receiverStatus = state?.receiverName?.status
  const amount = state?.sendTokenAmount
  const receiver = state?.receiverAddress
  useEffect(() => {
    if (!send) return
    const timer = setTimeout(() => void send.estimate(), ESTIMATE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [send, token, amount, receiver, receiverStatus])

  const setAmount = (text: string) => {
    setAmountText(text)
    if (send && rules) send.setAmount(rules.amountOfText(text, locale))
  }
  return {
    state,
    amountText,
    ...(state && rules ? rules.readSendForm({ state, amountText, locale }) : {}),
    setAmount,
    fillMax: async () => {
      const max = send && rules ? await rules.maxAmountText(send, locale) : undefined
      if (max !== undefined) setAmount(max)
    },
    setToken: (chosen) => send?.setToken(chosen),
    setReceiver: (text) => send?.setReceiver(text.trim()),
    send: () => (send ? send.send() : Promise.reject(new Error('The send form is still loading'))),
  }
}
