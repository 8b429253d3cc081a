import { useState } from 'react'
import { useAccount, useNetwork } from '../../react/hooks'
import { QrCode } from '../QrCode'
import { useTranslate } from '../useTranslate'

/** The address to receive on, with its QR code (drawn as SVG rectangles, never as markup from elsewhere). */
export function ReceiveView() {
  const t = useTranslate()
  const { address } = useAccount()
  const { network } = useNetwork()
  const [isCopied, setCopied] = useState(false)
  if (!address) return null
  return (
    <div className="account">
      <p className="muted">{t('receive.explain', { network: network.name })}</p>
      <QrCode value={address} label={t('receive.qr')} />
      <code className="muted">{address}</code>
      <button type="button" className="item" onClick={() => void navigator.clipboard?.writeText(address).then(() => setCopied(true), () => {})}>
        {isCopied ? t('account.copied') : t('account.copy')}
      </button>
    </div>
  )
}
