/**
 * A worker script's URL as the page can load it. Some bundlers resolve `new URL(asset, import.meta.url)` against a
 * file: URL of the module's source (Turbopack, in Next.js): the asset's path then belongs to the page's own origin.
 */
export function pageWorkerUrl(url: URL | string, page: Pick<Location, 'href' | 'protocol'> | undefined = globalThis.location): URL {
  const resolved = new URL(url)
  if (resolved.protocol === 'file:' && page && /^https?:$/.test(page.protocol)) return new URL(`${resolved.pathname}${resolved.search}`, page.href)
  return resolved
}

/**
 * `new Worker(url, options)` with the script loaded from the page's origin whatever the host's bundler made of its URL.
 * Imported as `Worker`, so `new Worker(new URL('…', import.meta.url))` keeps the shape bundlers look for.
 */
export const PageWorker = function PageWorker(url: URL | string, options?: WorkerOptions) {
  return new globalThis.Worker(pageWorkerUrl(url), options)
} as unknown as { new (url: URL | string, options?: WorkerOptions): Worker }
