import { useId, useState } from 'react'
import type { TokenBalance } from '../../../shared/protocol/schemas/entities'
import { useNetwork } from '../../react/hooks'
import * as swapModel from '../../react/headless/swapModel'
import { useSwapFormModel } from '../../react/headless/useSwapFormModel'
import { useWidget } from '../../react/WidgetProvider'
import { tokenKey } from '../../families/sendForm'
import { errorNotice } from '../../state/errorNotice'
import { PRICE_IMPACT_WARNING_PERCENT, type SwapIssue } from '../../widget/createSwapController'
import { Alert } from '../Alert'
import { Glyph } from '../Modal/Glyph'
import { formatUsdValue, localizeDecimal } from '../i18n/formatNumber'
import { translateSwap, type SwapMessageKey } from '../i18n/swapCatalogues'
import { useLocale, useTranslate } from '../useTranslate'
import { AmountBox } from './AmountBox'
import { amountIssueText } from './amountIssueText'
import { networkImageUrl } from './NetworkIcon'
import { tokenBalanceImageUrl } from './tokenBalanceImageUrl'
import { TokenPicker } from './TokenPicker'


type SwapTranslate = (key: SwapMessageKey, params?: Record<string, string>) => string

/** An amount of a token as a person reads it: 2 decimals from 1,000, 4 from 1, else 6; in the locale's digits. */
function formatAmount(locale: string, numeric: string): string {
  const [whole = '0', fraction = ''] = numeric.split('.')
  const digits = whole.replace(/^0+/, '').length >= 4 ? 2 : Number(whole) >= 1 ? 4 : 6
  const cut = fraction.slice(0, digits).replace(/0+$/, '')
  return localizeDecimal(locale, cut ? `${whole}.${cut}` : whole)
}

/** The slippage tolerances offered (percent): Uniswap's interface's auto range and the spec's default (SPEC §9: 1). */
const SLIPPAGE_CHOICES = [0.5, 1, 3] as const
const chosen = { background: 'var(--tsr-accent)', color: 'var(--tsr-accent-text)' } as const

/** The quote's figures stay on one line each. */
const figure = { whiteSpace: 'nowrap' } as const

function swapIssueText(t: ReturnType<typeof useTranslate>, ts: SwapTranslate, issue: SwapIssue): string {
  switch (issue.reason) {
    case 'overBalance':
      return t('send.insufficientFunds', { symbol: issue.symbol })
    case 'noRoomForFee':
      return t('send.amount.noRoomForFee', { symbol: issue.symbol })
    case 'feeNotCovered':
      return t('send.insufficientGas', { symbol: issue.symbol })
    case 'priceImpact':
      return ts('swap.priceImpactRefused', { limit: String(issue.limit) })
    case 'tooManyDecimals':
      return t('send.amount.tooManyDecimals', { symbol: issue.symbol, decimals: String(issue.decimals) })
  }
}

/**
 * Account → Swap (SPEC §1, §2): what the visitor pays and receives, each with its token's balance; the amount with Max;
 * the quote as the amount rests (rate, price impact, the least received at the slippage, the network fee, the quote's
 * source); Approve as its own step when the router may not spend enough (in one batch with the swap when the wallet
 * sends calls atomically: 'Approve TUSD and swap'); then Swap. Everything that would stop the
 * swap is said before any wallet is asked.
 */
