import { shortenAddress } from '../../../shared/protocol/display'
import { useNetwork } from '../../react/hooks'
import { useWidget } from '../../react/WidgetProvider'
import { localizeRelativeTime } from '../i18n/formatRelativeTime'
import { useLocale, useTranslate } from '../useTranslate'
import { clip, explorerTransactionUrl, formatActivityAmount, type ActivityDirection, type ActivityRow as Row } from './activityRows'
import { TokenIcon } from './TokenIcon'
import { assetImageUrlOn } from './tokenBalanceImageUrl'

/** A clock a minute ahead of this one is taken as skew, not as the future: a just-mined block reads "a few seconds ago". */
const CLOCK_SKEW_MS = 60_000

const sign: Record<ActivityDirection, string> = { out: '\u2212', in: '+', self: '' }
const titleKey = { out: 'activity.sent', in: 'activity.received', self: 'activity.self' } as const

/** The arrow of the direction badge: up-right for a send, down-left for a receipt, both ways for a transfer to itself. */
function DirectionArrow({ direction }: { direction: ActivityDirection }) {
  const path = direction === 'out' ? 'M4 12L12 4M6 4h6v6' : direction === 'in' ? 'M12 4L4 12M10 12H4V6' : 'M3 6h9M9 3l3 3-3 3M13 10H4M7 7l-3 3 3 3'
  return (
    <svg viewBox="0 0 16 16" width="10" height="10" aria-hidden="true" focusable="false">
      <path d={path} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}

/**
 * One transfer of the Activity list, laid out as peers do: the token's icon with a direction badge; on two lines, what
 * happened, its status (Pending or Failed in words, Confirmed as a check) and the amount (right-aligned, tabular
 * digits), then with whom (their name when they have one, else the shortened address), when, and a link to the
 * transaction on the network's explorer when it has one.
 * Anything too long for the row is cut with an ellipsis, its whole in the tooltip.
 */
export function ActivityRow({ row, nowMs, explorer }: { row: Row; nowMs: number; explorer: { name: string; url: string } | undefined }) {
  const t = useTranslate()
  const locale = useLocale()
  const party = row.counterparty ? (row.counterparty.name ?? shortenAddress(row.counterparty.address)) : undefined
  const shownTimeMs = row.timeMs > nowMs && row.timeMs - nowMs < CLOCK_SKEW_MS ? nowMs : row.timeMs
  const amount = `${sign[row.direction]}${formatActivityAmount(locale, row.amount)}`
  const symbol = row.symbol || t('activity.unknownToken')
  const href = explorerTransactionUrl(explorer?.url, row.hash)
  const explorerName = clip(explorer?.name ?? '', 32)
  // Without an image of the entry's own, a token's as the Tokens view shows it: the network's for its currency, else the data service's by contract.
  const widget = useWidget()
  const { network } = useNetwork()
  const { fungible } = row
  const imageUrl = row.iconUrl ?? (fungible && assetImageUrlOn(widget, network, { symbol: row.symbol, address: fungible.address, isNative: fungible.address === undefined && row.symbol === network.nativeCurrency.symbol }))
  return (
    <li className="activity-row" data-direction={row.direction} data-status={row.status}>
      <span className="activity-icon">
        <TokenIcon symbol={row.symbol || '?'} imageUrl={imageUrl} size={32} />
        <span className="activity-badge" data-direction={row.direction}>
          <DirectionArrow direction={row.direction} />
        </span>
      </span>
      <span className="activity-main">
        <span className="activity-line">
          <span className="activity-title">{t(row.isPurchase ? 'activity.bought' : row.isMint ? 'activity.minted' : titleKey[row.direction])}</span>
          {row.status === 'confirmed' ? (
            // Confirmed is what most rows are: a check, as peers show it, its word for screen readers and as a tooltip.
            <span className="activity-status" data-status="confirmed" title={t('activity.status.confirmed')}>
              <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
                <path d="M3.5 8.5l3 3 6-7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
              <span className="visually-hidden">{t('activity.status.confirmed')}</span>
            </span>
          ) : (
            <span className="activity-status" data-status={row.status}>
              {t(`activity.status.${row.status}`)}
            </span>
          )}
          <span className="activity-amount" data-direction={row.direction} title={`${clip(row.amount, 100)} ${row.symbol}`}>
            {amount} {symbol}
          </span>
        </span>
        <span className="activity-line activity-sub">
          {party ? (
            <span className="activity-party" title={row.counterparty!.name ? `${row.counterparty!.name} (${row.counterparty!.address})` : row.counterparty!.address}>
              {t(row.direction === 'out' ? 'activity.to' : 'activity.from', { party })}
            </span>
          ) : null}
          <time dateTime={new Date(row.timeMs).toISOString()} title={new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(row.timeMs)}>
            {localizeRelativeTime(locale, shownTimeMs, nowMs)}
          </time>
          {href ? (
            <a className="activity-link" href={href} target="_blank" rel="noopener noreferrer" aria-label={t('activity.explorer', { explorer: explorerName })} title={t('activity.explorer', { explorer: explorerName })}>
              <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
                <path d="M9 3h4v4M13 3L7 9M11 9.5V13H3V5h3.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
            </a>
          ) : null}
        </span>
      </span>
    </li>
  )
}
