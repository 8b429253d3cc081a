import type { ReactNode } from 'react'
import { formatUnits, shortenAddress } from '../../../shared/protocol/display'
import type { NativeCurrency, TokenRef } from '../../../shared/protocol/review'
import { localizeDecimal } from '../i18n/formatNumber'
import type { ReviewMessageKey } from '../i18n/reviewEn'
import type { WidgetNetwork } from '../../widget/config'
import { NetworkIcon } from './NetworkIcon'

// What the review's views of every family share (issue #36).

export type Translate = (key: ReviewMessageKey, params?: Record<string, string>) => string
export type Format = { tr: Translate; locale: string; nativeCurrency: NativeCurrency }

export const figure = { fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' } as const
/** The most characters of a text from the request (a name, a contract's reason) shown. */
export const MAX_TEXT = 200

/** A term of a list and its value, or nothing when the value is absent (undefined, null or false). */
export const Term = ({ term, children }: { term: string; children: ReactNode }) =>
  children == null || children === false ? null : (
    <>
      <dt>{term}</dt>
      <dd style={figure}>{children}</dd>
    </>
  )

/** A section's title, outside its list (a list of terms holds terms and definitions only). */
export const Heading = ({ children }: { children: ReactNode }) => <p style={{ margin: '0 0 -0.8em', fontWeight: 600, fontSize: '1.3em' }}>{children}</p>

export const Address = ({ address }: { address: string }) => <span title={address}>{shortenAddress(address)}</span>
export const tokenName = (token: TokenRef) => token.symbol ?? shortenAddress(token.address)

export const nativeAmount = ({ locale, nativeCurrency }: Format, amount: bigint) => `${localizeDecimal(locale, formatUnits(amount, nativeCurrency.decimals))} ${nativeCurrency.symbol}`

/** An estimate (the fee) to four significant digits: its last digits say nothing. */
export function roughly(decimal: string) {
  const [whole = '0', fraction = ''] = decimal.split('.')
  if (whole !== '0') return fraction ? `${whole}.${fraction.slice(0, Math.max(0, 4 - whole.length))}`.replace(/\.?0*$/, '') : whole
  const leadingZeros = /^0*/.exec(fraction)![0].length
  return `0.${fraction.slice(0, leadingZeros + 4)}`.replace(/\.?0*$/, '')
}

/** Amount changes as a list: what leaves in the danger colour, with − and +. */
export function ChangeList({ label, items }: { label: string; items: readonly { key: string; amount: bigint; text: string }[] }) {
  return (
    <>
      <Heading>{label}</Heading>
      <ul className="summary" aria-label={label} data-testid="balance-changes" style={{ listStyle: 'none', gridTemplateColumns: '1fr' }}>
        {items.map(({ key, amount, text }) => (
          <li key={key} style={{ ...figure, textAlign: 'right', color: amount < 0n ? 'var(--tsr-danger)' : undefined }}>
            {`${amount < 0n ? '−' : '+'}${text}`}
          </li>
        ))}
      </ul>
    </>
  )
}

/** The network the request is for, and the fee it will cost. */
export function NetworkRow({ network, fallback, feeText, format }: { network: WidgetNetwork | undefined; fallback: string; feeText: string | undefined; format: Format }) {
  const { tr } = format
  return (
    <dl className="summary">
      <dt>{tr('review.network')}</dt>
      <dd>
        {network ? (
          <span className="with-icon" style={{ whiteSpace: 'nowrap' }}>
            <NetworkIcon network={network} size={16} />
            {network.name}
          </span>
        ) : (
          fallback
        )}
      </dd>
      <Term term={tr('review.fee')}>{feeText}</Term>
    </dl>
  )
}
