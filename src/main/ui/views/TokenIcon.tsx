import { useState, type CSSProperties } from 'react'

const isSafeImage = (src: string | undefined): src is string => src !== undefined && /^(data:image\/(png|jpeg|webp|gif|svg\+xml)[;,]|https?:\/\/)/.test(src)

/**
 * A token's or a network's image (only data: and http(s) URLs, as an <img>, never as markup). Without one, or when it
 * fails to load, a generated badge: the symbol's first letters on a colour drawn from the symbol.
 */
export function TokenIcon({ symbol, imageUrl, size = 24 }: { symbol: string; imageUrl?: string | undefined; size?: number }) {
  const [failedUrl, setFailedUrl] = useState<string>()
  if (isSafeImage(imageUrl) && failedUrl !== imageUrl) {
    return <img className="token-icon" src={imageUrl} alt="" width={size} height={size} onError={() => setFailedUrl(imageUrl)} />
  }
  const hue = [...symbol].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) % 360, 7)
  const style = { '--tsr-token-hue': String(hue), '--tsr-token-size': `${size}px` } as CSSProperties
  return (
    <span className="token-icon" data-generated="" aria-hidden="true" style={style}>
      {symbol.slice(0, 2).toUpperCase()}
    </span>
  )
}
