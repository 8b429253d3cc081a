import { useId, useState, type FormEvent } from 'react'
import { isEmail } from '../../../shared/protocol/rules'
import { useStoreSelector, useWidget } from '../../react/WidgetProvider'
import { createEmailChange, type EmailChangeState } from '../../widget/createEmailChange'
import { Alert } from '../Alert'
import { useTranslate } from '../useTranslate'

/**
 * Change e-mail (SPEC §7), from the Account view of an e-mail account: the new address, the code sent to the current
 * address, the code sent to the new one, then the new address. A refused step stays and says why.
 */
export function EmailChangeView() {
  const widget = useWidget()
  const t = useTranslate()
  const [change] = useState(() => createEmailChange({ load: () => widget.auth!.connector() }))
  const state = useStoreSelector<EmailChangeState, EmailChangeState>(change.store, (s) => s)
  const currentEmail = widget.storage.get('email') ?? ''
  if (!widget.auth) return null
  if (state.step === 'done') {
    return (
      <div className="actions auth-login">
        <p role="status">{t('emailChange.done', { email: state.newEmail ?? '' })}</p>
        <button type="button" className="button" onClick={() => widget.router.reset('Account')}>
          {t('emailChange.back')}
        </button>
      </div>
    )
  }
  if (state.step === 'email') {
    return (
      <div className="actions auth-login">
        <p className="muted">{t('emailChange.intro', { email: currentEmail })}</p>
        <TextForm
          key="email"
          label={t('emailChange.newLabel')}
          kind="email"
          isBusy={state.isBusy}
          onSubmit={(value) => void change.submitEmail(value)}
        />
        <Alert message={state.error} />
      </div>
    )
  }
  return (
    <div className="actions auth-login">
      <p className="muted">{state.step === 'primary' ? t('emailChange.primary', { email: currentEmail }) : t('emailChange.secondary', { email: state.newEmail ?? '' })}</p>
      <TextForm key={state.step} label={t('email.otpLabel')} kind="code" isBusy={state.isBusy} onSubmit={(value) => void change.submitCode(value)} />
      <Alert message={state.error} />
    </div>
  )
}

/** One field and Continue: a new e-mail address, or a six-digit code; a value that cannot be one says so at once. */
function TextForm({ label, kind, isBusy, onSubmit }: { label: string; kind: 'email' | 'code'; isBusy: boolean; onSubmit: (value: string) => void }) {
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
      <button type="submit" className="button" disabled={isBusy} aria-busy={isBusy}>
        {t('email.continue')}
      </button>
    </form>
  )
}
