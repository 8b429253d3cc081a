import type { NotificationState } from '../state/createNotifications'
import { useTranslateError } from './useTranslate'

/**
 * The toast's words in the widget's locale. It comes with the modal's code (the catalogues stay out of the page's first
 * load); until that is here the toast shows its English sentence.
 */
export function ToastText({ toast }: { toast: Pick<NotificationState, 'message' | 'code' | 'params'> }) {
  const translateError = useTranslateError()
  return <>{translateError(toast)}</>
}
