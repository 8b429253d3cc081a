import type { ReactNode } from 'react'
import { formatUnits, shortenAddress } from '../../../shared/protocol/display'
import type { BalanceChange, CallsReview, DecodedCall, LegacyTypedDataReview, MessageReview, PermissionGrant, PermissionsReview, ReviewRow, ReviewValue, ReviewWarning, RevertReason, TokenRef, TransactionReview } from '../../../shared/protocol/review'
import { useStoreSelector, useWidget } from '../../react/WidgetProvider'
import type { WidgetNetwork } from '../../widget/config'
import type { PendingReview } from '../../widget/createRequestReview'
import { Alert } from '../Alert'
import { localizeDecimal } from '../i18n/formatNumber'
import { translateReview } from '../i18n/translateReview'
import { useLocale } from '../useTranslate'

import { Address, ChangeList, figure, Heading, MAX_TEXT, nativeAmount, NetworkRow, roughly, Term, tokenName, useChangeDetails, type ChangeDetails, type Format, type Translate } from './reviewParts'
import { intentOf, rowLabel, type FunctionCall } from './callWords'
import { PsbtBody, SolanaBody } from './ReviewFamilyBodies'

const MAX_NESTING = 3

function tokenAmount({ tr, locale }: Format, token: TokenRef, amount: bigint, isUnlimited = false) {
  if (isUnlimited) return tr('review.unlimited', { symbol: tokenName(token) })
  // Without its decimals (the token did not say), the amount in its smallest unit, which is what the call carries.
  return `${localizeDecimal(locale, token.decimals === undefined ? amount.toString() : formatUnits(amount, token.decimals))} ${tokenName(token)}`
}

