import { formatUnits, shortenAddress } from '../../../shared/protocol/display'
import type { PsbtReview, PsbtReviewWarning, SolanaReviewValue, SolanaReviewWarning, SolanaTransactionReview } from '../../../shared/protocol/review'
import type { WidgetNetwork } from '../../widget/config'
import { localizeDecimal } from '../i18n/formatNumber'
import { Address, ChangeList, figure, Heading, MAX_TEXT, nativeAmount, NetworkRow, useChangeDetails, type Format } from './reviewParts'

// The review of a Solana transaction and of a Bitcoin PSBT (issue #36): warnings, balance changes, then what the
// transaction is made of (instructions; inputs and outputs), the network and the fee.

type BodyProps<R> = { review: R; format: Format; network: WidgetNetwork | undefined }

function Warning({ text, danger }: { text: string; danger: boolean }) {
  return (
    <p className={danger ? 'error' : 'muted'} role={danger ? 'alert' : undefined}>
      {text}
    </p>
  )
}

const splTokenAmount = ({ locale }: Format, amount: bigint, mint: string | undefined, decimals: number | undefined) =>
  `${localizeDecimal(locale, decimals === undefined ? amount.toString() : formatUnits(amount, decimals))}${mint ? ` ${shortenAddress(mint)}` : ''}`

function solanaValue(format: Format, value: SolanaReviewValue) {
  switch (value.kind) {
    case 'address':
      return <Address address={value.address} />
    case 'lamports':
      return nativeAmount(format, value.amount)
    case 'tokenAmount':
      return value.isUnlimited ? format.tr('review.unlimited', { symbol: value.mint ? shortenAddress(value.mint) : '' }).trim() : splTokenAmount(format, value.amount, value.mint, value.decimals)
    case 'number':
      return localizeDecimal(format.locale, value.value.toString())
    case 'text':
      return value.value.length > MAX_TEXT ? `${value.value.slice(0, MAX_TEXT)}…` : value.value
    case 'bytes':
      return value.value.length > 24 ? `${value.value.slice(0, 20)}…` : value.value
  }
}

function solanaWarning(format: Format, warning: SolanaReviewWarning) {
  const { tr } = format
  const index = (i: number) => String(i + 1)
  switch (warning.kind) {
    case 'approval':
      return { text: tr('review.warning.solanaApproval', { delegate: shortenAddress(warning.delegate), amount: splTokenAmount(format, warning.amount, warning.mint, warning.decimals), source: shortenAddress(warning.source) }), danger: false }
    case 'unlimitedApproval':
      return { text: tr('review.warning.solanaUnlimitedApproval', { delegate: shortenAddress(warning.delegate), source: shortenAddress(warning.source) }), danger: true }
    case 'authorityChange':
      return warning.newAuthority
        ? { text: tr('review.warning.authorityChange', { account: shortenAddress(warning.account), newAuthority: shortenAddress(warning.newAuthority) }), danger: true }
        : { text: tr('review.warning.authorityRemoved', { account: shortenAddress(warning.account) }), danger: true }
    case 'ownerChange':
      return { text: tr('review.warning.ownerChange', { account: shortenAddress(warning.account), owner: shortenAddress(warning.owner) }), danger: true }
    case 'wouldFail':
      return warning.instructionIndex === undefined ? { text: tr('review.warning.wouldFail'), danger: true } : { text: tr('review.warning.wouldFailInstruction', { index: index(warning.instructionIndex) }), danger: true }
    case 'notSimulated':
      return { text: tr(`review.warning.notSimulated.${warning.why}`), danger: false }
    case 'feeUnknown':
      return { text: tr(`review.warning.feeUnknown.${warning.why}`), danger: warning.why === 'blockhashNotFound' }
    case 'unresolvedLookupTables':
      return { text: tr('review.warning.unresolvedLookupTables'), danger: false }
  }
}

