import { useStoreSelector, useWidget, useWidgetState } from '../WidgetProvider'

export type UseSignInReturnType = {
  /**
   * The widget asks the connected account to sign in (SIWX, SPEC §4): it does after connecting when the account has no
   * session. Its own view shows it in the modal; a site drawing its own asks with `signIn()` and `cancel()`.
   */
  isAsked: boolean
  /** Why the last sign-in failed (declined, the site refused the signature), in the spec's words. */
  error: string | undefined
  /** Asks the wallet to sign the message and stores the session: resolves whether the account is signed in. */
  signIn: () => Promise<boolean>
  /** Declines: disconnects when the site requires sign-in, otherwise closes the question. */
  cancel: () => Promise<void>
}

/**
 * Sign in with the wallet, for a site that draws its own sign-in step.
 * @example const { isAsked, signIn } = useSignIn(); isAsked && <button onClick={() => signIn()}>Sign in</button>
 */
export function useSignIn(): UseSignInReturnType {
  const widget = useWidget()
  const error = useWidgetState((s) => s.siwxError)
  const isOpen = useStoreSelector(widget.modal.store, (s) => s.open)
  const view = useStoreSelector(widget.router.store, (s) => s.view)
  return { isAsked: isOpen && view === 'SIWXSignMessage', error, signIn: () => widget.signIn(), cancel: () => widget.cancelSignIn() }
}
