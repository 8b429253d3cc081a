import { useId, useState } from 'react'
import * as buyModel from '../../react/headless/buyModel'
import { useBuyFormModel } from '../../react/headless/useBuyFormModel'
import { useWidget } from '../../react/WidgetProvider'
import { errorNotice } from '../../state/errorNotice'
import type { BuyIssue, BuyQuote, PaymentMethod } from '../../widget/createBuyController'
import { Alert } from '../Alert'
import { localizeDecimal } from '../i18n/formatNumber'
import { translateBuy, type BuyMessageKey } from '../i18n/buyCatalogues'
import { useLocale } from '../useTranslate'

type BuyTranslate = (key: BuyMessageKey, params?: Record<string, string>) => string

const chosen = { background: 'var(--tsr-accent)', color: 'var(--tsr-accent-text)' } as const
const chips = { display: 'flex', gap: '0.5em', flexWrap: 'wrap' } as const

/** A fiat amount as the locale writes it, with the currency's sign: '$7,500.00', '7 500,00 €'. */
const money = (locale: string, value: string, currency: string) => new Intl.NumberFormat(locale, { style: 'currency', currency }).format(Number(value))

function issueText(tb: BuyTranslate, locale: string, issue: BuyIssue) {
  if (issue.reason === 'notANumber') return tb('buy.limits', { min: '', max: '', method: '' })
  return tb('buy.limits', { min: money(locale, issue.min, issue.currency), max: money(locale, issue.max, issue.currency), method: tb(issue.method === 'card' ? 'buy.methodCard' : 'buy.methodBank') })
}

/**
 * Account → Buy (SPEC §1, §9): the amount in USD or EUR, the payment method, the asset on one of the visitor's
 * networks; every provider's quote side by side, most received first, each with its fees; Continue opens the chosen
 * provider's checkout in a window of its own (a blocked popup gets a link); then the order as it goes: waiting for
 * payment, sent, arrived. In a restricted time zone it says buying is not available.
 */
