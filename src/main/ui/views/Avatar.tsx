import { useState, type CSSProperties } from 'react'

const isSafeImage = (src: string | undefined): src is string => src !== undefined && /^(https:\/\/|data:image\/(png|jpeg|webp|gif)[;,])/.test(src)

/**
 * The account's avatar: its identity image when it has a safe one (https or a raster data: URL) that loads, else two
 * colours drawn from the address.
 */
export function Avatar({ address, src, size = 64 }: { address: string; src: string | undefined; size?: number }) {
  const [failedSrc, setFailedSrc] = useState<string>()
  const sized = { '--tsr-avatar-size': `${size}px` } as CSSProperties
  if (isSafeImage(src) && failedSrc !== src) return <img className="avatar" src={src} alt="" width={size} height={size} style={sized} onError={() => setFailedSrc(src)} />
  const hue = (hex: string) => Number.parseInt(hex, 16) % 360
  const from = `hsl(${hue(address.slice(2, 8)) || 0} 70% 60%)`
  const to = `hsl(${hue(address.slice(-6)) || 0} 70% 45%)`
  // The gradient is in the stylesheet; only its two colours are set here, as CSS variables (through the CSSOM).
  return <span className="avatar" data-generated="" aria-hidden="true" style={{ ...sized, '--tsr-avatar-from': from, '--tsr-avatar-to': to } as CSSProperties} />
}
