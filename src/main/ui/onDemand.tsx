import type { ComponentType } from 'react'
import { loadOnce } from '../lazy/loadOnce'
import { retryingImport } from '../lazy/retryingImport'
import { useLoadOnce } from './useLoadOnce'
import { useTranslate } from './useTranslate'

/**
 * A part of the modal whose code loads on its first use (Swap, Buy, the review, the account-type row), or ahead of it
 * with `prefetch()`. It shows nothing while its code loads, then renders at once (not through Suspense, whose fallback
 * throttle holds a view back about 300 ms even once its chunk is here). When the code cannot load (offline, or a site
 * deployed anew without the old chunks) it says so with Try again, in the modal: React.lazy would throw to the site's
 * own tree, which unmounts the whole page without an error boundary.
 * @example const swap = onDemand(() => import('./views/SwapView')); <swap.View />
 */
export function onDemand<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  const code = loadOnce(retryingImport(load, 'default'))

  function View(props: P) {
    const { hasFailed, retry } = useLoadOnce(code)
    const Loaded = code.loaded()?.default
    if (Loaded) return <Loaded {...props} />
    if (!hasFailed) return null
    return <PartUnavailable onRetry={retry} />
  }

  return { View, prefetch: () => void code.load().catch(() => {}) }
}

/** What a part whose code could not load shows in its place: that it is unavailable, and Try again. */
export function PartUnavailable({ onRetry }: { onRetry: () => void }) {
  const t = useTranslate()
  return (
    <div className="activity-state" role="alert">
      <p>{t('error.partUnavailable')}</p>
      <button type="button" className="button" onClick={onRetry}>
        {t('connecting.retry')}
      </button>
    </div>
  )
}
