/** The query that makes a module's URL a new one for the browser's module map (any earlier value replaced). */
const RETRY_PARAMETER = 'tessera-retry'

/**
 * `url` with `attempt` in its query: a URL the browser's module map has not seen. A browser may keep a module's failed
 * fetch under its URL and answer every later import of it with that failure, never asking the network again (Chromium
 * 150 does); the page's `retryingImport` and the worker's `importModuleAt` ask again by this one. Undefined for a URL
 * whose query does not reach a server or a file (data:, blob:) and for what is not a URL.
 * @example moduleRetryUrl('https://site.example/assets/Modal-a1.js', 1) // 'https://site.example/assets/Modal-a1.js?tessera-retry=1'
 */
export function moduleRetryUrl(url: string, attempt: number): string | undefined {
  let retry: URL
  try {
    retry = new URL(url)
  } catch {
    return undefined
  }
  if (!['https:', 'http:', 'file:'].includes(retry.protocol)) return undefined
  retry.searchParams.set(RETRY_PARAMETER, String(attempt))
  return retry.href
}
