import { moduleRetryUrl } from '../../shared/moduleRetryUrl'

/** For a module URL whose import failed: the URL to import it by now (a retry's, kept once it has loaded). */
const importedAs = new Map<string, string>()
let retries = 0

/**
 * Imports the module at `url` (a family's client, the review engine: files the page's bundler emitted). After a failed
 * import (offline for a moment) the next one asks by a URL of its own (`moduleRetryUrl`), kept once it loads.
 * @example await importModuleAt(solanaModuleUrl)
 */
export async function importModuleAt(url: string): Promise<void> {
  const target = importedAs.get(url) ?? url
  try {
    await import(/* @vite-ignore */ target)
  } catch (error) {
    importedAs.set(url, moduleRetryUrl(url, ++retries) ?? url)
    throw error
  }
}
