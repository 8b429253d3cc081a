/** How long the widget's start-up work (the stored state, the reconnect, the core's worker) waits for an idle page. */
export const START_UP_IDLE_TIMEOUT_MS = 500

/**
 * Runs `run` once the page is idle: after the work it has queued (its first render at start-up) and the frame that
 * shows it, or after `timeoutMs` on a page that stays busy. A browser without idle callbacks runs it in a task after
 * the next frame; a page that paints nothing (a hidden tab, Node, a worker), in the next task. Returns the cancel.
 * @example const cancel = whenPageIdle(() => void widget.reconnect(), { timeoutMs: 500 })
 */
export function whenPageIdle(run: () => void, { timeoutMs }: { timeoutMs: number }): () => void {
  const isPainting = typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && document.visibilityState !== 'hidden'
  if (!isPainting) {
    const timer = setTimeout(run, 0)
    return () => clearTimeout(timer)
  }
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(() => run(), { timeout: timeoutMs })
    return () => cancelIdleCallback(id)
  }
  // No idle callbacks (Safari): a frame's callbacks run before its paint, and a task queued from one runs after it.
  let afterFrame: ReturnType<typeof setTimeout> | undefined
  const cancel = () => {
    cancelAnimationFrame(frame)
    clearTimeout(afterFrame)
    clearTimeout(noFrame)
  }
  const once = () => {
    cancel()
    run()
  }
  const frame = requestAnimationFrame(() => (afterFrame = setTimeout(once, 0)))
  const noFrame = setTimeout(once, timeoutMs)
  return cancel
}

/** Lets the page run its other tasks (input, rendering) before going on. */
export const yieldToPage = () =>
  typeof scheduler !== 'undefined' && typeof scheduler.yield === 'function' ? scheduler.yield() : new Promise<void>((resolve) => setTimeout(resolve, 0))
