import type { ReactNode } from 'react'
import { formatUnits, shortenAddress } from '../../../shared/protocol/display'
import type { BalanceChange, DecodedCall, NativeCurrency, ReviewRow, ReviewValue, ReviewWarning, RevertReason, TokenRef } from '../../../shared/protocol/review'
import { useStoreSelector, useWidget } from '../../react/WidgetProvider'
import type { PendingReview } from '../../widget/createRequestReview'
import { Alert } from '../Alert'
import { localizeDecimal } from '../i18n/formatNumber'
import { translateReview, type ReviewMessageKey } from '../i18n/reviewCatalogues'
import { useLocale } from '../useTranslate'
import { NetworkIcon } from './NetworkIcon'

type Translate = (key: ReviewMessageKey, params?: Record<string, string>) => string
type Format = { tr: Translate; locale: string; nativeCurrency: NativeCurrency }

const figure = { fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' } as const
const MAX_TEXT = 200
const MAX_NESTING = 3

/** A section's title, outside its list (a list of terms holds terms and definitions only). */
const Heading = ({ children }: { children: ReactNode }) => <p style={{ margin: '0 0 -0.8em', fontWeight: 600, fontSize: '1.3em' }}>{children}</p>

const Address = ({ address }: { address: string }) => <span title={address}>{shortenAddress(address)}</span>
const tokenName = (token: TokenRef) => token.symbol ?? shortenAddress(token.address)

function tokenAmount({ tr, locale }: Format, token: TokenRef, amount: bigint, isUnlimited = false) {
  if (isUnlimited) return tr('review.unlimited', { symbol: tokenName(token) })
  // Without its decimals (the token did not say), the amount in its smallest unit, which is what the call carries.
  return `${localizeDecimal(locale, token.decimals === undefined ? amount.toString() : formatUnits(amount, token.decimals))} ${tokenName(token)}`
}

const nativeAmount = ({ locale, nativeCurrency }: Format, amount: bigint) => `${localizeDecimal(locale, formatUnits(amount, nativeCurrency.decimals))} ${nativeCurrency.symbol}`

/** An estimate (the fee) to four significant digits: its last digits say nothing. */
function roughly(decimal: string) {
  const [whole = '0', fraction = ''] = decimal.split('.')
  if (whole !== '0') return fraction ? `${whole}.${fraction.slice(0, Math.max(0, 4 - whole.length))}`.replace(/\.?0*$/, '') : whole
  const leadingZeros = /^0*/.exec(fraction)![0].length
  return `0.${fraction.slice(0, leadingZeros + 4)}`.replace(/\.?0*$/, '')
}

function Value({ value, format, depth }: { value: ReviewValue; format: Format; depth: number }): ReactNode {
  switch (value.kind) {
    case 'address':
      return <Address address={value.address} />
    case 'tokenAmount':
      return tokenAmount(format, value.token, value.amount, value.isUnlimited)
    case 'nativeAmount':
      return nativeAmount(format, value.amount)
    case 'date':
      return new Date(Number(value.timestamp) * 1000).toLocaleString(format.locale)
    case 'number':
      return localizeDecimal(format.locale, value.value.toString())
    case 'bool':
      return format.tr(value.value ? 'review.yes' : 'review.no')
    case 'text':
      return value.value.length > MAX_TEXT ? `${value.value.slice(0, MAX_TEXT)}…` : value.value
    case 'bytes':
      return <span title={value.value.length > 66 ? undefined : value.value}>{value.value.length > 22 ? `${value.value.slice(0, 10)}…${value.value.slice(-8)}` : value.value}</span>
    case 'calls':
      return depth >= MAX_NESTING ? format.tr('review.nestedCalls', { count: String(value.calls.length) }) : <Calls calls={value.calls} format={format} depth={depth + 1} />
  }
}

function Rows({ rows, format, depth }: { rows: readonly ReviewRow[]; format: Format; depth: number }) {
  return rows.map((row) => (
    <div key={row.path} style={{ display: 'contents' }}>
      <dt>{row.label ?? row.path}</dt>
      <dd style={figure}>
        <Value value={row.value} format={format} depth={depth} />
      </dd>
    </div>
  ))
}

function Call({ call, format, depth, title }: { call: DecodedCall; format: Format; depth: number; title?: string }) {
  const { tr } = format
  const heading = title ? <Heading>{title}</Heading> : null
  if (call.kind === 'nativeTransfer')
    return (
      <>
        {heading}
        <p className="summary" style={{ ...figure, display: 'block' }}>
          {tr('review.nativeTransfer', { amount: nativeAmount(format, call.value), to: shortenAddress(call.to) })}
        </p>
      </>
    )
  if (call.kind === 'unknown' || call.kind === 'deployment')
    return (
      <>
        {heading}
        <p className="summary" style={{ ...figure, display: 'block' }}>
          {call.kind === 'unknown' ? tr('review.unknownCall', { selector: call.selector, to: shortenAddress(call.to), bytes: String(call.dataBytes) }) : tr('review.deployment', { bytes: String(call.dataBytes) })}
          {call.value > 0n ? ` ${tr('review.sends', { amount: nativeAmount(format, call.value) })}` : null}
        </p>
      </>
    )
  return (
    <>
      {heading}
      <dl className="summary" aria-label={call.intent ?? call.functionName}>
      <dt>{tr('review.function')}</dt>
      <dd style={figure} title={call.signature}>
        {call.intent ?? call.functionName}
      </dd>
      <dt>{tr('review.contract')}</dt>
      <dd style={figure}>
        <Address address={call.to} />
      </dd>
      {call.value > 0n ? (
        <>
          <dt>{tr('review.sends', { amount: '' }).trim()}</dt>
          <dd style={figure}>{nativeAmount(format, call.value)}</dd>
        </>
      ) : null}
      <Rows rows={call.args} format={format} depth={depth} />
      </dl>
    </>
  )
}

function Calls({ calls, format, depth }: { calls: readonly DecodedCall[]; format: Format; depth: number }) {
  return (
    <div style={{ display: 'grid', gap: '0.8em', minWidth: 0 }}>
      {calls.map((call, index) => (
        <Call key={index} call={call} format={format} depth={depth} title={calls.length > 1 ? format.tr('review.call', { index: String(index + 1) }) : undefined} />
      ))}
    </div>
  )
}

function reasonText(tr: Translate, reason: RevertReason) {
  switch (reason.kind) {
    case 'error':
      // The contract's own words, quoted: data from the chain, bounded.
      return `“${reason.message.slice(0, MAX_TEXT)}”`
    case 'panic':
      return tr('review.reason.panic', { code: `0x${reason.code.toString(16)}` })
    case 'customError':
      return tr('review.reason.customError', { name: reason.name })
    case 'unknown':
      return tr('review.reason.unknown')
  }
}

/** A warning as a sentence; `danger` ones are announced (role alert) and drawn in the danger colour. */
function warningText(format: Format, warning: ReviewWarning, callCount: number): { text: string; danger: boolean } {
  const { tr } = format
  switch (warning.kind) {
    case 'unlimitedApproval':
      return { text: tr('review.warning.unlimitedApproval', { spender: shortenAddress(warning.spender), token: tokenName(warning.token) }), danger: true }
    case 'approval':
      return { text: tr('review.warning.approval', { spender: shortenAddress(warning.spender), amount: tokenAmount(format, warning.token, warning.amount), token: tokenName(warning.token) }), danger: false }
    case 'nftApproval':
      return { text: tr('review.warning.nftApproval', { spender: shortenAddress(warning.spender), tokenId: warning.tokenId.toString(), collection: shortenAddress(warning.collection) }), danger: false }
    case 'approvalForAll':
      return { text: tr('review.warning.approvalForAll', { operator: shortenAddress(warning.operator), collection: shortenAddress(warning.collection) }), danger: true }
    case 'wouldRevert':
      return callCount > 1
        ? { text: tr('review.warning.wouldRevertCall', { index: String(warning.callIndex + 1), reason: reasonText(tr, warning.reason) }), danger: true }
        : { text: tr('review.warning.wouldRevert', { reason: reasonText(tr, warning.reason) }), danger: true }
    case 'notSimulated':
      return { text: tr(`review.warning.notSimulated.${warning.why}`), danger: false }
    case 'chainMismatch':
      return { text: tr('review.warning.chainMismatch', { chainId: String(warning.chainId), domainChainId: String(warning.domainChainId) }), danger: true }
  }
}

function Warnings({ warnings, format, callCount }: { warnings: readonly ReviewWarning[]; format: Format; callCount: number }) {
  return warnings.map((warning, index) => {
    const { text, danger } = warningText(format, warning, callCount)
    return (
      <p key={index} className={danger ? 'error' : 'muted'} role={danger ? 'alert' : undefined} data-warning={warning.kind}>
        {text}
      </p>
    )
  })
}

function BalanceChanges({ changes, format }: { changes: readonly BalanceChange[]; format: Format }) {
  const { tr } = format
  if (changes.length === 0) return <p className="muted">{tr('review.noBalanceChanges')}</p>
  return (
    <>
      <Heading>{tr('review.balanceChanges')}</Heading>
      <ul className="summary" aria-label={tr('review.balanceChanges')} data-testid="balance-changes" style={{ listStyle: 'none', gridTemplateColumns: '1fr' }}>
      {changes.map(({ asset, amount }, index) => {
        const size = amount < 0n ? -amount : amount
        const text = asset.kind === 'native' ? nativeAmount(format, size) : tokenAmount(format, asset, size)
        return (
          <li key={index} style={{ ...figure, textAlign: 'right', color: amount < 0n ? 'var(--tsr-danger)' : undefined }}>
            {`${amount < 0n ? '−' : '+'}${text}`}
          </li>
        )
      })}
      </ul>
    </>
  )
}

/**
 * What a site's request will do, before the wallet asks (issue #36): warnings first (an unlimited approval, a revert,
 * what could not be checked), the balance changes, the call or calls decoded, or typed data field by field; the network
 * and the fee; then reject (4001 to the site) or continue in the wallet.
 */
export default function ReviewView() {
  const widget = useWidget()
  const locale = useLocale()
  const pending = useStoreSelector(widget.reviewStore, (s) => s.pending) as PendingReview | undefined
  if (!pending) return null
  const tr: Translate = (key, params) => translateReview(locale, key, params)
  const network = widget.getNetworks().find((n) => n.caipNetworkId === (pending.review?.network ?? pending.caipNetworkId))
  const format: Format = { tr, locale, nativeCurrency: network?.nativeCurrency ?? { symbol: 'ETH', decimals: 18 } }
  const { review } = pending
  const callCount = review?.kind === 'calls' ? review.calls.length : 1
  const intro =
    pending.method === 'wallet_sendCalls' ? tr('review.intro.calls', { count: String(callCount) }) : pending.method === 'eth_sendTransaction' ? tr('review.intro.transaction') : tr('review.intro.typedData')
  return (
    <div className="send-form" aria-busy={pending.status === 'checking' || undefined}>
      <p className="muted">{intro}</p>
      {pending.status === 'checking' ? (
        <p className="muted" role="status">
          {tr('review.checking')}
        </p>
      ) : null}
      {pending.failure ? <Alert message={tr('review.unavailable')} /> : null}
      {review ? <Warnings warnings={review.warnings} format={format} callCount={callCount} /> : null}
      {review && review.kind !== 'typedData' && review.balanceChanges && !review.warnings.some((w) => w.kind === 'wouldRevert') ? <BalanceChanges changes={review.balanceChanges} format={format} /> : null}
      {review?.kind === 'transaction' ? <Call call={review.call} format={format} depth={0} /> : null}
      {review?.kind === 'calls' ? <Calls calls={review.calls} format={format} depth={0} /> : null}
      {review?.kind === 'typedData' ? (
        <>
          <Heading>{tr('review.domain')}</Heading>
          <dl className="summary" aria-label={tr('review.domain')}>
            {review.domain.name !== undefined ? (
              <>
                <dt>{tr('review.domainName')}</dt>
                <dd>{review.domain.name.slice(0, MAX_TEXT)}</dd>
              </>
            ) : null}
            {review.domain.version !== undefined ? (
              <>
                <dt>{tr('review.domainVersion')}</dt>
                <dd>{review.domain.version.slice(0, MAX_TEXT)}</dd>
              </>
            ) : null}
            {review.domain.chainId !== undefined ? (
              <>
                <dt>{tr('review.domainChain')}</dt>
                <dd>{widget.getNetworks().find((n) => n.caipNetworkId === `eip155:${review.domain.chainId}`)?.name ?? String(review.domain.chainId)}</dd>
              </>
            ) : null}
            {review.domain.verifyingContract ? (
              <>
                <dt>{tr('review.verifyingContract')}</dt>
                <dd style={figure}>
                  <Address address={review.domain.verifyingContract} />
                </dd>
              </>
            ) : null}
          </dl>
          <Heading>{tr('review.message', { type: review.primaryType.slice(0, MAX_TEXT) })}</Heading>
          <dl className="summary" aria-label={tr('review.message', { type: review.primaryType.slice(0, MAX_TEXT) })}>
            <Rows rows={review.message} format={format} depth={0} />
          </dl>
        </>
      ) : null}
      {review && review.kind !== 'typedData' ? (
        <dl className="summary">
          <dt>{tr('review.network')}</dt>
          <dd>
            {network ? (
              <span className="with-icon">
                <NetworkIcon network={network} size={16} />
                {network.name}
              </span>
            ) : (
              review.network
            )}
          </dd>
          {review.fee ? (
            <>
              <dt>{tr('review.fee')}</dt>
              <dd style={figure}>{`${localizeDecimal(locale, roughly(formatUnits(review.fee.amount, format.nativeCurrency.decimals)))} ${format.nativeCurrency.symbol}`}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
      {pending.status === 'inWallet' ? (
        <p className="muted" role="status">
          {tr('review.inWallet')}
        </p>
      ) : (
        <div className="actions" style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '0.8em' }}>
          <button type="button" className="button" data-variant="secondary" onClick={() => widget.decideReview(false)}>
            {tr('review.decline')}
          </button>
          <button type="button" className="button" disabled={pending.status !== 'ready'} onClick={() => widget.decideReview(true)}>
            {tr('review.confirm')}
          </button>
        </div>
      )}
    </div>
  )
}
