import { localizeDecimal } from '../i18n/formatNumber'
import { useTranslate } from '../useTranslate'

/** Typed amounts are bounded: nothing a person sends needs more. */
const AMOUNT_MAX_LENGTH = 100

export type AmountBoxProps = {
  id: string
  value: string
  locale: string
  /** The chosen token's symbol, shown after the digits. */
  symbol: string | undefined
  isInvalid: boolean
  /** The id of the sentence that says what is wrong, while something is. */
  issueId: string | undefined
  onChange: (text: string) => void
  onMax: () => void
}

/** The amount field of Send and Swap: the digits in the locale's way, the token's symbol, and Max. */
export function AmountBox({ id, value, locale, symbol, isInvalid, issueId, onChange, onMax }: AmountBoxProps) {
  const t = useTranslate()
  return (
    <div className="amount-box">
      <input
        id={id}
        className="amount-input"
        inputMode="decimal"
        autoComplete="off"
        spellCheck={false}
        maxLength={AMOUNT_MAX_LENGTH}
        placeholder={localizeDecimal(locale, '0.0')}
        aria-invalid={isInvalid}
        aria-describedby={issueId}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {symbol ? <span className="amount-symbol">{symbol}</span> : null}
      <button type="button" className="chip-button" disabled={!symbol} onClick={onMax}>
        {t('send.max')}
      </button>
    </div>
  )
}
