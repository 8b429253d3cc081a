/** For a module URL whose import failed: the URL to import it by now (a retry's, kept once it has loaded). */
const importedAs = new Map<string, string>()
let retries = 0

/**
 * Imports the module at `url` (a family's client, the review engine: files the page's bundler emitted). After a failed
 * import (offline for a moment) the next one asks for `url` with `tessera-retry=N` in its query, and keeps that URL once
 * it loads: a browser may keep a module's failed fetch and answer the same URL with it, never asking the network again
 * (Chromium 150 does).
 * @example await importModuleAt(solanaModuleUrl)
 */
export async function importModuleAt(url: string): Promise<void> {
  const target = importedAs.get(url) ?? url
  try {
    await import(/* @vite-ignore */ target)
  } catch (error) {
    importedAs.set(url, `${url}${url.includes('?') ? '&' : '?'}tessera-retry=${++retries}`)
    throw error
  }
}
