import { useMemo } from 'react'
import { loadOnce } from '../lazy/loadOnce'
import { retryingImport } from '../lazy/retryingImport'
import { PartUnavailable } from './onDemand'
import { useLoadOnce } from './useLoadOnce'

/** The QR encoder (uqr, 12 kB): loaded with the first QR code, or ahead of it (prefetchQrCode), never with the modal. */
const encoder = loadOnce(retryingImport(() => import('uqr'), 'encode'))

/** Starts loading the encoder, for a view that will show a QR code once it has its value (a pairing URI). */
export const prefetchQrCode = () => void encoder.load().catch(() => {})

/**
 * A QR code drawn as one SVG path (never as markup from elsewhere), dark on white whatever the theme. Its white square
 * shows at once; the code is drawn in it once the encoder is here (if it cannot load: unavailable, and Try again).
 */
export function QrCode({ value, label, size = 200 }: { value: string; label: string; size?: number }) {
  const { hasFailed, retry } = useLoadOnce(encoder)
  const encode = encoder.loaded()?.encode
  const qr = useMemo(() => {
    if (!encode) return undefined
    const { size: modules, data } = encode(value, { ecc: 'M', border: 2 })
    const path = data.flatMap((row, y) => row.map((isDark, x) => (isDark ? `M${x} ${y}h1v1h-1z` : ''))).join('')
    return { modules, path }
  }, [encode, value])
  if (hasFailed) return <PartUnavailable onRetry={retry} />
  const modules = qr?.modules ?? 1
  return (
    <svg role="img" aria-label={label} aria-busy={qr ? undefined : true} viewBox={`0 0 ${modules} ${modules}`} width={size} height={size} shapeRendering="crispEdges">
      <rect width={modules} height={modules} fill="#fff" />
      {qr ? <path d={qr.path} fill="#000" /> : null}
    </svg>
  )
}
