import { encode } from 'uqr'
import { useMemo } from 'react'

/** A QR code drawn as one SVG path (never as markup from elsewhere), dark on white whatever the theme. */
export function QrCode({ value, label, size = 200 }: { value: string; label: string; size?: number }) {
  const qr = useMemo(() => {
    const { size: modules, data } = encode(value, { ecc: 'M', border: 2 })
    const path = data.flatMap((row, y) => row.map((isDark, x) => (isDark ? `M${x} ${y}h1v1h-1z` : ''))).join('')
    return { modules, path }
  }, [value])
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${qr.modules} ${qr.modules}`} width={size} height={size} shapeRendering="crispEdges">
      <rect width={qr.modules} height={qr.modules} fill="#fff" />
      <path d={qr.path} fill="#000" />
    </svg>
  )
}
