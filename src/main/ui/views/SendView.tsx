import { useEffect, useId, useState } from 'react'
import { useNetwork } from '../../react/hooks'
import { useStoreSelector, useWidget, useWidgetState } from '../../react/WidgetProvider'
import type { SendController } from '../../families/types'
import { checkAmount, isNativeToken, maxSendable, parseAmountInput, toAmountInput, tokenKey } from '../../families/sendForm'
import { shortenAddress } from '../../../shared/protocol/display'
import type { TokenBalance } from '../../../shared/protocol/schemas/entities'
import { Alert } from '../Alert'
import { formatUsdValue, localizeDecimal } from '../i18n/formatNumber'
import { useLocale, useTranslate } from '../useTranslate'
import { networkImageUrl } from './NetworkIcon'
import { tokenBalanceImageUrl } from './tokenBalanceImageUrl'
import { TokenPicker } from './TokenPicker'
import { useSendController } from './useSendController'
import { AmountBox } from './AmountBox'
import { amountIssueText } from './amountIssueText'
import { receiverIssueText } from './receiverIssueText'
import { useShownIssue } from './useShownIssue'

/** Typed receivers are bounded: nothing a person sends to needs more. */
const RECEIVER_MAX_LENGTH = 256
/** How long the form rests before its transfer is priced. */
const ESTIMATE_DELAY_MS = 300

/** The send form of the active family: its code comes with the family's adapter, on the first visit. */
export function SendView() {
  const t = useTranslate()
  const namespace = useWidgetState((s) => s.activeNamespace)
  const loaded = useSendController(namespace)
  if (!loaded) return <p className="muted">{t('send.loading')}</p>
  if ('error' in loaded) return <Alert message={loaded.error} />
  return <SendForm send={loaded.send} namespace={namespace} />
}

/**
 * The send form: token picker, amount with Max, receiver (an address, or on EVM networks a registered name, looked up
 * as the visitor types), network fee. Whatever is wrong is one sentence under its field, said before anything is sent;
 * the Send button is disabled until the form can be sent.
 */
