import { encode } from 'uqr'
import { useMemo, useState } from 'react'
import { useAccount, useNetwork } from '../../react/hooks'
import { useTranslate } from '../useTranslate'

/** The address to receive on, with its QR code (drawn as SVG rectangles, never as markup from elsewhere). */
export function ReceiveView() {
  const t = useTranslate()
  const { address } = useAccount()
  const { network } = useNetwork()
  const [isCopied, setCopied] = useState(false)
  const qr = useMemo(() => (address ? encode(address, { ecc: 'M', border: 2 }) : undefined), [address])
  if (!address || !qr) return null
  return (
    <div className="account">
      <p className="muted">{t('receive.explain', { network: network.name })}</p>
      <svg role="img" aria-label={t('receive.qr')} viewBox={`0 0 ${qr.size} ${qr.size}`} width="200" height="200" shapeRendering="crispEdges">
        <rect width={qr.size} height={qr.size} fill="#fff" />
        {qr.data.flatMap((row, y) => row.map((isDark, x) => (isDark ? <rect key={`${x}-${y}`} x={x} y={y} width="1" height="1" fill="#000" /> : null)))}
      </svg>
      <code className="muted">{address}</code>
      <button type="button" className="item" onClick={() => void navigator.clipboard?.writeText(address).then(() => setCopied(true), () => {})}>
        {isCopied ? t('account.copied') : t('account.copy')}
      </button>
    </div>
  )
}
