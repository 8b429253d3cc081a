import { createStore } from 'zustand/vanilla'
import type { AuthConnector } from '../connectors/auth/createAuthConnector'
import { toErrorNotice, type ErrorNotice } from '../state/errorNotice'

/** Where the change is: the new address asked for, the current address's code, the new address's code, done. */
export type EmailChangeStep = 'email' | 'primary' | 'secondary' | 'done'

export type EmailChangeState = {
  step: EmailChangeStep
  /** The address asked for (the secondary code goes there); once done, the account's address. */
  newEmail: string | undefined
  isBusy: boolean
  /** Said in the view in its code's sentence (a wrong or expired code, an address already taken…); the step stays. */
  error: ErrorNotice | undefined
}

export type CreateEmailChangeParameters = {
  /** The auth connector (its code loaded on first use). */
  load: () => Promise<Pick<AuthConnector, 'updateEmail' | 'updateEmailPrimaryOtp' | 'updateEmailSecondaryOtp'>>
}

export const initialEmailChangeState: EmailChangeState = { step: 'email', newEmail: undefined, isBusy: false, error: undefined }

/**
 * The e-mail change of an e-mail account (SPEC §7 APP_UPDATE_EMAIL and the primary and secondary OTP update events):
 * 1. the new address: the auth service mails a code to the current address (VERIFY_PRIMARY_OTP), or straight to the
 *    new one for an account without an address (VERIFY_SECONDARY_OTP);
 * 2. the current address's code: a code then goes to the new address;
 * 3. the new address's code: the account's address is changed, and the widget's stored e-mail with it.
 * A refused step keeps its view and says why (the spec's sentence of the error's code).
 * @example const change = createEmailChange({ load: widget.auth.connector }); await change.submitEmail('new@example.com')
 */
export function createEmailChange({ load }: CreateEmailChangeParameters) {
  const store = createStore<EmailChangeState>()(() => initialEmailChangeState)
  // Bumped by reset(): an answer that comes after it is dropped.
  let generation = 0

  const run = async (work: (auth: Awaited<ReturnType<CreateEmailChangeParameters['load']>>, isCurrent: () => boolean) => Promise<void>) => {
    const started = generation
    const isCurrent = () => started === generation
    store.setState({ isBusy: true, error: undefined })
    try {
      await work(await load(), isCurrent)
    } catch (error) {
      if (isCurrent()) store.setState({ error: toErrorNotice(error) })
    } finally {
      if (isCurrent()) store.setState({ isBusy: false })
    }
  }

  return {
    store,
    /** Asks for the change to `email`. */
    submitEmail: (email: string) =>
      run(async (auth, isCurrent) => {
        const action = await auth.updateEmail(email)
        if (isCurrent()) store.setState({ newEmail: email, step: action === 'VERIFY_PRIMARY_OTP' ? 'primary' : 'secondary' })
      }),
    /** The six-digit code of the step the change is at. */
    submitCode: (otp: string) =>
      run(async (auth, isCurrent) => {
        const { step } = store.getState()
        if (step === 'primary') {
          await auth.updateEmailPrimaryOtp(otp)
          if (isCurrent()) store.setState({ step: 'secondary' })
        } else if (step === 'secondary') {
          const newEmail = await auth.updateEmailSecondaryOtp(otp)
          if (isCurrent()) store.setState({ step: 'done', newEmail })
        }
      }),
    /** Back to the start (another address): answers still on their way are dropped. */
    reset() {
      generation += 1
      store.setState(initialEmailChangeState)
    },
  }
}

export type EmailChange = ReturnType<typeof createEmailChange>
