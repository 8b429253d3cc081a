import type { SocialProvider } from '../connectors/auth/createAuthConnector'

export type AuthLoginStep = 'email' | 'device' | 'otp' | 'connecting'
export type AuthLoginError = { code: string; message: string; params?: Record<string, string | number> }

/** E-mail and social login as the Connect views show it: made with the widget, before the login's code loads. */
export type AuthLoginState = {
  step: AuthLoginStep
  /** The address the code goes to. */
  email: string | undefined
  /** The social provider whose popup is open, or 'farcaster' while its QR code waits for the phone. */
  socialProvider: SocialProvider | 'farcaster' | undefined
  /** The Farcaster sign-in's URI, shown as a QR code (once the frame gave it). */
  farcasterUri: string | undefined
  isBusy: boolean
  error: AuthLoginError | undefined
}

/** No login under way: the state the widget starts with, and returns to after a login or a reset. */
export const initialAuthLoginState: AuthLoginState = { step: 'email', email: undefined, socialProvider: undefined, farcasterUri: undefined, isBusy: false, error: undefined }
