import type { PendingReview } from '../../widget/createRequestReview'
import { useIsStarted, useStoreSelector, useWidget } from '../WidgetProvider'

const noReviewStore = { getState: () => ({ pending: undefined }), subscribe: () => () => {} }

/** The started widget's review store; the empty one until it is there. */
function reviewStoreOf(widget: ReturnType<typeof useWidget>) {
  try {
    return widget.reviewStore
  } catch {
    return noReviewStore
  }
}

export type UseReviewReturnType = {
  /**
   * The request under review (issue #36): its method, network, status (`checking` while the worker works it out,
   * `ready`, `inWallet` once confirmed) and the review itself (calls decoded, balance changes, warnings), or why it
   * could not be made (`failure`). Undefined when nothing waits.
   */
  pending: PendingReview | undefined
  /** The visitor confirms: the wallet is asked next. Ignored until the review is ready. */
  confirm: () => void
  /** The visitor declines: the site's request fails with 4001. */
  decline: () => void
}

/**
 * The review shown before the wallet asks, for a site that draws its own (the modal shows it too).
 * @example const { pending, confirm, decline } = useReview(); pending?.status === 'ready' && <button onClick={confirm}>Continue</button>
 */
export function useReview(): UseReviewReturnType {
  const widget = useWidget()
  // The review store is there once the widget has started.
  const isStarted = useIsStarted()
  const store = (isStarted ? reviewStoreOf(widget) : noReviewStore) as typeof noReviewStore
  const pending = useStoreSelector(store, (s) => s.pending) as PendingReview | undefined
  return { pending, confirm: () => widget.decideReview(true), decline: () => widget.decideReview(false) }
}
