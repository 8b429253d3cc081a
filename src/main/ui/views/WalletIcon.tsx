import { useState, type CSSProperties } from 'react'
import type { ChainNamespace } from '../../../shared/protocol/caip'
import { badgeHue, badgeLetters } from './TokenIcon'

const isSafeImage = (src: string | undefined): src is string => src !== undefined && /^(data:image\/(png|jpeg|webp|gif|svg\+xml)[;,]|https?:\/\/)/.test(src)

/**
 * A wallet's logo: only data: and http(s) URLs, as an <img> (never as markup). Without one, or when it fails to load,
 * a badge of the wallet's initials on a colour drawn from its name: never a broken image.
 */
export function WalletIcon({ src, name, size = 28 }: { src: string | undefined; name: string; size?: number }) {
  const [failedSrc, setFailedSrc] = useState<string>()
  const style = { '--tsr-icon-size': `${size}px` } as CSSProperties
  if (isSafeImage(src) && failedSrc !== src) {
    return <img className="wallet-icon" src={src} alt="" width={size} height={size} style={style} onError={() => setFailedSrc(src)} />
  }
  // The letters are drawn by the stylesheet (from data-letters): decoration, not text of the row it sits in.
  return <span className="wallet-icon" data-generated="" data-letters={badgeLetters(name)} aria-hidden="true" style={{ ...style, '--tsr-token-hue': String(badgeHue(name)) } as CSSProperties} />
}

/**
 * A wallet's logo in a ring: turning while the wallet is asked (still when the visitor prefers reduced motion), red
 * when it declined or failed.
 */
export function WalletSpinner({ src, name, state }: { src: string | undefined; name: string; state: 'waiting' | 'error' }) {
  return (
    <span className="wallet-spinner" data-state={state}>
      <svg className="wallet-spinner-ring" aria-hidden="true" focusable="false" viewBox="0 0 100 100">
        <rect className="wallet-spinner-track" x="3" y="3" width="94" height="94" rx="30" pathLength="100" />
        <rect className="wallet-spinner-arc" x="3" y="3" width="94" height="94" rx="30" pathLength="100" />
      </svg>
      <WalletIcon src={src} name={name} size={64} />
    </span>
  )
}

/** Shows the Connecting view for a wallet and asks it to connect; the view reports the outcome. */
export function connectWallet(
  widget: { router: { push: (view: 'ConnectingExternal', data: Record<string, unknown>) => void }; connect: (id: string, namespace?: ChainNamespace) => Promise<void> },
  connector: { id: string; name: string; namespace?: ChainNamespace },
) {
  widget.router.push('ConnectingExternal', { connectorId: connector.id, name: connector.name, namespace: connector.namespace })
  widget.connect(connector.id, connector.namespace).catch(() => {})
}
