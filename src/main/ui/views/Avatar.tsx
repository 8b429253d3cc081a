import type { CSSProperties } from 'react'

/** The account's avatar: its identity image when it has a safe one, else two colours drawn from the address. */
export function Avatar({ address, src }: { address: string; src: string | undefined }) {
  if (src && /^(https:\/\/|data:image\/(png|jpeg|webp|gif)[;,])/.test(src)) return <img className="avatar" src={src} alt="" width={64} height={64} />
  const hue = (hex: string) => Number.parseInt(hex, 16) % 360
  const from = `hsl(${hue(address.slice(2, 8))} 70% 60%)`
  const to = `hsl(${hue(address.slice(-6))} 70% 45%)`
  // The gradient is in the stylesheet; only its two colours are set here, as CSS variables (through the CSSOM).
  return <span className="avatar" data-generated="" aria-hidden="true" style={{ '--tsr-avatar-from': from, '--tsr-avatar-to': to } as CSSProperties} />
}
