import { useEffect, useState } from 'react'
import { useWidget } from '../../react/WidgetProvider'
import { Alert } from '../Alert'
import { Glyph } from '../Modal/Glyph'
import { QrCode } from '../QrCode'
import { useTranslate } from '../useTranslate'
import { useAuthLogin } from './EmailLoginViews'

/**
 * Sign In With Farcaster (SPEC §1), as AppKit's Farcaster view: the frame's URI as a QR code to scan with the phone
 * (none on a phone itself), a copy button and a link for Farcaster on this device, and the wait for the approval.
 * Leaving the view (back, close) stops the wait; an error offers to start again.
 */
export function FarcasterLoginView() {
  const widget = useWidget()
  const t = useTranslate()
  const uri = useAuthLogin((s) => s.farcasterUri)
  const error = useAuthLogin((s) => s.error)
  const step = useAuthLogin((s) => s.step)
  const isBusy = useAuthLogin((s) => s.isBusy)
  const [isCopied, setCopied] = useState(false)
  const auth = widget.auth
  useEffect(() => () => auth?.reset(), [auth])
  if (error) {
    return (
      <div className="account">
        <Alert message={error} />
        <button type="button" className="button" disabled={isBusy} onClick={() => void auth?.connectFarcaster()}>
          <Glyph name="retry" />
          {t('connecting.retry')}
        </button>
      </div>
    )
  }
  if (!uri) {
    return (
      <div className="account">
        <p className="muted" role="status">
          {t('farcaster.preparing')}
        </p>
      </div>
    )
  }
  return (
    <div className="account">
      {widget.isMobile ? null : (
        <>
          <p className="muted">{t('farcaster.scan')}</p>
          <QrCode value={uri} label={t('farcaster.qr')} size={240} />
        </>
      )}
      <p role="status">{step === 'connecting' ? t('email.connecting') : t('farcaster.waiting')}</p>
      <button type="button" className="item row" onClick={() => void navigator.clipboard?.writeText(uri).then(() => setCopied(true), () => {})}>
        <span className="row-icon" aria-hidden="true">
          <Glyph name={isCopied ? 'check' : 'copy'} />
        </span>
        <span className="row-label">{isCopied ? t('farcaster.copied') : t('farcaster.copy')}</span>
      </button>
      <a className="item row" href={uri} target="_blank" rel="noreferrer noopener">
        <span className="row-icon" aria-hidden="true">
          <Glyph name="explorer" />
        </span>
        <span className="row-label">{t('farcaster.open')}</span>
      </a>
    </div>
  )
}
