import { useEffect, useId, useState } from 'react'
import { useStoreSelector, useWidget, useWidgetState } from '../../react/WidgetProvider'
import type { SendController } from '../../namespaces/types'
import { getFeatures } from '../../widget/features'
import { exceedsBalance } from '../../../shared/protocol/send'
import { toErrorNotice, type ErrorNotice } from '../../state/errorNotice'
import { Alert } from '../Alert'
import { formatUsdValue, localizeDecimal } from '../i18n/formatNumber'
import { useLocale, useTranslate } from '../useTranslate'

/** The send form of the active family: its code comes with the family's adapter, on the first visit. */
export function SendView() {
  const widget = useWidget()
  const t = useTranslate()
  const namespace = useWidgetState((s) => s.activeNamespace)
  const [loaded, setLoaded] = useState<{ namespace: string; send: SendController } | { namespace: string; error: ErrorNotice }>()
  useEffect(() => {
    let isCurrent = true
    getFeatures(widget)
      .send(namespace)
      .then(
        (send) => isCurrent && setLoaded({ namespace, send }),
        (error: unknown) => isCurrent && setLoaded({ namespace, error: toErrorNotice(error) }),
      )
    return () => {
      isCurrent = false
    }
  }, [widget, namespace])
  if (loaded?.namespace !== namespace) return <p className="muted">{t('send.loading')}</p>
  if ('error' in loaded) return <Alert message={loaded.error} />
  return <SendForm send={loaded.send} />
}

/** The send form: token, amount, receiver (address or name), network fee, and the spec's checks. */
function SendForm({ send }: { send: SendController }) {
  const t = useTranslate()
  const locale = useLocale()
  const state = useStoreSelector(send.store, (s) => s)
  const ids = { token: useId(), amount: useId(), receiver: useId() }
  useEffect(() => {
    void send.loadTokenBalances()
  }, [send])
  useEffect(() => {
    const timer = setTimeout(() => void send.estimate(), 300)
    return () => clearTimeout(timer)
  }, [send, state.token, state.sendTokenAmount, state.receiverAddress])

  const native = state.tokenBalances.find((b) => b.address === undefined)
  const isOverBalance = state.token !== undefined && exceedsBalance(state.sendTokenAmount, state.token.quantity)
  const isBadReceiver = !!state.receiverAddress && !send.isReceiverLike(state.receiverAddress)
  return (
    <form
      className="actions"
      onSubmit={(event) => {
        event.preventDefault()
        send.send().catch(() => {})
      }}
    >
      <label htmlFor={ids.token} className="muted">
        {t('send.token')}
      </label>
      <select
        id={ids.token}
        className="item"
        value={state.token ? (state.token.address ?? state.token.symbol) : ''}
        onChange={(e) => send.setToken(state.tokenBalances.find((b) => (b.address ?? b.symbol) === e.target.value))}
      >
        <option value="" disabled>
          …
        </option>
        {state.tokenBalances.map((b) => (
          <option key={b.address ?? b.symbol} value={b.address ?? b.symbol}>
            {`${b.symbol} — ${t('send.available', { amount: localizeDecimal(locale, b.quantity.numeric), symbol: b.symbol })}`}
          </option>
        ))}
      </select>
      <label htmlFor={ids.amount} className="muted">
        {t('send.amount')}
      </label>
      <input id={ids.amount} className="item" inputMode="decimal" autoComplete="off" value={state.sendTokenAmount ?? ''} onChange={(e) => send.setAmount(e.target.value.trim())} />
      <label htmlFor={ids.receiver} className="muted">
        {t('send.receiver')}
      </label>
      <input
        id={ids.receiver}
        className="item"
        autoComplete="off"
        spellCheck={false}
        aria-invalid={isBadReceiver}
        value={state.receiverAddress ?? ''}
        onChange={(e) => send.setReceiver(e.target.value.trim())}
      />
      {isBadReceiver ? (
        <p className="error" role="alert">
          {t('send.badReceiver')}
        </p>
      ) : null}
      {isOverBalance ? (
        <p className="error" role="alert">
          {t('send.insufficientFunds', { symbol: state.token!.symbol })}
        </p>
      ) : null}
      {state.gasPriceInUSD !== undefined ? <p className="muted">{t('send.gas', { usd: formatUsdValue(locale, state.gasPriceInUSD) })}</p> : null}
      {state.networkFee ? <p className="muted">{t('send.fee', { amount: localizeDecimal(locale, state.networkFee.amount), symbol: state.networkFee.symbol })}</p> : null}
      {state.isInsufficientGas ? (
        <p className="error" role="alert">
          {t('send.insufficientGas', { symbol: native?.symbol ?? 'ETH' })}
        </p>
      ) : null}
      <Alert message={state.error} />
      <button type="submit" className="button" disabled={state.loading || state.isInsufficientGas || isOverBalance || isBadReceiver}>
        {t('send.submit')}
      </button>
    </form>
  )
}
