import type { ChainNamespace } from '../../../shared/protocol/caip'
import { useStoreSelector, useWidget, useWidgetState } from '../../react/WidgetProvider'
import { Glyph } from '../Modal/Glyph'
import { useTranslate, useTranslateError } from '../useTranslate'
import { WalletSpinner } from './WalletIcon'

/**
 * Waiting for the wallet: its logo in a turning ring and where to look. When it declines (or fails), the words say why
 * instead, and Try again asks it once more.
 */
export function ConnectingExternalView() {
  const widget = useWidget()
  const t = useTranslate()
  const translateError = useTranslateError()
  const data = useStoreSelector(widget.router.store, (s) => s.data)
  const error = useWidgetState((s) => s.error)
  const status = useWidgetState((s) => s.status)
  const connectors = useWidgetState((s) => s.connectors)
  const connectorId = String(data?.connectorId ?? '')
  const namespace = data?.namespace as ChainNamespace | undefined
  const wallet = String(data?.name ?? '')
  const logo = connectors.find((c) => c.id === connectorId && (!namespace || c.namespace === namespace))?.imageUrl
  const hasFailed = error !== undefined && status !== 'connecting'
  return (
    <div className="account connecting">
      <WalletSpinner src={logo} name={wallet} state={hasFailed ? 'error' : 'waiting'} />
      {hasFailed ? (
        <>
          <p className="error" role="alert">
            {error.code === 'USER_REJECTED' ? t('error.userRejected') : translateError(error)}
          </p>
          <button type="button" className="button" onClick={() => widget.connect(connectorId, namespace).catch(() => {})}>
            <Glyph name="retry" />
            {t('connecting.retry')}
          </button>
        </>
      ) : (
        <p className="muted" role="status">
          {t('connecting.prompt', { wallet })}
        </p>
      )}
    </div>
  )
}
