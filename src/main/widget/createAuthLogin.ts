import { createStore, type StoreApi } from 'zustand/vanilla'
import { formatCaipNetworkId, type CaipNetworkId } from '../../shared/protocol/caip'
import { errorTable } from '../../shared/protocol/errorTable'
import { createWidgetError, isWidgetError, type WidgetError } from '../../shared/protocol/errors'
import type { AuthConnector, SocialProvider } from '../connectors/auth/createAuthConnector'
import type { NamespaceConnector } from '../families/types'
import type { Router } from '../state/createRouter'
import type { WidgetNetwork } from './config'
import { initialAuthLoginState, type AuthLoginError, type AuthLoginState } from './authLoginState'
import { waitForFarcaster } from './createFarcasterLogin'

export type CreateAuthLoginParameters = {
  /** The login's state (made by the widget at once, so the views can read it before this code loads). */
  store?: StoreApi<AuthLoginState>
  /** Loads the auth connector's code and makes it (once). */
  load: () => Promise<AuthConnector>
  router: Router
  /** The EVM network the login starts on. */
  activeNetwork: () => WidgetNetwork
  /** The Solana network the login also connects on, when the site configured Solana networks (SPEC §6: eip155 and solana). */
  solanaNetwork?: () => WidgetNetwork
  /** Makes the EVM family the active one before its account connects. */
  activate: () => void
  setConnected: (connector: NamespaceConnector, accounts: string[], caipNetworkId: CaipNetworkId) => void
  onConnectSuccess: (event: { method: 'browser'; name: string }) => void
  /** The connection is made: sign-in follows, or the modal closes on the account. */
  onConnectDone: () => Promise<void>
  /** The page's window (its popups and messages); undefined off the browser. */
  window: Window | undefined
  /** How long the device approval is waited for, in rounds of the service's long poll (25 s each). */
  maxDeviceRounds?: number
  /** A social popup that brings no answer within this ends with 'Social login timed out: please try again'. */
  socialTimeoutMs?: number
}

const toLoginError = (error: unknown): AuthLoginError => {
  const e: WidgetError = isWidgetError(error) ? error : createWidgetError('SOMETHING_WENT_WRONG', { cause: error })
  return { code: e.code, message: e.shortMessage ?? errorTable.SOMETHING_WENT_WRONG.message, ...(e.params && { params: e.params }) }
}

/**
 * E-mail and social login as the Connect views drive it (SPEC §1, §2, §4):
 * 1. e-mail: APP_CONNECT_EMAIL; a new device first waits for its approval link (VERIFY_DEVICE), then the code view
 *    (VERIFY_OTP); CONNECT means the frame is signed in with this address already;
 * 2. social: a popup opened in the click (no blocker), sent to the provider's page, whose callback posts the result
 *    back from the auth service's exact origin; the frame finishes the login with it;
 * 3. either way the frame's user is read and connected as the EVM account of the auth connector and, when the site
 *    configured Solana networks, its Solana account too: one login, both families (the EVM one active).
 * Errors stay in the view (in their code's sentence), the view stays.
 * @example const login = createAuthLogin(deps); await login.submitEmail('me@example.com')
 */
