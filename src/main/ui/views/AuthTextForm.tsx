import { useId, useState, type FormEvent } from 'react'
import { isEmail } from '../../../shared/protocol/rules'
import { useTranslate } from '../useTranslate'

export type AuthTextFormProps = {
  label: string
  /** An e-mail address, or a six-digit code (spaces ignored). */
  kind: 'email' | 'code'
  /** Continue is disabled while a step runs. */
  isBusy: boolean
  /** Whether this form's own step is the one running (aria-busy); by default whenever the form is busy. */
  isWaiting?: boolean
  onSubmit: (value: string) => void
}

/** One field and Continue, for the login and e-mail change steps: a value that cannot be one says so at once. */
export function AuthTextForm({ label, kind, isBusy, isWaiting = isBusy, onSubmit }: AuthTextFormProps) {
  const t = useTranslate()
  const fieldId = useId()
  const [value, setValue] = useState('')
  const [isInvalid, setInvalid] = useState(false)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const cleaned = kind === 'code' ? value.replace(/\s/g, '') : value.trim()
    if (kind === 'code' ? !/^\d{6}$/.test(cleaned) : !isEmail(cleaned)) return setInvalid(true)
    setInvalid(false)
    onSubmit(cleaned)
  }
  return (
    <form className="auth-form" noValidate onSubmit={submit}>
      <label htmlFor={fieldId} className="field-label">
        {label}
      </label>
      <input
        id={fieldId}
        className="text-input"
        {...(kind === 'code' ? { inputMode: 'numeric' as const, autoComplete: 'one-time-code', maxLength: 12 } : { type: 'email', inputMode: 'email' as const, autoComplete: 'email', spellCheck: false })}
        value={value}
        aria-invalid={isInvalid || undefined}
        onChange={(event) => {
          setValue(event.target.value)
          setInvalid(false)
        }}
      />
      {isInvalid ? (
        <p className="error" role="alert">
          {kind === 'code' ? t('email.otpInvalid') : t('email.invalid')}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={isBusy} aria-busy={isWaiting}>
        {t('email.continue')}
      </button>
    </form>
  )
}
