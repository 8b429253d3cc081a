import type { ReactNode } from 'react'
import { useNetwork } from '../../react/hooks'
import { useTokenBalances } from '../../react/headless/useTokenBalances'
import { useWidget, useWidgetState } from '../../react/WidgetProvider'
import { tokenKey } from '../../families/sendForm'
import type { SendController } from '../../families/types'
import { Alert } from '../Alert'
import { formatUsdValue } from '../i18n/formatNumber'
import { Glyph } from '../Modal/Glyph'
import { useLocale, useTranslate } from '../useTranslate'
import { formatTokenBalance } from './formatTokenBalance'
import { networkImageUrl } from './NetworkIcon'
import { tokenBalanceImageUrl } from './tokenBalanceImageUrl'
import { TokenIcon } from './TokenIcon'
import { useSendController } from './useSendController'

/**
 * The account's tokens on its network (SPEC: see token balances): the network's currency and the tokens the site
 * configured, the most valuable first, each with its icon, name, balance in the locale's digits and, when priced, its
 * value in dollars. The family's send form reads the same list, so what Send offers is what this view shows.
 */
export function TokensView() {
  const namespace = useWidgetState((s) => s.activeNamespace)
  const loaded = useSendController(namespace)
  if (!loaded) return <LoadingList />
  if ('error' in loaded) return <Alert message={loaded.error} />
  return <TokenList send={loaded.send} />
}

/** One token: its icon, symbol and name, then its amounts (`children`). */
function TokenRow({ symbol, name, imageUrl, children }: { symbol: string; name: string; imageUrl: string | undefined; children: ReactNode }) {
  return (
    <li className="item token-row">
      <TokenIcon symbol={symbol} imageUrl={imageUrl} size={32} />
      <span className="token-text">
        <span className="token-symbol">{symbol}</span>
        <span className="token-name">{name}</span>
      </span>
      <span className="token-amounts">{children}</span>
    </li>
  )
}

/** While balances load: the network's currency as it will show, a skeleton where its balance comes (never a bare '…'). */
function LoadingList() {
  const widget = useWidget()
  const t = useTranslate()
  const { network } = useNetwork()
  const { symbol, name } = network.nativeCurrency
  return (
    <ul className="list token-rows" aria-label={t('tokens.list', { network: network.name })} aria-busy="true">
      <TokenRow symbol={symbol} name={name} imageUrl={networkImageUrl(widget, network)}>
        <span className="skeleton" aria-hidden="true" />
        <span className="visually-hidden">{t('tokens.loading')}</span>
      </TokenRow>
    </ul>
  )
}

/** The list itself, once the family's send controller is loaded: its balances, read again on each visit. */
export function TokenList({ send }: { send: SendController }) {
  const widget = useWidget()
  const t = useTranslate()
  const locale = useLocale()
  const { network } = useNetwork()
  const { tokens, hasLoaded, isLoading } = useTokenBalances(send)

  if (!hasLoaded) return <LoadingList />
  if (tokens.length === 0) {
    return (
      <div className="account">
        <p className="muted">{t('tokens.unavailable')}</p>
        <button type="button" className="button" disabled={isLoading} onClick={() => void send.loadTokenBalances({ force: true })}>
          <Glyph name="retry" />
          {t('activity.retry')}
        </button>
      </div>
    )
  }
  return (
    <ul className="list token-rows" aria-label={t('tokens.list', { network: network.name })}>
      {tokens.map((token) => (
        <TokenRow key={tokenKey(token)} symbol={token.symbol} name={token.name} imageUrl={tokenBalanceImageUrl(widget, network, token)}>
          <span className="token-balance">{formatTokenBalance(locale, token.quantity.numeric)}</span>
          {token.value > 0 ? <span className="token-name">{formatUsdValue(locale, token.value)}</span> : null}
        </TokenRow>
      ))}
    </ul>
  )
}
