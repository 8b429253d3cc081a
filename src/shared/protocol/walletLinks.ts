import { PAIRING_EXPIRED_THRESHOLD_MS } from './constants'

const unsafeSchemes = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:'])

/**
 * A wallet's link from the registry, checked: an https universal link, or an app scheme (`samplewallet://`). Anything
 * else (javascript:, data:, plain http, garbage) is undefined: registry values are never trusted as links.
 */
export function parseWalletLink(link: string | null | undefined): { href: string; isUniversal: boolean } | undefined {
  if (!link) return undefined
  let url: URL
  try {
    url = new URL(link)
  } catch {
    return undefined
  }
  if (unsafeSchemes.has(url.protocol) || url.protocol === 'http:') return undefined
  if (url.protocol === 'https:') return { href: link.endsWith('/') ? link : `${link}/`, isUniversal: true }
  if (!/^[a-z][a-z0-9+.-]*:$/.test(url.protocol)) return undefined
  return { href: link.includes('://') ? link : `${url.protocol}//`, isUniversal: false }
}

/**
 * The deep link that hands a pairing URI to a wallet (`{link}wc?uri=…`, the form wallets register for), or undefined
 * when the registry's link is not safe to open.
 * @example walletDeepLink('samplewallet://', 'wc:ab…@2?…') // 'samplewallet://wc?uri=wc%3Aab…'
 */
export function walletDeepLink(link: string | null | undefined, uri: string): string | undefined {
  const parsed = parseWalletLink(link)
  if (!parsed) return undefined
  const base = parsed.isUniversal || parsed.href.endsWith('/') ? parsed.href : `${parsed.href}/`
  return `${base}wc?uri=${encodeURIComponent(uri)}`
}

/** On Telegram's in-app browser and Safari on iOS a pairing is kept until it expires (SPEC §4): leaving for the wallet app may reload the page. */
export function reusesPairing(userAgent: string): boolean {
  if (/Telegram/i.test(userAgent)) return true
  const isIos = /iPhone|iPad|iPod/.test(userAgent)
  return isIos && /Safari\//.test(userAgent) && !/CriOS|FxiOS|EdgiOS|OPiOS/.test(userAgent)
}

/** A pairing counts as expired with 10 s or less left (SPEC §4). */
export const isPairingExpired = (expiresAt: number, now: number) => expiresAt - now <= PAIRING_EXPIRED_THRESHOLD_MS