export default function BuyView() {
  const widget = useWidget()
  const [buy] = useState(() => buyModel.getBuyController(widget))
  const locale = useLocale()
  const tb: BuyTranslate = (key, params) => translateBuy(locale, key, params)
  const { state, issue, quote, canContinue, checkout, reopen } = useBuyFormModel(buy, buyModel)
  const ids = { amount: useId(), issue: useId(), currency: useId(), method: useId(), asset: useId() }
  const networkName = (id: string) => widget.getNetworks().find((n) => n.caipNetworkId === id)?.name ?? id

  if (state.isRestricted) return <p role="status">{tb('buy.restricted')}</p>
  if (state.hasLoaded && state.assets.length === 0 && !state.isEstimate) return <p role="status">{tb('buy.nothing')}</p>
  const providerName = quote?.providerName ?? ''

  if (state.step !== 'form' || state.order) {
    const { order } = state
    const amount = order ? localizeDecimal(locale, order.purchaseAmount) : ''
    const symbol = order?.asset ?? state.asset?.symbol ?? ''
    const status =
      state.step === 'opening'
        ? tb('buy.opening', { provider: providerName })
        : order?.status === 'completed'
          ? tb('buy.arrived', { amount, symbol })
          : order?.status === 'sent'
            ? tb('buy.sent', { amount, symbol })
            : order?.status === 'failed'
              ? undefined
              : tb('buy.waiting', { provider: providerName })
    return (
      <div className="send-form">
        {status ? <p role="status">{status}</p> : null}
        {order?.status === 'failed' ? <Alert message={errorNotice('ONRAMP_PURCHASE_FAILED')} /> : null}
        {state.isPopupBlocked && state.checkoutUrl ? (
          <p role="alert">
            {tb('buy.blocked')}{' '}
            <a href={state.checkoutUrl} target="_blank" rel="noopener noreferrer">
              {tb('buy.openLink')}
            </a>
          </p>
        ) : null}
        {state.isWindowClosed && order?.status === 'pending' ? (
          <>
            <p role="alert">{tb('buy.closed')}</p>
            <button type="button" className="button" onClick={reopen}>
              {tb('buy.reopen')}
            </button>
          </>
        ) : null}
        {order?.status === 'completed' || order?.status === 'failed' ? (
          <button type="button" className="button send-submit" onClick={() => buy.reset()}>
            {tb('buy.again')}
          </button>
        ) : null}
      </div>
    )
  }

  const currency = state.currencies.find((c) => c.id === state.currency)
  return (
    <form
      className="send-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        void checkout()
      }}
    >
      <div className="field">
        <label htmlFor={ids.amount} className="field-label">
          {tb('buy.amount')}
        </label>
        <div className="amount-box">
          <input
            id={ids.amount}
            className="amount-input"
            inputMode="decimal"
            autoComplete="off"
            placeholder="0"
            value={state.amount ?? ''}
            aria-invalid={issue ? true : undefined}
            aria-describedby={issue ? ids.issue : undefined}
            onChange={(event) => buy.setAmount(event.target.value.replace(',', '.').replace(/[^\d.]/g, ''))}
          />
          <span className="muted">{state.currency}</span>
        </div>
        {issue ? (
          <p id={ids.issue} className="error" role="alert">
            {issueText(tb, locale, issue)}
          </p>
        ) : null}
      </div>
      <div className="field" role="group" aria-labelledby={ids.currency}>
        <span id={ids.currency} className="field-label">
          {tb('buy.currency')}
        </span>
        <div style={chips}>
          {state.currencies.map((c) => (
            <button key={c.id} type="button" className="chip-button" aria-pressed={c.id === state.currency} style={c.id === state.currency ? chosen : undefined} onClick={() => buy.setCurrency(c.id)}>
              {c.id}
            </button>
          ))}
        </div>
      </div>
      <div className="field" role="group" aria-labelledby={ids.method}>
        <span id={ids.method} className="field-label">
          {tb('buy.method')}
        </span>
        <div style={chips}>
          {(currency?.methods ?? []).map(({ id }) => (
            <button key={id} type="button" className="chip-button" aria-pressed={id === state.method} style={id === state.method ? chosen : undefined} onClick={() => buy.setMethod(id as PaymentMethod)}>
              {tb(id === 'card' ? 'buy.card' : 'buy.bank')}
            </button>
          ))}
        </div>
      </div>
      {state.assets.length > 0 ? (
        <div className="field" role="group" aria-labelledby={ids.asset}>
          <span id={ids.asset} className="field-label">
            {tb('buy.asset')}
          </span>
          <div style={chips}>
            {state.assets.map((asset) => {
              const isChosen = asset.network === state.asset?.network && asset.symbol === state.asset.symbol
              return (
                <button key={`${asset.network}|${asset.symbol}`} type="button" className="chip-button" aria-pressed={isChosen} style={isChosen ? chosen : undefined} onClick={() => buy.chooseAsset(asset)}>
                  {tb('buy.assetValue', { symbol: asset.symbol, network: networkName(asset.network) })}
                </button>
              )
            })}
          </div>
        </div>
      ) : null}
      {state.isQuoting && state.quotes.length === 0 ? (
        <p className="muted" role="status">
          {tb('buy.quoting')}
        </p>
      ) : null}
      {state.isEstimate ? <p className="muted">{tb('buy.estimate')}</p> : null}
      {state.quotes.length > 0 ? (
        <ul className="list" aria-label={tb('buy.quotes')} aria-busy={state.isQuoting || undefined}>
          {state.quotes.map((q, index) => (
            <QuoteRow key={q.provider} quote={q} isBest={index === 0} isChosen={q.provider === state.provider} locale={locale} tb={tb} onChoose={() => buy.chooseProvider(q.provider)} />
          ))}
        </ul>
      ) : null}
      <Alert message={state.error} />
      <button type="submit" className="button send-submit" disabled={!canContinue}>
        {tb('buy.continue', { provider: providerName || '…' })}
      </button>
    </form>
  )
}

function QuoteRow({ quote, isBest, isChosen, locale, tb, onChoose }: { quote: BuyQuote; isBest: boolean; isChosen: boolean; locale: string; tb: BuyTranslate; onChoose: () => void }) {
  const fees = String(Number(quote.fees.provider) + Number(quote.fees.network))
  return (
    <li>
      <button type="button" className="item row" aria-pressed={isChosen} style={isChosen ? { outline: '2px solid var(--tsr-accent)' } : undefined} onClick={onChoose}>
        <span className="row-label" style={{ whiteSpace: 'normal', display: 'grid', gap: '0.2em' }}>
          <span>
            {quote.providerName}
            {isBest ? <span className="muted-inline">{` · ${tb('buy.best')}`}</span> : null}
          </span>
          <span>{tb('buy.receive', { amount: localizeDecimal(locale, quote.purchaseAmount), symbol: quote.asset })}</span>
          <span className="muted-inline">{tb('buy.fees', { fees: money(locale, fees, quote.paymentCurrency), network: money(locale, quote.fees.network, quote.paymentCurrency) })}</span>
        </span>
      </button>
    </li>
  )
}
