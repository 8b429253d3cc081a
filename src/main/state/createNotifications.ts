import { createStore } from 'zustand/vanilla'

export type NotificationVariant = 'success' | 'loading' | 'error'

export type NotificationState = { message: string; variant: NotificationVariant; open: boolean; autoClose: boolean }

export const TOAST_RESHOW_DELAY_MS = 150
export const TOAST_AUTO_CLOSE_MS = 2_500

type Timers = { setTimeout: (run: () => void, ms: number) => unknown; clearTimeout: (timer: unknown) => void }
const realTimers: Timers = { setTimeout: (run, ms) => setTimeout(run, ms), clearTimeout: (t) => clearTimeout(t as ReturnType<typeof setTimeout>) }

/**
 * The toast (SPEC §4): a new message while one is open closes it, then reopens after 150 ms; auto-closing toasts
 * close by themselves.
 */
export function createNotifications({ timers = realTimers, autoCloseMs = TOAST_AUTO_CLOSE_MS }: { timers?: Timers; autoCloseMs?: number } = {}) {
  const store = createStore<NotificationState>()(() => ({ message: '', variant: 'success', open: false, autoClose: true }))
  let reshow: unknown
  let autoClose: unknown

  const open = (next: Omit<NotificationState, 'open'>) => {
    store.setState({ ...next, open: true })
    if (next.autoClose) autoClose = timers.setTimeout(() => store.setState({ open: false }), autoCloseMs)
  }

  return {
    store,
    show(message: string, { variant = 'success', autoClose: shouldAutoClose = true }: { variant?: NotificationVariant; autoClose?: boolean } = {}) {
      timers.clearTimeout(reshow)
      timers.clearTimeout(autoClose)
      const next = { message, variant, autoClose: shouldAutoClose }
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