function SendForm({ send, namespace }: { send: SendController; namespace: string }) {
  const widget = useWidget()
  const t = useTranslate()
  const locale = useLocale()
  const { network } = useNetwork()
  const state = useStoreSelector(send.store, (s) => s)
  const ids = { token: useId(), amount: useId(), amountIssue: useId(), receiver: useId(), receiverNote: useId() }
  const [amountText, setAmountText] = useState(() => (state.sendTokenAmount ? toAmountInput(state.sendTokenAmount, locale) : ''))
  const receiverText = state.receiverAddress ?? ''
  const { token, tokenBalances } = state

  // The network's balances: a switch under the form (the wallet switched) empties the list, and it is read again.
  const caipNetworkId = useWidgetState((s) => s.activeCaipNetworkId)
  useEffect(() => {
    void send.loadTokenBalances()
  }, [send, caipNetworkId])
  // The network's own currency is chosen first, as soon as balances arrive.
  useEffect(() => {
    if (!token && tokenBalances.length > 0) send.setToken(tokenBalances.find(isNativeToken) ?? tokenBalances[0])
  }, [send, token, tokenBalances])
  // A reset form (after a send, on a network switch) empties the field too.
  const [formAmount, setFormAmount] = useState(state.sendTokenAmount)
  if (formAmount !== state.sendTokenAmount) {
    setFormAmount(state.sendTokenAmount)
    if (state.sendTokenAmount === undefined) setAmountText('')
  }
  const receiverStatus = state.receiverName?.status
  useEffect(() => {
    const timer = setTimeout(() => void send.estimate(), ESTIMATE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [send, token, state.sendTokenAmount, state.receiverAddress, receiverStatus])

  const parsed = parseAmountInput(amountText, locale)
  const amountIssue = parsed && 'issue' in parsed ? parsed.issue : checkAmount(parsed?.amount, { token, feeReserve: state.feeReserve })
  const shownAmountIssue = useShownIssue(amountIssue, amountText)
  const shownReceiverIssue = useShownIssue(state.receiverIssue, receiverText)
  const isResolving = receiverStatus === 'resolving'
  const resolved = state.receiverName?.status === 'resolved' ? state.receiverName : undefined

  const isSendable =
    !!token &&
    !!parsed &&
    !('issue' in parsed) &&
    amountIssue === undefined &&
    !!receiverText &&
    state.receiverIssue === undefined &&
    !isResolving &&
    !state.isInsufficientGas &&
    !state.loading
  const native = tokenBalances.find(isNativeToken)
  const imageUrlOf = (balance: TokenBalance) => tokenBalanceImageUrl(widget, network, balance)
  const amountUsd = parsed && 'amount' in parsed && amountIssue === undefined && token && token.price > 0 ? Number(parsed.amount) * token.price : undefined

  const setAmount = (text: string) => {
    setAmountText(text)
    const read = parseAmountInput(text, locale)
    send.setAmount(read && 'amount' in read ? read.amount : text.trim())
  }
  const fillMax = async () => {
    if (!token) return
    if (isNativeToken(token) && send.store.getState().feeReserve === undefined) await send.estimate()
    const { token: chosen, feeReserve } = send.store.getState()
    const max = maxSendable({ token: chosen, feeReserve })
    if (max !== undefined) setAmount(toAmountInput(max, locale))
  }

  return (
    <form
      className="send-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        if (isSendable) send.send().catch(() => {})
      }}
    >
      <div className="field">
        <span id={ids.token} className="field-label">
          {t('send.token')}
        </span>
        <TokenPicker
          labelId={ids.token}
          tokens={tokenBalances}
          value={token}
          imageUrlOf={imageUrlOf}
          placeholder={{ symbol: network.nativeCurrency.symbol, name: network.nativeCurrency.name, imageUrl: networkImageUrl(widget, network) }}
          isLoading={!state.hasLoadedBalances}
          locale={locale}
          keyOf={tokenKey}
          onChange={(chosen) => send.setToken(chosen)}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.amount} className="field-label">
          {t('send.amount')}
        </label>
        <AmountBox
          id={ids.amount}
          value={amountText}
          locale={locale}
          symbol={token?.symbol}
          isInvalid={shownAmountIssue !== undefined}
          issueId={shownAmountIssue ? ids.amountIssue : undefined}
          onChange={setAmount}
          onMax={() => void fillMax()}
        />
        {amountUsd !== undefined ? <p className="muted amount-usd">{t('send.amountUsd', { usd: formatUsdValue(locale, amountUsd) })}</p> : null}
        {shownAmountIssue ? (
          <p id={ids.amountIssue} className="error" role="alert">
            {amountIssueText(t, locale, shownAmountIssue)}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={ids.receiver} className="field-label">
          {t(namespace === 'eip155' ? 'send.receiver' : 'send.receiverAddressOnly')}
        </label>
        <input
          id={ids.receiver}
          className="text-input"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={RECEIVER_MAX_LENGTH}
          aria-invalid={shownReceiverIssue !== undefined}
          aria-describedby={shownReceiverIssue || isResolving || resolved ? ids.receiverNote : undefined}
          value={receiverText}
          onChange={(e) => send.setReceiver(e.target.value.trim())}
        />
        {shownReceiverIssue ? (
          <p id={ids.receiverNote} className="error" role="alert">
            {receiverIssueText(t, namespace, network.name, shownReceiverIssue)}
          </p>
        ) : isResolving ? (
          <p id={ids.receiverNote} className="muted" role="status">
            {t('send.receiver.resolving', { name: receiverText })}
          </p>
        ) : resolved ? (
          <p id={ids.receiverNote} className="muted" role="status" title={resolved.address}>
            {t('send.receiver.resolved', { address: shortenAddress(resolved.address) })}
          </p>
        ) : null}
      </div>
      {state.gasPriceInUSD !== undefined ? <p className="muted fee">{t('send.gas', { usd: formatUsdValue(locale, state.gasPriceInUSD) })}</p> : null}
      {state.networkFee ? <p className="muted fee">{t('send.fee', { amount: localizeDecimal(locale, state.networkFee.amount), symbol: state.networkFee.symbol })}</p> : null}
      {state.isInsufficientGas ? (
        <p className="error" role="alert">
          {t('send.insufficientGas', { symbol: native?.symbol ?? network.nativeCurrency.symbol })}
        </p>
      ) : null}
      <Alert message={state.error} />
      <button type="submit" className="button send-submit" disabled={!isSendable} aria-busy={state.loading || undefined}>
        {t('send.submit')}
      </button>
    </form>
  )
}
