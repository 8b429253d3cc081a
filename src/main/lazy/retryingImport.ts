import { moduleRetryUrl } from '../../shared/moduleRetryUrl'

/** How Chromium and Firefox say that an `import()` could not fetch its module, the module's URL after it. */
const failedFetch = /^(?:Failed to fetch dynamically imported module|error loading dynamically imported module): (\S+)$/

/**
 * The URL of the module an `import()` failed to fetch, as the browser's error names it, with `attempt` in its query; or
 * undefined for any other error (webpack's chunk loading, Safari's message without a URL, a module that threw).
 */
export function retryUrlOf(error: unknown, attempt: number): string | undefined {
  const url = failedFetch.exec(error instanceof Error ? error.message : '')?.[1]
  return url ? moduleRetryUrl(url, attempt) : undefined
}

const isModuleNamespace = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === 'Module'

/**
 * The module that exports `exportName`: the file's own exports, or a module the bundler put inside the file, which its
 * own `import()` reads off (Rolldown writes `import('./Modal-x.js').then((m) => m.t)` for a module in a shared chunk).
 */
export function moduleExporting(file: Record<string, unknown>, exportName: string) {
  if (exportName in file) return file
  return Object.values(file).find((value) => isModuleNamespace(value) && exportName in value)
}

/**
 * `load`, an `import()` of our code, made to ask the network again after it failed (offline for a moment, a site
 * deployed anew). A browser may keep a module's failed fetch in its module map (Chromium 150 does; the HTML standard
 * no longer asks it to): an `import()` of the same URL then fails at once, never asking the network. After such a
 * failure the next call imports the file the error named with a query of its own, which the map has not seen, and
 * takes from it the module that exports `exportName`; once one loads, it is the one used. A module it imports
 * statically that failed too stays failed in such a browser until the page reloads (the error names the first only).
 * @example const modalCode = retryingImport(() => import('./Modal/Modal'), 'default'); await modalCode()
 */
export function retryingImport<Module extends object>(load: () => Promise<Module>, exportName: keyof Module & string): () => Promise<Module> {
  let importNow = load
  let attempts = 0
  const importFile = async (url: string, failure: unknown) => {
    const file = (await import(/* @vite-ignore */ /* webpackIgnore: true */ /* turbopackIgnore: true */ url)) as Record<string, unknown>
    const module = moduleExporting(file, exportName)
    if (!module) throw failure
    return module as Module
  }
  return () =>
    importNow().catch((error: unknown) => {
      const url = retryUrlOf(error, ++attempts)
      if (url) importNow = () => importFile(url, error)
      throw error
    })
}
