import { useWidget, useWidgetState } from '../../react/WidgetProvider'
import { Alert } from '../Alert'
import { useTranslate } from '../useTranslate'
import { Avatar } from './Avatar'

/** Sign in with the wallet: the account's avatar, why, then sign or cancel (which disconnects when sign-in is required). */
export function SIWXSignMessageView() {
  const widget = useWidget()
  const t = useTranslate()
  const error = useWidgetState((s) => s.siwxError)
  const address = useWidgetState((s) => s.address)
  const profileImage = useWidgetState((s) => s.profileImage)
  return (
    <div className="account">
      {address ? <Avatar address={address} src={profileImage} /> : null}
      <p className="muted">{t('siwx.explain', { app: widget.config.metadata?.name ?? location.host })}</p>
      <Alert message={error} />
      <div className="actions">
        <button type="button" className="button" onClick={() => void widget.signIn()}>
          {t('siwx.sign')}
        </button>
        <button type="button" className="button" data-variant="secondary" onClick={() => void widget.cancelSignIn()}>
          {t('siwx.cancel')}
        </button>
      </div>
    </div>
  )
}
