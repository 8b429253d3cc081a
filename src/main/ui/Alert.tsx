import { useTranslateError } from './useTranslate'

/**
 * An error a view explains, announced to screen readers; nothing when there is none. An error with a code is said in the
 * widget's locale; plain text is shown as it is.
 */
export function Alert({ message }: { message: string | { code?: string; params?: Record<string, string | number>; message: string } | undefined }) {
  const translateError = useTranslateError()
  if (!message) return null
  return (
    <p className="error" role="alert">
      {translateError(message)}
    </p>
  )
}