/** A Solana transaction: warnings, the balance changes the node simulated, each instruction decoded, the fee in SOL. */
export function SolanaBody({ review, format, network }: BodyProps<SolanaTransactionReview>) {
  const { tr } = format
  const changes = (review.balanceChanges ?? []).filter((change) => change.amount !== 0n)
  const account = review.feePayer
  const failed = review.warnings.some((w) => w.kind === 'wouldFail')
  const detailsOf = useChangeDetails(network, review.network, format.locale)
  return (
    <>
      {review.warnings.map((warning, i) => (
        <Warning key={i} {...solanaWarning(format, warning)} />
      ))}
      {review.balanceChanges && !failed ? (
        changes.length === 0 ? (
          <p className="muted">{tr('review.noBalanceChanges')}</p>
        ) : (
          <ChangeList
            label={tr('review.balanceChanges')}
            items={changes.map((change, i) => {
              const { asset } = change
              const amount = asset.kind === 'native' ? nativeAmount(format, size(change.amount)) : splTokenAmount(format, size(change.amount), asset.mint, asset.decimals)
              const details = asset.kind === 'native' ? detailsOf(format.nativeCurrency, size(change.amount)) : detailsOf({ address: asset.mint, symbol: shortenAddress(asset.mint), decimals: asset.decimals }, size(change.amount))
              return { key: String(i), amount: change.amount, text: change.address === account ? amount : tr('review.ofAccount', { amount, address: shortenAddress(change.address) }), ...details }
            })}
          />
        )
      ) : null}
      {review.instructions.map((instruction, i) => (
        <div key={i} style={{ display: 'grid', gap: '0.8em', minWidth: 0 }}>
          <Heading>{tr('review.instruction', { index: String(i + 1) })}</Heading>
          {instruction.kind === 'unknown' ? (
            <p className="summary" style={{ ...figure, display: 'block' }}>
              {tr('review.unknownInstruction', { program: shortenAddress(instruction.programAddress), bytes: String(instruction.dataBytes) })}
            </p>
          ) : (
            <dl className="summary" aria-label={instruction.instruction}>
              <dt>{tr('review.program')}</dt>
              <dd style={figure} title={instruction.programAddress}>
                {instruction.program}
              </dd>
              <dt>{tr('review.function')}</dt>
              <dd style={figure}>{instruction.instruction}</dd>
              {instruction.args.map((row) => (
                <div key={row.name} style={{ display: 'contents' }}>
                  <dt>{row.name}</dt>
                  <dd style={figure}>{solanaValue(format, row.value)}</dd>
                </div>
              ))}
            </dl>
          )}
        </div>
      ))}
      <dl className="summary">
        <dt>{tr('review.feePayer')}</dt>
        <dd style={figure}>
          <Address address={review.feePayer} />
        </dd>
      </dl>
      <NetworkRow network={network} fallback={review.network} format={format} feeText={review.fee === undefined ? undefined : nativeAmount(format, review.fee)} feeUsd={review.fee === undefined ? undefined : detailsOf(format.nativeCurrency, review.fee).usd} />
    </>
  )
}

const size = (amount: bigint) => (amount < 0n ? -amount : amount)

const sats = ({ locale, nativeCurrency }: Format, value: bigint) => `${localizeDecimal(locale, formatUnits(value, nativeCurrency.decimals))} ${nativeCurrency.symbol}`

function psbtWarning(format: Format, warning: PsbtReviewWarning) {
  const { tr, locale } = format
  const indexes = (list: readonly number[]) => list.map((i) => String(i + 1)).join(', ')
  switch (warning.kind) {
    case 'missingUtxo':
      return { text: tr('review.warning.missingUtxo', { indexes: indexes(warning.inputIndexes) }), danger: false }
    case 'sighash':
      return { text: tr('review.warning.sighash', { index: String(warning.inputIndex + 1) }), danger: true }
    case 'signsOtherInputs':
      return { text: tr('review.warning.signsOtherInputs', { indexes: indexes(warning.inputIndexes) }), danger: true }
    case 'highFeeRate':
      return { text: tr('review.warning.highFeeRate', { rate: localizeDecimal(locale, String(warning.feeRate)) }), danger: true }
  }
}

/** A Bitcoin PSBT: warnings, the account's net change, what it spends and pays, the fee and its rate. */
export function PsbtBody({ review, format, network }: BodyProps<PsbtReview>) {
  const { tr, locale } = format
  const value = (amount: bigint | undefined) => (amount === undefined ? tr('review.unknownValue') : sats(format, amount))
  const detailsOf = useChangeDetails(network, review.network, locale)
  const feeUsd = review.fee === undefined ? undefined : detailsOf(format.nativeCurrency, review.fee).usd
  const fee = review.fee === undefined ? undefined : feeUsd ? `${sats(format, review.fee)} (${feeUsd})` : sats(format, review.fee)
  const feeText = fee === undefined || review.feeRate === undefined ? fee : tr('review.feeRate', { fee, rate: localizeDecimal(locale, String(review.feeRate)) })
  return (
    <>
      {review.warnings.map((warning, i) => (
        <Warning key={i} {...psbtWarning(format, warning)} />
      ))}
      {review.netChange !== undefined ? (
        <ChangeList label={tr('review.balanceChanges')} items={[{ key: 'net', amount: review.netChange, text: sats(format, size(review.netChange)), ...detailsOf(format.nativeCurrency, size(review.netChange)) }]} />
      ) : null}
      <Heading>{tr('review.outputs')}</Heading>
      <ul className="summary" aria-label={tr('review.outputs')} style={{ listStyle: 'none', gridTemplateColumns: '1fr' }}>
        {review.outputs.map((output) => (
          <li key={output.index} style={figure}>
            {output.kind === 'address'
              ? tr(output.isAccount ? 'review.output.change' : 'review.output.address', { value: sats(format, output.value), address: shortenAddress(output.address) })
              : output.kind === 'opReturn'
                ? tr('review.output.opReturn', { data: output.data.length > 64 ? `${output.data.slice(0, 64)}…` : output.data })
                : tr('review.output.script', { value: sats(format, output.value) })}
          </li>
        ))}
      </ul>
      <Heading>{tr('review.inputs')}</Heading>
      <ul className="summary" aria-label={tr('review.inputs')} style={{ listStyle: 'none', gridTemplateColumns: '1fr' }}>
        {review.inputs.map((input) => (
          <li key={input.index} style={figure}>
            {tr(input.isAccount ? 'review.input.yours' : 'review.input', { value: value(input.value), address: input.address ? shortenAddress(input.address) : `${input.txid.slice(0, 8)}…:${input.vout}` })}
          </li>
        ))}
      </ul>
      <NetworkRow network={network} fallback={review.network} format={format} feeText={feeText} />
    </>
  )
}
