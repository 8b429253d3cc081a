import { useState } from 'react'
import { useStoreSelector, useWidget } from '../../react/WidgetProvider'
import { createEmailChange, type EmailChangeState } from '../../widget/createEmailChange'
import { Alert } from '../Alert'
import { useTranslate } from '../useTranslate'
import { AuthTextForm } from './AuthTextForm'

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
        <AuthTextForm
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
      <AuthTextForm key={state.step} label={t('email.otpLabel')} kind="code" isBusy={state.isBusy} onSubmit={(value) => void change.submitCode(value)} />
      <Alert message={state.error} />
    </div>
  )
}
