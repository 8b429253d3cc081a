import { moduleRetryUrl } from '../../shared/moduleRetryUrl'
import { createWidgetError } from '../../shared/protocol/errors'

/** For a module URL whose import failed: the URL to import it by now (a retry's, kept once it has loaded). */
const importedAs = new Map<string, string>()
let retries = 0

/**
 * Imports the module at `url`, `what` it holds (a family's client, the review engine: files the page's bundler emitted).
 * A failed import is WIDGET_CODE_NOT_LOADED, and the next one asks by a URL of its own (`moduleRetryUrl`), kept once it
 * loads.
 * @example await importModuleAt(solanaModuleUrl, "the Solana client's module")
 */
export async function importModuleAt(url: string, what: string): Promise<void> {
  const target = importedAs.get(url) ?? url
  try {
    await import(/* @vite-ignore */ target)
  } catch (error) {
    importedAs.set(url, moduleRetryUrl(url, ++retries) ?? url)
    throw createWidgetError('WIDGET_CODE_NOT_LOADED', { details: `${what} did not load from ${target}`, cause: error })
  }
}
