import { useId } from 'react'
import { useNetwork } from '../../react/hooks'
import * as sendFormRules from '../../react/headless/sendFormRules'
import { useSendFormModel } from '../../react/headless/useSendFormModel'
import { useWidget, useWidgetState } from '../../react/WidgetProvider'
import type { SendController } from '../../families/types'
import { tokenKey } from '../../families/sendForm'
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
  const { state, amountText, amountIssue, isResolving, resolvedName: resolved, isSendable, amountUsd, nativeToken: native, setAmount, fillMax } = useSendFormModel(send, locale, sendFormRules)
  const ids = { token: useId(), amount: useId(), amountIssue: useId(), receiver: useId(), receiverNote: useId() }
  const receiverText = state.receiverAddress ?? ''
  const { token, tokenBalances } = state
  const shownAmountIssue = useShownIssue(amountIssue, amountText)
  const shownReceiverIssue = useShownIssue(state.receiverIssue, receiverText)
  const imageUrlOf = (balance: TokenBalance) => tokenBalanceImageUrl(widget, network, balance)

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
