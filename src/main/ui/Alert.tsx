/** An error a view explains, announced to screen readers; nothing when there is none. */
export function Alert({ message }: { message: string | undefined }) {
  if (!message) return null
  return (
    <p className="error" role="alert">
      {message}
    </p>
  )
}
