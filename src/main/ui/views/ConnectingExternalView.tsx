import type { ChainNamespace } from '../../../shared/protocol/caip'
import { useStoreSelector, useWidget, useWidgetState } from '../../react/WidgetProvider'
import { useTranslate, useTranslateError } from '../useTranslate'

/** Waiting for the wallet; on refusal says so and offers to try again. */
export function ConnectingExternalView() {
  const widget = useWidget()
  const t = useTranslate()
  const translateError = useTranslateError()
  const data = useStoreSelector(widget.router.store, (s) => s.data)
  const error = useWidgetState((s) => s.error)
  const status = useWidgetState((s) => s.status)
  const connectorId = String(data?.connectorId ?? '')
  const namespace = data?.namespace as ChainNamespace | undefined
  const wallet = String(data?.name ?? '')
  return (
    <div className="account">
      <p className="muted">{t('connecting.prompt', { wallet })}</p>
      {error && status !== 'connecting' ? (
        <>
          <p className="error" role="alert">
            {error.code === 'USER_REJECTED' ? t('error.userRejected') : translateError(error)}
          </p>
          <button type="button" className="button" onClick={() => widget.connect(connectorId, namespace).catch(() => {})}>
            {t('connecting.retry')}
          </button>
        </>
      ) : null}
    </div>
  )
}
