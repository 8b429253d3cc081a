import { useEffect, useState, type ReactNode } from 'react'
import { formatUnits, shortenAddress } from '../../../shared/protocol/display'
import type { NativeCurrency, TokenRef } from '../../../shared/protocol/review'
import type { TokenBalance } from '../../../shared/protocol/schemas/entities'
import { isNativeToken } from '../../families/sendForm'
import { useWidget, useWidgetState } from '../../react/WidgetProvider'
import { formatUsdValue, localizeDecimal } from '../i18n/formatNumber'
import type { ReviewMessageKey } from '../i18n/reviewEn'
import type { WidgetNetwork } from '../../widget/config'
import { NetworkIcon } from './NetworkIcon'
import { TokenIcon } from './TokenIcon'
import { assetImageUrlOn, tokenBalanceImageUrl } from './tokenBalanceImageUrl'

// What the review's views of every family share (issue #36).

export type Translate = (key: ReviewMessageKey, params?: Record<string, string>) => string
export type Format = {
  tr: Translate
  locale: string
  nativeCurrency: NativeCurrency
  /** An amount's worth in dollars where the data service prices it (a transaction's or a batch's amounts). */
  usdOf?: (asset: ChangedAsset, amount: bigint) => string | undefined
}

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

/**
 * The account's tokens on a review's network as the data service lists them, priced. None without a data service, on
 * another network than the account's, or when the service does not answer: the amounts then go without dollars.
 */
function useHeldTokens(caipNetworkId: string): readonly TokenBalance[] {
  const { core, config } = useWidget()
  const address = useWidgetState((s) => (s.activeCaipNetworkId === caipNetworkId ? s.address : undefined))
  const [held, setHeld] = useState<{ of: string; tokens: readonly TokenBalance[] }>()
  const of = `${caipNetworkId}:${address}`
  useEffect(() => {
    if (!address || !core || !config.services?.api) return
    let isCurrent = true
    core.dataService.getBalance({ address, chainId: caipNetworkId }).then(
      ({ balances }) => isCurrent && setHeld({ of, tokens: balances }),
      () => {},
    )
    return () => {
      isCurrent = false
    }
  }, [core, config, address, caipNetworkId, of])
  return held?.of === of ? held.tokens : []
}

/** EVM addresses in any case; the others (base58) exactly. */
const isSameAddress = (a: string, b: string) => a === b || (a.startsWith('0x') && a.toLowerCase() === b.toLowerCase())

/** An asset of a change: its address (none for the network's currency), symbol and decimals. */
type ChangedAsset = { address?: string; symbol: string; decimals: number | undefined }
export type ChangeDetails = (asset: ChangedAsset, amount: bigint) => { icon: ReactNode; usd: string | undefined }

/**
 * What a change's amount is shown with: its token's icon (the account's listed token's, else the data service's image by
 * address) and its worth in dollars at the listed token's price (none unpriced or unlisted).
 * @example const detailsOf = useChangeDetails(network, review.network, locale); detailsOf({ symbol: 'ETH', decimals: 18 }, fee).usd // '$0.59'
 */
export function useChangeDetails(network: WidgetNetwork | undefined, caipNetworkId: string, locale: string): ChangeDetails {
  const widget = useWidget()
  const held = useHeldTokens(caipNetworkId)
  return ({ address, symbol, decimals }, amount) => {
    const token = held.find((listed) => (address === undefined ? isNativeToken(listed) : listed.address !== undefined && isSameAddress(listed.address.split(':').pop()!, address)))
    const imageUrl = !network ? undefined : token ? tokenBalanceImageUrl(widget, network, token) : assetImageUrlOn(widget, network, { symbol, address, isNative: address === undefined })
    const usd = token && token.price > 0 && decimals !== undefined ? formatUsdValue(locale, Number(formatUnits(amount, decimals)) * token.price) : undefined
    return { icon: <TokenIcon symbol={symbol} imageUrl={imageUrl} size={20} />, usd }
  }
}

type Change = { key: string; amount: bigint; text: string; icon?: ReactNode; usd?: string | undefined }

/** Amount changes as a list: what leaves in the danger colour, with − and +; each with its token's icon and dollar value when known. */
export function ChangeList({ label, items }: { label: string; items: readonly Change[] }) {
  return (
    <>
      <Heading>{label}</Heading>
      <ul className="summary" aria-label={label} data-testid="balance-changes" style={{ listStyle: 'none', gridTemplateColumns: '1fr' }}>
        {items.map(({ key, amount, text, icon, usd }) => (
          <li key={key} style={{ ...figure, display: 'flex', alignItems: 'center', gap: '0.6em', textAlign: 'right' }}>
            {icon}
            <span style={{ flex: 1, minWidth: 0 }}>
              <span style={{ color: amount < 0n ? 'var(--tsr-danger)' : undefined }}>{`${amount < 0n ? '−' : '+'}${text}`}</span>
              {usd ? <span className="detail">{usd}</span> : null}
            </span>
          </li>
        ))}
      </ul>
    </>
  )
}

/** The network the request is for, and the fee it will cost (with its worth in dollars when priced). */
export function NetworkRow({ network, fallback, feeText, feeUsd, format }: { network: WidgetNetwork | undefined; fallback: string; feeText: string | undefined; feeUsd?: string | undefined; format: Format }) {
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
      <Term term={tr('review.fee')}>{feeText && (feeUsd ? `${feeText} (${feeUsd})` : feeText)}</Term>
    </dl>
  )
}
