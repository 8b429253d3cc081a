import { TOAST_AUTO_CLOSE_MS, type NotificationVariant, type Notifications } from '../state/createNotifications'
import type { ErrorNotice } from '../state/errorNotice'

export type ShowSendOutcomeParameters = {
  notifications: Notifications
  /** When 'Transaction started' was shown. */
  startedAt: number
  now: () => number
  message: ErrorNotice
  variant: NotificationVariant
}

/**
 * Shows how a send ended once the 'Transaction started' toast has had its time on screen: a local chain confirms
 * within milliseconds, and the outcome would replace that toast before anyone could read it.
 * @example showSendOutcome({ notifications, startedAt, now, message: errorNotice('TRANSACTION_CONFIRMED'), variant: 'success' })
 */
export function showSendOutcome({ notifications, startedAt, now, message, variant }: ShowSendOutcomeParameters) {
  const waitMs = startedAt + TOAST_AUTO_CLOSE_MS - now()
  if (waitMs <= 0) notifications.show(message, { variant })
  else setTimeout(() => notifications.show(message, { variant }), waitMs)
}