function Value({ value, format, depth }: { value: ReviewValue; format: Format; depth: number }): ReactNode {
  switch (value.kind) {
    case 'address':
      return <Address address={value.address} />
    case 'token':
      // The symbol is the contract's own word for itself: its address stays in view.
      return value.token.symbol === undefined ? (
        <Address address={value.token.address} />
      ) : (
        <>
          {value.token.symbol.slice(0, MAX_TEXT)}
          <small className="detail">
            <Address address={value.token.address} />
          </small>
        </>
      )
    case 'tokenAmount':
      return value.isUnlimited ? (
        tokenAmount(format, value.token, value.amount, true)
      ) : (
        <Worth usd={format.usdOf?.({ address: value.token.address, symbol: tokenName(value.token), decimals: value.token.decimals }, value.amount)}>{tokenAmount(format, value.token, value.amount)}</Worth>
      )
    case 'nativeAmount':
      return <Worth usd={format.usdOf?.(format.nativeCurrency, value.amount)}>{nativeAmount(format, value.amount)}</Worth>
    case 'date':
      return dateText(format, value.timestamp)
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

/** An amount with its worth in dollars under it, when priced. */
const Worth = ({ usd, children }: { usd: string | undefined; children: string }) =>
  usd ? (
    <>
      {children}
      <small className="detail">{usd}</small>
    </>
  ) : (
    children
  )

/** Unix seconds as a date in the visitor's locale; past what a date can hold, the number itself. */
function dateText({ locale }: Format, timestamp: bigint) {
  const date = new Date(Number(timestamp) * 1000)
  return Number.isNaN(date.getTime()) ? localizeDecimal(locale, timestamp.toString()) : date.toLocaleString(locale)
}

function Rows({ rows, format, depth, call }: { rows: readonly ReviewRow[]; format: Format; depth: number; call?: FunctionCall }) {
  return rows.map((row) => (
    <div key={row.path} style={{ display: 'contents' }}>
      <dt>{rowLabel(row, call, format.tr)}</dt>
      <dd style={figure}>
        <Value value={row.value} format={format} depth={depth} />
      </dd>
    </div>
  ))
}

/** A camelCase name that wraps between its words (`swapExact|ETHFor|Tokens`), not inside one. */
const breakableName = (name: string) => name.split(/(?=[A-Z][a-z])/).flatMap((word, index) => (index === 0 ? [word] : [<wbr key={index} />, word]))

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
  const intentKey = intentOf(call)
  const intent = call.intent ?? (intentKey && tr(intentKey))
  return (
    <>
      {heading}
      <dl className="summary" aria-label={intent ?? call.functionName}>
      <dt>{tr(intent ? 'review.action' : 'review.function')}</dt>
      <dd style={figure} title={call.signature}>
        {intent ?? call.functionName}
        {intent ? <small className="detail">{breakableName(call.functionName)}</small> : null}
      </dd>
      <dt>{tr('review.contract')}</dt>
      <dd style={figure}>
        <Address address={call.to} />
      </dd>
      <Term term={tr('review.sends', { amount: '' }).trim()}>{call.value > 0n && <Value value={{ kind: 'nativeAmount', amount: call.value }} format={format} depth={depth} />}</Term>
      <Rows rows={call.args} format={format} depth={depth} call={call} />
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

function BalanceChanges({ changes, format, detailsOf }: { changes: readonly BalanceChange[]; format: Format; detailsOf: ChangeDetails }) {
  const { tr, nativeCurrency } = format
  if (changes.length === 0) return <p className="muted">{tr('review.noBalanceChanges')}</p>
  const items = changes.map(({ asset, amount }, index) => {
    const size = amount < 0n ? -amount : amount
    const details =
      asset.kind === 'native' ? detailsOf(nativeCurrency, size) : detailsOf({ address: asset.address, symbol: tokenName(asset), decimals: asset.decimals }, size)
    return { key: String(index), amount, text: asset.kind === 'native' ? nativeAmount(format, size) : tokenAmount(format, asset, size), ...details }
  })
  return <ChangeList label={tr('review.balanceChanges')} items={items} />
}

/** A transaction or a batch of calls: warnings, balance changes, the call or calls decoded, the network and the fee. */
function ChainBody({ review, format, network }: { review: TransactionReview | CallsReview; format: Format; network: WidgetNetwork | undefined }) {
  const { locale, nativeCurrency } = format
  const detailsOf = useChangeDetails(network, review.network, locale)
  const priced: Format = { ...format, usdOf: (asset, amount) => detailsOf(asset, amount).usd }
  const callCount = review.kind === 'calls' ? review.calls.length : 1
  const fee = review.fee && `${localizeDecimal(locale, roughly(formatUnits(review.fee.amount, nativeCurrency.decimals)))} ${nativeCurrency.symbol}`
  const feeUsd = review.fee && detailsOf(nativeCurrency, review.fee.amount).usd
  return (
    <>
      <Warnings warnings={review.warnings} format={format} callCount={callCount} />
      {review.balanceChanges && !review.warnings.some((w) => w.kind === 'wouldRevert') ? <BalanceChanges changes={review.balanceChanges} format={format} detailsOf={detailsOf} /> : null}
      {review.kind === 'transaction' ? <Call call={review.call} format={priced} depth={0} /> : <Calls calls={review.calls} format={priced} depth={0} />}
      <NetworkRow network={network} fallback={review.network} format={format} feeText={fee} feeUsd={feeUsd} />
    </>
  )
}

/** The longest part of a message's text shown: past it, the text is cut with an ellipsis (a sign-in is a few hundred). */
const MAX_MESSAGE_TEXT = 4_000

/** The longest data shown whole when it is not text (a hash is 32 bytes); past it, its size and first bytes. */
const MAX_BYTES_SHOWN = 64

/**
 * A personal_sign message: a sign-in for another site warned of first, what it signs in to, then its text or bytes.
 * eth_sign's data (blind): the danger said first, then the data.
 */
function MessageBody({ review, format }: { review: MessageReview; format: Format }) {
  const { tr, locale } = format
  const { signIn, text, bytes, isBlind } = review
  const domain = signIn?.domain.slice(0, MAX_TEXT)
  const byteCount = (bytes.length - 2) / 2
  return (
    <>
      {isBlind ? (
        <p className="error" role="alert" data-warning="blindSignature">
          {tr('review.blind.warning')}
        </p>
      ) : null}
      {signIn && !signIn.isForThisSite ? (
        <p className="error" role="alert" data-warning="otherSite">
          {tr('review.signIn.otherSite', { domain: domain! })}
        </p>
      ) : null}
      {signIn ? (
        <dl className="summary" aria-label={tr('review.signIn')}>
          <Term term={tr('review.signIn.domain')}>{domain}</Term>
          <Term term={tr('review.signIn.address')}>{signIn.address && <Address address={signIn.address} />}</Term>
          <Term term={tr('review.signIn.expires')}>{signIn.expirationTime && new Date(signIn.expirationTime).toLocaleString(locale)}</Term>
        </dl>
      ) : null}
      <Heading>{tr(isBlind ? 'review.blind.data' : 'review.messageText')}</Heading>
      {text !== undefined ? (
        // Focusable, so a keyboard can scroll a long message (WCAG 2.1.1).
        <p className="summary" tabIndex={0} aria-label={tr(isBlind ? 'review.blind.data' : 'review.messageText')} style={{ display: 'block', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: '12em', overflowY: 'auto' }}>
          {text.length > MAX_MESSAGE_TEXT ? `${text.slice(0, MAX_MESSAGE_TEXT)}…` : text}
        </p>
      ) : isBlind && byteCount <= MAX_BYTES_SHOWN ? (
        <p className="summary" style={{ ...figure, display: 'block' }}>
          {bytes}
        </p>
      ) : (
        <p className="summary" style={{ ...figure, display: 'block' }}>
          {tr('review.message.bytes', { bytes: localizeDecimal(locale, String(byteCount)), start: bytes.slice(0, 18) })}
        </p>
      )}
    </>
  )
}

/** Legacy typed data: the danger said first (it names no site, contract or network), then its fields. */
function LegacyTypedDataBody({ review, format }: { review: LegacyTypedDataReview; format: Format }) {
  const { tr } = format
  return (
    <>
      <p className="error" role="alert" data-warning="legacyTypedData">
        {tr('review.legacy.warning')}
      </p>
      <Heading>{tr('review.legacy.fields')}</Heading>
      <dl className="summary" aria-label={tr('review.legacy.fields')}>
        <Rows rows={review.fields} format={format} depth={0} />
      </dl>
    </>
  )
}

/** Who a permission lets act: the signer's address, else its first value (a key's id), else the wallet. */
function Signer({ grant, format }: { grant: PermissionGrant; format: Format }) {
  const { signer } = grant
  if (!signer) return format.tr('review.permissions.walletDecides')
  if (signer.type === 'wallet') return format.tr('review.permissions.wallet')
  const row = signer.rows.find((r) => r.value.kind === 'address') ?? signer.rows[0]
  return row ? <Value value={row.value} format={format} depth={0} /> : signer.type.slice(0, MAX_TEXT)
}

/** ERC-7715 permissions: the danger said first (the site acts later without asking), then each request's who, what, limits and end. */
function PermissionsBody({ review, format, network, networkName }: { review: PermissionsReview; format: Format; network: string | undefined; networkName: (caipNetworkId: string) => string | undefined }) {
  const { tr } = format
  // A request that names no chain is for the wallet's network.
  const networkText = (caipNetworkId: string | undefined) => caipNetworkId && (networkName(caipNetworkId) ?? caipNetworkId)
  return (
    <>
      <p className="error" role="alert" data-warning="standingPermission">
        {tr('review.permissions.warning')}
      </p>
      {review.grants.map((grant, index) => (
        <div key={index} style={{ display: 'contents' }}>
          <dl className="summary" aria-label={tr('review.permissions.grant', { index: String(index + 1) })}>
            <Term term={tr('review.permissions.signer')}>
              <Signer grant={grant} format={format} />
            </Term>
            <Term term={tr('review.permissions.account')}>{grant.account ? <Address address={grant.account} /> : tr('review.permissions.anyAccount')}</Term>
            <Term term={tr('review.network')}>{networkText(grant.caipNetworkId ?? network)}</Term>
            <Term term={tr('review.permissions.until')}>{grant.expiry === undefined ? tr('review.permissions.noEnd') : dateText(format, grant.expiry)}</Term>
          </dl>
          {[...grant.permissions, ...grant.limits].map((part, partIndex) => (
            <div key={partIndex} style={{ display: 'contents' }}>
              <Heading>{part.type.slice(0, MAX_TEXT)}</Heading>
              <dl className="summary" aria-label={part.type.slice(0, MAX_TEXT)}>
                <Rows rows={part.rows} format={format} depth={0} />
              </dl>
            </div>
          ))}
        </div>
      ))}
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
  const networkName = (caipNetworkId: string) => widget.getNetworks().find((n) => n.caipNetworkId === caipNetworkId)?.name
  const network = widget.getNetworks().find((n) => n.caipNetworkId === ((pending.review && 'network' in pending.review ? pending.review.network : undefined) ?? pending.caipNetworkId))
  const format: Format = { tr, locale, nativeCurrency: network?.nativeCurrency ?? { symbol: 'ETH', decimals: 18 } }
  const { review } = pending
  const callCount = review?.kind === 'calls' ? review.calls.length : 1
  const intros: Record<PendingReview['method'], string> = {
    eth_sendTransaction: tr('review.intro.transaction'),
    eth_signTransaction: tr('review.intro.signTransaction'),
    wallet_sendCalls: tr('review.intro.calls', { count: String(callCount) }),
    eth_signTypedData_v4: tr('review.intro.typedData'),
    eth_signTypedData_v3: tr('review.intro.typedData'),
    eth_signTypedData: tr('review.intro.typedData'),
    eth_signTypedData_v1: tr('review.intro.typedData'),
    wallet_grantPermissions: tr('review.intro.permissions'),
    wallet_requestExecutionPermissions: tr('review.intro.permissions'),
    personal_sign: tr('review.intro.message'),
    eth_sign: tr('review.intro.blindSignature'),
    solana_signTransaction: tr('review.intro.transaction'),
    bip122_signPsbt: tr('review.intro.psbt'),
  }
  const intro = intros[pending.method]
  return (
    <div className="send-form" aria-busy={pending.status === 'checking' || undefined}>
      <p className="muted">{intro}</p>
      {pending.status === 'checking' ? (
        <p className="muted" role="status">
          {tr('review.checking')}
        </p>
      ) : null}
      {pending.failure ? <Alert message={tr('review.unavailable')} /> : null}
      {review?.kind === 'solanaTransaction' ? <SolanaBody review={review} format={format} network={network} /> : null}
      {review?.kind === 'psbt' ? <PsbtBody review={review} format={format} network={network} /> : null}
      {review?.kind === 'message' ? <MessageBody review={review} format={format} /> : null}
      {review?.kind === 'legacyTypedData' ? <LegacyTypedDataBody review={review} format={format} /> : null}
      {review?.kind === 'permissions' ? <PermissionsBody review={review} format={format} network={pending.caipNetworkId} networkName={networkName} /> : null}
      {review?.kind === 'transaction' || review?.kind === 'calls' ? <ChainBody review={review} format={format} network={network} /> : null}
      {review?.kind === 'typedData' ? (
        <>
          <Warnings warnings={review.warnings} format={format} callCount={1} />
          <Heading>{tr('review.domain')}</Heading>
          <dl className="summary" aria-label={tr('review.domain')}>
            <Term term={tr('review.domainName')}>{review.domain.name?.slice(0, MAX_TEXT)}</Term>
            <Term term={tr('review.domainVersion')}>{review.domain.version?.slice(0, MAX_TEXT)}</Term>
            <Term term={tr('review.domainChain')}>{review.domain.chainId !== undefined && (networkName(`eip155:${review.domain.chainId}`) ?? String(review.domain.chainId))}</Term>
            <Term term={tr('review.verifyingContract')}>{review.domain.verifyingContract && <Address address={review.domain.verifyingContract} />}</Term>
          </dl>
          <Heading>{tr('review.message', { type: review.primaryType.slice(0, MAX_TEXT) })}</Heading>
          <dl className="summary" aria-label={tr('review.message', { type: review.primaryType.slice(0, MAX_TEXT) })}>
            <Rows rows={review.message} format={format} depth={0} />
          </dl>
        </>
      ) : null}
      {pending.status === 'inWallet' ? (
        <p className="muted" role="status">
          {tr('review.inWallet')}
        </p>
      ) : (
        // Continue takes two thirds, and either wraps rather than widen the sheet on a phone ("Continuer dans le portefeuille").
        <div className="actions" style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 2fr)', gap: '0.8em' }}>
          <button type="button" className="button" data-variant="secondary" style={{ whiteSpace: 'normal' }} onClick={() => widget.decideReview(false)}>
            {tr('review.decline')}
          </button>
          <button type="button" className="button" style={{ whiteSpace: 'normal' }} disabled={pending.status !== 'ready'} onClick={() => widget.decideReview(true)}>
            {tr('review.confirm')}
          </button>
        </div>
      )}
    </div>
  )
}
