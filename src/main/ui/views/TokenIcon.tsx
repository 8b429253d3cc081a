import { useState, type CSSProperties } from 'react'

const isSafeImage = (src: string | undefined): src is string => src !== undefined && /^(data:image\/(png|jpeg|webp|gif|svg\+xml)[;,]|https?:\/\/)/.test(src)

/** What the image URLs of the data service are built from: its base URL, and the project and SDK named in every call (SPEC §7). */
export type AssetSource = { config: { projectId: string; services?: { api?: string } }; sdkVersion: string }

/**
 * An image of the data service (`path` under its base URL, with project id, sdk type and version), or undefined when the
 * site configured none.
 * @example assetImageUrl(widget, 'v1/assets/networks/eip155:1')
 */
export function assetImageUrl({ config, sdkVersion }: AssetSource, path: string): string | undefined {
  const base = config.services?.api
  if (!base) return undefined
  const url = new URL(path, base.endsWith('/') ? base : `${base}/`)
  url.search = new URLSearchParams({ projectId: config.projectId, st: 'tessera', sv: sdkVersion }).toString()
  return url.toString()
}

/** SLIP-44 coin types of the native currencies the data service has images of. */
const slip44BySymbol: Readonly<Record<string, number>> = { ETH: 60, SOL: 501, BTC: 0, DOT: 354 }

/**
 * A token's image from the data service, by its CAIP-19 id: a native currency (no address) by its SLIP-44 coin type, an
 * ERC-20 or SPL token by its address (bare, or the last part of `eip155:1:0x…`). Undefined without a data service or
 * for a currency it cannot name.
 * @example tokenImageUrl(widget, { caipNetworkId: 'eip155:1', symbol: 'ETH' }) // …/v1/assets/tokens/eip155:1/slip44:60?…
 */
export function tokenImageUrl(source: AssetSource, { caipNetworkId, symbol, address }: { caipNetworkId: string; symbol: string; address?: string | undefined }): string | undefined {
  const namespace = caipNetworkId.split(':')[0]
  const reference = address?.split(':').pop()
  let asset: string | undefined
  if (!reference) asset = Object.hasOwn(slip44BySymbol, symbol) ? `slip44:${slip44BySymbol[symbol]}` : undefined
  else if (namespace === 'eip155') asset = `erc20:${reference}`
  else if (namespace === 'solana') asset = `token:${reference}`
  return asset ? assetImageUrl(source, `v1/assets/tokens/${caipNetworkId}/${asset}`) : undefined
}

/** Up to two letters for a generated badge: the initials of the first two words, else the first two letters. */
export function badgeLetters(label: string) {
  const words = label.trim().split(/\s+/).filter(Boolean)
  const letters = words.length > 1 ? `${[...words[0]!][0]}${[...words[1]!][0]}` : [...(words[0] ?? '?')].slice(0, 2).join('')
  return letters.toUpperCase()
}

/** A hue drawn from a label, so the same name always gets the same colour. */
export const badgeHue = (label: string) => [...label].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) % 360, 7)

/**
 * A token's or a network's image (only data: and http(s) URLs, as an <img>, never as markup). Without one, or when it
 * fails to load, a generated badge: the symbol's first letters on a colour drawn from the symbol.
 */
export function TokenIcon({ symbol, imageUrl, size = 24 }: { symbol: string; imageUrl?: string | undefined; size?: number }) {
  const [failedUrl, setFailedUrl] = useState<string>()
  if (isSafeImage(imageUrl) && failedUrl !== imageUrl) {
    return <img className="token-icon" src={imageUrl} alt="" width={size} height={size} onError={() => setFailedUrl(imageUrl)} />
  }
  const style = { '--tsr-token-hue': String(badgeHue(symbol)), '--tsr-token-size': `${size}px` } as CSSProperties
  // The letters are drawn by the stylesheet (from data-letters): decoration, not text of the row it sits in.
  return <span className="token-icon" data-generated="" data-letters={badgeLetters(symbol)} aria-hidden="true" style={style} />
}
