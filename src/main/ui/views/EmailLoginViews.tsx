import { useEffect } from 'react'
import { useStoreSelector, useWidget } from '../../react/WidgetProvider'
import { initialAuthLoginState, type AuthLoginState } from '../../widget/authLoginState'
import { loadOnce } from '../../lazy/loadOnce'
import { retryingImport } from '../../lazy/retryingImport'
import { Alert } from '../Alert'
import { useLoadOnce } from '../useLoadOnce'
import { useTranslate } from '../useTranslate'
import { AuthTextForm } from './AuthTextForm'

/** Brand names, the same in every language. */
const socialNames = { google: 'Google', x: 'X', discord: 'Discord', farcaster: 'Farcaster', github: 'GitHub', apple: 'Apple', facebook: 'Facebook' } as const

const socialLogo = loadOnce(retryingImport(() => import('./SocialLogo'), 'default'))

/** A login's brand mark in its row's icon place, drawn once its code is here (the place is kept meanwhile). */
function SocialMark({ provider }: { provider: keyof typeof socialNames }) {
  useLoadOnce(socialLogo)
  const Logo = socialLogo.loaded()?.default
  return (
    <span className="row-icon" aria-hidden="true">
      {Logo ? <Logo provider={provider} /> : null}
    </span>
  )
}

const noLogin = { getState: () => initialAuthLoginState, subscribe: () => () => {} }

/** The login's state, or an idle one without e-mail login configured. */
export function useAuthLogin<T>(select: (state: AuthLoginState) => T): T {
  const widget = useWidget()
  return useStoreSelector<AuthLoginState, T>(widget.auth?.store ?? noLogin, select)
}

/**
 * Connect's e-mail field and social buttons (SPEC §1, §2: after the wallets). Loads the secure frame as it appears, so
 * the first Continue does not wait for it.
 */
export function AuthLoginOptions() {
  const widget = useWidget()
  const t = useTranslate()
  const auth = widget.auth
  const step = useAuthLogin((s) => s.step)
  const isBusy = useAuthLogin((s) => s.isBusy)
  const error = useAuthLogin((s) => s.error)
  const socialProvider = useAuthLogin((s) => s.socialProvider)
  useEffect(() => auth?.preload(), [auth])
  if (!auth) return null
  const isEmailOn = widget.config.features.email
  // The error of this view: the e-mail's (throttle, dependency) or a social login's; the code and Farcaster views show their own.
  const shownError = step === 'email' && socialProvider !== 'farcaster' ? error : undefined
  return (
    <div className="auth-login">
      <p className="auth-divider" aria-hidden="true">
        {t('connect.or')}
      </p>
      {isEmailOn ? (
        <AuthTextForm label={t('email.label')} kind="email" isBusy={isBusy} isWaiting={isBusy && !socialProvider} onSubmit={(email) => void auth.submitEmail(email)} />
      ) : null}
      {auth.socials.length > 0 ? (
        // Three or more: the first as a row, the others as a line of marks (as AppKit shows them), each named in full.
        <ul className={auth.socials.length > 2 ? 'list auth-socials' : 'list'} style={auth.socials.length > 2 ? { gridTemplateColumns: `repeat(${auth.socials.length - 1}, minmax(0, 1fr))` } : undefined}>
          {auth.socials.map((provider, index) => {
            const label = socialProvider === provider && provider !== 'farcaster' ? t('connect.socialWaiting', { provider: socialNames[provider] }) : t('connect.social', { provider: socialNames[provider] })
            const isMark = index > 0 && auth.socials.length > 2
            return (
              <li key={provider}>
                {/* Farcaster has no popup: its view shows a QR code for the person's phone. */}
                <button
                  type="button"
                  className="item row"
                  aria-label={isMark ? label : undefined}
                  title={isMark ? label : undefined}
                  disabled={isBusy}
                  onClick={() => void (provider === 'farcaster' ? auth.connectFarcaster() : auth.connectSocial(provider))}
                >
                  <SocialMark provider={provider} />
                  {isMark ? null : <span className="row-label">{label}</span>}
                </button>
              </li>
            )
          })}
        </ul>
      ) : null}
      {/* A mark has no words to change while its window is open: said under the line instead. */}
      {isBusy && socialProvider && socialProvider !== 'farcaster' && auth.socials.length > 2 && auth.socials.indexOf(socialProvider) > 0 ? (
        <p className="muted" role="status">
          {t('connect.socialWaiting', { provider: socialNames[socialProvider] })}
        </p>
      ) : null}
      <Alert message={shownError} />
    </div>
  )
}

/** A new device: the person approves it from the link in the e-mail; the code view follows by itself. */
export function EmailVerifyDeviceView() {
  const widget = useWidget()
  const t = useTranslate()
  const email = useAuthLogin((s) => s.email) ?? ''
  const error = useAuthLogin((s) => s.error)
  return (
    <div className="actions auth-login">
      <p className="muted">{t('email.device', { email })}</p>
      {error ? <Alert message={error} /> : <p role="status">{t('email.deviceWaiting')}</p>}
      <BackToEmail onBack={() => widget.auth?.reset()} />
    </div>
  )
}

/** The code sent by e-mail: six digits, checked by the frame; a wrong or expired code says so and the view stays. */
export function EmailVerifyOtpView() {
  const widget = useWidget()
  const t = useTranslate()
  const email = useAuthLogin((s) => s.email) ?? ''
  const error = useAuthLogin((s) => s.error)
  const isBusy = useAuthLogin((s) => s.isBusy)
  const step = useAuthLogin((s) => s.step)
  return (
    <div className="actions auth-login">
      <p className="muted">{t('email.otp', { email })}</p>
      <AuthTextForm label={t('email.otpLabel')} kind="code" isBusy={isBusy} onSubmit={(code) => void widget.auth?.submitOtp(code)} />
      {step === 'connecting' ? <p role="status">{t('email.connecting')}</p> : <Alert message={error} />}
      <BackToEmail onBack={() => widget.auth?.reset()} />
    </div>
  )
}

function BackToEmail({ onBack }: { onBack: () => void }) {
  const widget = useWidget()
  const t = useTranslate()
  return (
    <button
      type="button"
      className="button"
      data-variant="secondary"
      onClick={() => {
        onBack()
        widget.router.reset('Connect')
      }}
    >
      {t('email.useAnother')}
    </button>
  )
}
