/**
 * Code loaded on demand, once: `load()` shares the load in flight, `loaded()` gives what came (so a render can use it
 * at once, in the same task). A load that failed is forgotten, so the next `load()` asks the network again (code is
 * loaded through `retryingImport`, which asks it anew in a browser that keeps failed fetches).
 * @example const modal = loadOnce(retryingImport(() => import('./Modal/Modal'), 'default')); void modal.load(); modal.loaded()?.default
 */
export function loadOnce<T>(load: () => Promise<T>) {
  let value: T | undefined
  let loading: Promise<T> | undefined
  return {
    load: () =>
      (loading ??= load().then(
        (loaded) => (value = loaded),
        (error: unknown) => {
          loading = undefined
          throw error
        },
      )),
    loaded: () => value,
    /** The load asked for, in flight or done; undefined before the first `load()` and after a failed one. */
    requested: () => loading,
  }
}
