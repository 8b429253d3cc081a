import { createStore } from 'zustand/vanilla'
import type { ErrorCode } from '../../shared/protocol/errorTable'
import type { ErrorNotice } from './errorNotice'

export type NotificationVariant = 'success' | 'loading' | 'error'

/**
 * The toast. A toast of the error table (SPEC §8) keeps its `code` and `params`, by which the UI says it in the widget's
 * locale; `message` is its English sentence.
 */
export type NotificationState = {
  message: string
  code: ErrorCode | undefined
  params: Record<string, string | number> | undefined
  variant: NotificationVariant
  open: boolean
  autoClose: boolean
}

export const TOAST_RESHOW_DELAY_MS = 150
export const TOAST_AUTO_CLOSE_MS = 2_500

type Timers = { setTimeout: (run: () => void, ms: number) => unknown; clearTimeout: (timer: unknown) => void }
const realTimers: Timers = { setTimeout: (run, ms) => setTimeout(run, ms), clearTimeout: (t) => clearTimeout(t as ReturnType<typeof setTimeout>) }

/**
 * The toast (SPEC §4): a new message while one is open closes it, then reopens after 150 ms; auto-closing toasts
 * close by themselves.
 */
export function createNotifications({ timers = realTimers, autoCloseMs = TOAST_AUTO_CLOSE_MS }: { timers?: Timers; autoCloseMs?: number } = {}) {
  const store = createStore<NotificationState>()(() => ({ message: '', code: undefined, params: undefined, variant: 'success', open: false, autoClose: true }))
  let reshow: unknown
  let autoClose: unknown

  const open = (next: Omit<NotificationState, 'open'>) => {
    store.setState({ ...next, open: true })
    if (next.autoClose) autoClose = timers.setTimeout(() => store.setState({ open: false }), autoCloseMs)
  }

  return {
    store,
    /**
     * Shows a toast: an error-table notice (the UI says it in the widget's locale by its code), or a plain text (shown as
     * it is in every locale).
     * @example notifications.show(errorNotice('TRANSACTION_STARTED')) // 'Transaction started', 'Transaction lancée' in French
     */
    show(
      toast: string | ErrorNotice,
      { variant = 'success', autoClose: shouldAutoClose = true }: { variant?: NotificationVariant; autoClose?: boolean } = {},
    ) {
      timers.clearTimeout(reshow)
      timers.clearTimeout(autoClose)
      const { message, code, params } = typeof toast === 'string' ? { message: toast, code: undefined, params: undefined } : { params: undefined, ...toast }
      const next = { message, code, params, variant, autoClose: shouldAutoClose }
      if (!store.getState().open) return open(next)
      store.setState({ open: false })
      reshow = timers.setTimeout(() => open(next), TOAST_RESHOW_DELAY_MS)
    },
    close() {
      timers.clearTimeout(reshow)
      timers.clearTimeout(autoClose)
      store.setState({ open: false })
    },
  }
}

export type Notifications = ReturnType<typeof createNotifications>