export function createAuthLogin({ store = createStore<AuthLoginState>()(() => initialAuthLoginState), load, router, activeNetwork, solanaNetwork, activate, setConnected, onConnectSuccess, onConnectDone, window: page, maxDeviceRounds = 24, socialTimeoutMs = 5 * 60_000 }: CreateAuthLoginParameters) {
  // Bumped by back/reset: a flow still waiting (a device poll, a popup) then stops.
  let generation = 0

  const run = async (work: (auth: AuthConnector, started: number) => Promise<void>) => {
    const started = generation
    store.setState({ isBusy: true, error: undefined })
    try {
      await work(await load(), started)
    } catch (error) {
      if (started === generation) store.setState({ error: toLoginError(error), ...(store.getState().step === 'connecting' && { step: 'email' }) })
    } finally {
      if (started === generation) store.setState({ isBusy: false })
    }
  }

  async function finish(auth: AuthConnector, started: number) {
    store.setState({ step: 'connecting' })
    activate()
    const evm = await auth.eip155.connect(activeNetwork())
    if (started === generation) await connectFamilies(auth, started, evm)
  }

  /**
   * Connects what the login opened: the Solana account first when the site has Solana networks (a Solana side the
   * frame cannot open leaves the login on EVM only), then the EVM account, which stays the active family.
   */
  async function connectFamilies(auth: AuthConnector, started: number, evm: { accounts: string[]; caipNetworkId: CaipNetworkId }) {
    const solana = solanaNetwork ? await auth.solana.connect(solanaNetwork()).catch(() => undefined) : undefined
    if (started !== generation) return
    if (solana) setConnected(auth.solana, solana.accounts, solana.caipNetworkId)
    setConnected(auth.eip155, evm.accounts, evm.caipNetworkId)
    onConnectSuccess({ method: 'browser', name: auth.eip155.name })
    store.setState(initialAuthLoginState)
    await onConnectDone()
  }

  async function waitForDevice(auth: AuthConnector, started: number) {
    for (let round = 0; round < maxDeviceRounds; round++) {
      if (started !== generation) return false
      try {
        await auth.connectDevice()
        return true
      } catch (error) {
        if (!isWidgetError(error) || error.code !== 'AUTH_DEVICE_NOT_APPROVED') throw error
      }
    }
    throw createWidgetError('AUTH_FLOW_EXPIRED', { details: 'the device was not approved in time' })
  }

  return {
    store,
    /** Loads the secure frame ahead of the first login (the Connect view does, when it shows e-mail or social). */
    preload: () => void load().then((auth) => auth.preload()).catch(() => {}),
    submitEmail: (email: string) =>
      run(async (auth, started) => {
        const action = await auth.connectEmail(email)
        if (started !== generation) return
        store.setState({ email })
        if (action === 'CONNECT') return finish(auth, started)
        if (action === 'VERIFY_DEVICE') {
          store.setState({ step: 'device' })
          router.push('EmailVerifyDevice')
          if (!(await waitForDevice(auth, started)) || started !== generation) return
        }
        store.setState({ step: 'otp' })
        if (router.store.getState().view === 'EmailVerifyDevice') router.replace('EmailVerifyOtp')
        else router.push('EmailVerifyOtp')
      }),
    submitOtp: (otp: string) =>
      run(async (auth, started) => {
        await auth.connectOtp(otp)
        if (started === generation) await finish(auth, started)
      }),
    /** Social login in `popup`, which the click itself opened (a popup opened after an await is blocked). */
    connectSocial(provider: SocialProvider, popup: Window | null | undefined) {
      return run(async (auth, started) => {
        if (!popup || !page) throw createWidgetError('AUTH_SOCIAL_UNAVAILABLE', { params: { provider }, details: 'the browser blocked the popup' })
        store.setState({ socialProvider: provider })
        try {
          const uri = await auth.getSocialRedirectUri(provider)
          const redirect = new URL(uri).searchParams.get('redirect_uri')
          if (!redirect) throw createWidgetError('AUTH_SOCIAL_FAILED', { params: { provider }, details: 'the sign-in page names no redirect_uri' })
          const callbackOrigin = new URL(redirect).origin
          popup.location.href = uri
          const resultUri = await new Promise<string>((resolve, reject) => {
            const stop = () => {
              clearTimeout(timer)
              clearInterval(closedCheck)
              page.removeEventListener('message', onMessage)
            }
            const onMessage = (event: MessageEvent) => {
              const data = event.data as { type?: unknown; resultUri?: unknown } | null
              if (event.origin !== callbackOrigin || event.source !== popup || data?.type !== 'tessera:social-callback' || typeof data.resultUri !== 'string') return
              stop()
              resolve(data.resultUri)
            }
            const timer = setTimeout(() => {
              stop()
              reject(createWidgetError('SOCIAL_LOGIN_TIMEOUT'))
            }, socialTimeoutMs)
            const closedCheck = setInterval(() => {
              if (!popup.closed && started === generation) return
              stop()
              reject(createWidgetError('AUTH_SOCIAL_CANCELLED', { params: { provider } }))
            }, 500)
            page.addEventListener('message', onMessage)
          })
          popup.close()
          const user = await auth.connectSocial(provider, resultUri, Number(activeNetwork().id))
          if (started !== generation) return
          activate()
          await connectFamilies(auth, started, { accounts: [user.address], caipNetworkId: formatCaipNetworkId('eip155', user.chainId) })
        } finally {
          if (!popup.closed) popup.close()
          if (started === generation) store.setState({ socialProvider: undefined })
        }
      })
    },
    /** Sign In With Farcaster: the Farcaster view shows the frame's URI as a QR code until the person's phone approves. */
    connectFarcaster() {
      if (router.store.getState().view !== 'FarcasterLogin') router.push('FarcasterLogin')
      return run(async (auth, started) => {
        store.setState({ socialProvider: 'farcaster', farcasterUri: undefined })
        const user = await waitForFarcaster({ auth, onUri: (farcasterUri) => store.setState({ farcasterUri }), isCurrent: () => started === generation })
        // Connected as the e-mail login is: the EVM account on the widget's network (the frame's user was on its own).
        if (user && started === generation) await finish(auth, started)
      })
    },
    /**
     * Back to the e-mail field: a device wait, a popup or a Farcaster wait still running stops. The frame's side of a
     * Farcaster wait is a long poll that would open a session (and ask for a recovery password) were the phone to approve
     * after the person left: the frame is reloaded, which ends it.
     */
    reset() {
      const { socialProvider, isBusy } = store.getState()
      generation += 1
      store.setState(initialAuthLoginState)
      if (socialProvider === 'farcaster' && isBusy) void load().then((auth) => auth.reload(), () => {})
    },
  }
}

export type AuthLogin = ReturnType<typeof createAuthLogin>