export default function SwapView() {
  const widget = useWidget()
  const [swap] = useState(() => swapModel.getSwapController(widget))
  const t = useTranslate()
  const locale = useLocale()
  const ts: SwapTranslate = (key, params) => translateSwap(locale, key, params)
  const { network } = useNetwork()
  const ids = { from: useId(), to: useId(), amount: useId(), amountIssue: useId() }
  const form = useSwapFormModel(swap, locale, swapModel, network.nativeCurrency.decimals)
  const { state, amountText, typedIssue, issue, nativeToken: native, networkFee: feeNative, received, minimumReceived: least, rate, isApprovalBatched, needsApproval, isBusy, canSubmit, setAmount, fillMax } = form

  if (state.isUnsupported) return <Alert message={errorNotice('SWAP_NETWORK_UNSUPPORTED')} />
  const { from, to, quote } = state
  const imageUrlOf = (balance: TokenBalance) => tokenBalanceImageUrl(widget, network, balance)
  const placeholder = { symbol: network.nativeCurrency.symbol, name: network.nativeCurrency.name, imageUrl: networkImageUrl(widget, network) }
  /** An amount's worth in dollars at the data service's price; nothing unpriced. */
  const dollars = (amount: string | undefined, price = 0) => (amount && price > 0 ? formatUsdValue(locale, Number(amount) * price) : undefined)
  const inDollars = (amount: string | undefined, price?: number) => (dollars(amount, price) ? ` (${dollars(amount, price)})` : '')
  const paid = dollars(state.amount, from?.price)

  return (
    <form
      className="send-form swap-form"
      noValidate
      aria-busy={isBusy || undefined}
      onSubmit={(event) => {
        event.preventDefault()
        void form.submit()
      }}
    >
      <div className="field">
        <span id={ids.from} className="field-label">
          {ts('swap.from')}
        </span>
        <TokenPicker labelId={ids.from} tokens={state.tokens} value={from} imageUrlOf={imageUrlOf} placeholder={placeholder} isLoading={!state.hasLoadedTokens} locale={locale} keyOf={tokenKey} onChange={(token) => swap.choose('from', token)} />
      </div>
      <div className="field">
        <label htmlFor={ids.amount} className="field-label">
          {t('send.amount')}
        </label>
        <AmountBox
          id={ids.amount}
          value={amountText}
          locale={locale}
          symbol={from?.symbol}
          isInvalid={typedIssue !== undefined || (issue !== undefined && issue.reason !== 'priceImpact')}
          issueId={typedIssue || issue ? ids.amountIssue : undefined}
          onChange={setAmount}
          onMax={fillMax}
        />
        {paid && !typedIssue ? <p className="muted amount-usd">{t('send.amountUsd', { usd: paid })}</p> : null}
        {typedIssue || issue ? (
          <p id={ids.amountIssue} className="error" role="alert">
            {typedIssue ? amountIssueText(t, locale, typedIssue) : swapIssueText(t, ts, issue!)}
          </p>
        ) : null}
      </div>
      <button type="button" className="icon-button" style={{ justifySelf: 'center', margin: '-0.8em 0' }} aria-label={ts('swap.flip')} title={ts('swap.flip')} onClick={() => swap.flip()} disabled={!from || !to}>
        <Glyph name="swap" />
      </button>
      <div className="field">
        <span id={ids.to} className="field-label">
          {ts('swap.to')}
        </span>
        <TokenPicker labelId={ids.to} tokens={state.tokens} value={to} imageUrlOf={imageUrlOf} placeholder={placeholder} isLoading={!state.hasLoadedTokens} locale={locale} keyOf={tokenKey} onChange={(token) => swap.choose('to', token)} />
      </div>
      {state.isQuoting && !quote ? (
        <p className="muted" role="status">
          {ts('swap.quoting')}
        </p>
      ) : null}
      {quote && from && to && received && least ? (
        <dl className="summary swap-quote" aria-label={ts('swap.quote')} aria-busy={state.isQuoting || undefined}>
          <dt>{ts('swap.receive')}</dt>
          <dd style={figure}>{`${formatAmount(locale, received)} ${to.symbol}${inDollars(received, to.price)}`}</dd>
          <dt>{ts('swap.rate')}</dt>
          <dd style={figure}>{ts('swap.rateValue', { from: from.symbol, rate: formatAmount(locale, String(rate ?? 0)), to: to.symbol })}</dd>
          <dt>{ts('swap.priceImpact')}</dt>
          <dd style={figure}>{`${localizeDecimal(locale, quote.priceImpact.toFixed(2))} %`}</dd>
          <dt>{ts('swap.minimumReceived', { slippage: localizeDecimal(locale, String(state.slippagePercent)) })}</dt>
          <dd style={figure}>{`${formatAmount(locale, least)} ${to.symbol}`}</dd>
          {feeNative !== undefined ? (
            <>
              <dt>{ts('swap.networkFee')}</dt>
              <dd style={figure}>{`${formatAmount(locale, feeNative)} ${network.nativeCurrency.symbol}${inDollars(feeNative, native?.price)}`}</dd>
            </>
          ) : null}
          <dt>{ts('swap.source')}</dt>
          <dd style={figure} title={quote.source.router}>{ts('swap.sourceValue', { name: quote.source.name, block: quote.blockNumber })}</dd>
        </dl>
      ) : null}
      {quote ? (
        <div role="group" aria-label={ts('swap.slippage')} style={{ display: 'flex', alignItems: 'center', gap: '0.6em', flexWrap: 'wrap' }}>
          <span className="muted" style={{ marginRight: 'auto' }}>
            {ts('swap.slippage')}
          </span>
          {SLIPPAGE_CHOICES.map((percent) => (
            <button key={percent} type="button" className="chip-button" aria-pressed={state.slippagePercent === percent} style={state.slippagePercent === percent ? chosen : undefined} disabled={isBusy} onClick={() => swap.setSlippage(percent)}>
              {`${localizeDecimal(locale, String(percent))} %`}
            </button>
          ))}
        </div>
      ) : null}
      {quote && quote.priceImpact > PRICE_IMPACT_WARNING_PERCENT && issue?.reason !== 'priceImpact' ? (
        <p className="error" role="alert">
          {ts('swap.priceImpactWarning', { impact: `${localizeDecimal(locale, quote.priceImpact.toFixed(2))} %` })}
        </p>
      ) : null}
      {state.hasPriceMoved ? (
        <p className="error" role="alert">
          {ts('swap.priceMoved')}
        </p>
      ) : null}
      {(needsApproval || isApprovalBatched) && from && state.amount ? (
        <p className="muted">{ts(isApprovalBatched ? 'swap.batchNote' : 'swap.approveNote', { amount: localizeDecimal(locale, state.amount), symbol: from.symbol })}</p>
      ) : null}
      <Alert message={state.error} />
      <button type="submit" className="button send-submit" disabled={!canSubmit} aria-busy={isBusy || state.isQuoting || undefined}>
        {state.step === 'approving' || state.step === 'swapping' ? ts('swap.inWallet') : needsApproval && from ? ts('swap.approve', { symbol: from.symbol }) : isApprovalBatched && from ? ts('swap.approveAndSwap', { symbol: from.symbol }) : ts('swap.submit')}
      </button>
    </form>
  )
}
