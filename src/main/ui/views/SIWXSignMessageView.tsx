import { useWidget, useWidgetState } from '../../react/WidgetProvider'
import { Alert } from '../Alert'
import { useTranslate } from '../useTranslate'

/** Sign in with the wallet: sign, or cancel (which disconnects when sign-in is required). */
export function SIWXSignMessageView() {
  const widget = useWidget()
  const t = useTranslate()
  const error = useWidgetState((s) => s.siwxError)
  return (
    <div className="account">
      <p className="muted">{t('siwx.explain', { app: widget.config.metadata?.name ?? location.host })}</p>
      <Alert message={error} />
      <div className="actions">
        <button type="button" className="button" onClick={() => void widget.signIn()}>
          {t('siwx.sign')}
        </button>
        <button type="button" className="item" onClick={() => void widget.cancelSignIn()}>
          {t('siwx.cancel')}
        </button>
      </div>
    </div>
  )
}
