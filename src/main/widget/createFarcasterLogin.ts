import { createWidgetError, isWidgetError } from '../../shared/protocol/errors'
import type { User } from '../../shared/protocol/schemas/entities'
import type { AuthConnector } from '../connectors/auth/createAuthConnector'

export type WaitForFarcasterParameters = {
  auth: Pick<AuthConnector, 'getFarcasterUri' | 'connectFarcaster' | 'abandonLogin'>
  /** The relay channel's URI, once the frame gave it: the view shows it as a QR code and a link. */
  onUri: (uri: string) => void
  /** False once the person went back or closed the view: the wait then stops. */
  isCurrent: () => boolean
  /** Rounds of the auth service's long poll (25 s each) before the sign-in counts as expired: 24 is its 10 min flow. */
  maxRounds?: number
}

export type WaitForFarcasterReturnType = User | undefined

/**
 * Sign In With Farcaster as the widget drives it (SPEC §1, §7), as AppKit's Farcaster view does:
 * 1. APP_GET_FARCASTER_URI: the frame opens a relay channel and answers its URI (an aborted request is 'An error
 *    occurred', not 'Something went wrong': SPEC §8's exception, made by the frame channel);
 * 2. the URI goes to `onUri` (the QR code the person scans with their phone);
 * 3. APP_CONNECT_FARCASTER, asked again while the frame answers AUTH_FARCASTER_PENDING (its long poll ended first);
 * 4. the frame's user once the phone signed, or undefined when the person went away first (a sign-in the phone approved
 *    after that is signed out again: the person left it).
 * @example const user = await waitForFarcaster({ auth, onUri: (uri) => store.setState({ farcasterUri: uri }), isCurrent: () => true })
 */
export async function waitForFarcaster({ auth, onUri, isCurrent, maxRounds = 24 }: WaitForFarcasterParameters): Promise<WaitForFarcasterReturnType> {
  const uri = await auth.getFarcasterUri()
  if (!isCurrent()) return undefined
  onUri(uri)
  for (let round = 0; round < maxRounds; round++) {
    if (!isCurrent()) return undefined
    try {
      const user = await auth.connectFarcaster()
      if (isCurrent()) return user
      await auth.abandonLogin()
      return undefined
    } catch (error) {
      if (!isWidgetError(error) || error.code !== 'AUTH_FARCASTER_PENDING') throw error
    }
  }
  throw createWidgetError('AUTH_FLOW_EXPIRED', { details: 'the Farcaster sign-in was not approved in time' })
}
