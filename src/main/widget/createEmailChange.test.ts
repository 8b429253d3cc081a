import { describe, expect, it, vi } from 'vitest'
import { createWidgetError } from '../../shared/protocol/errors'
import { createEmailChange } from './createEmailChange'

const connector = (overrides: Partial<Record<'updateEmail' | 'updateEmailPrimaryOtp' | 'updateEmailSecondaryOtp', (value: string) => Promise<unknown>>> = {}) => ({
  updateEmail: vi.fn(async () => 'VERIFY_PRIMARY_OTP' as const),
  updateEmailPrimaryOtp: vi.fn(async () => 'VERIFY_SECONDARY_OTP' as const),
  updateEmailSecondaryOtp: vi.fn(async () => 'new@example.test'),
  ...overrides,
})

describe('createEmailChange', () => {
  it('goes from the new address to the current address’s code, the new address’s code, and done', async () => {
    const auth = connector()
    const change = createEmailChange({ load: async () => auth as never })
    await change.submitEmail('new@example.test')
    expect(change.store.getState()).toMatchObject({ step: 'primary', newEmail: 'new@example.test', isBusy: false, error: undefined })
    await change.submitCode('123456')
    expect(change.store.getState().step).toBe('secondary')
    await change.submitCode('654321')
    expect(change.store.getState()).toMatchObject({ step: 'done', newEmail: 'new@example.test' })
    expect(auth.updateEmailPrimaryOtp).toHaveBeenCalledWith('123456')
    expect(auth.updateEmailSecondaryOtp).toHaveBeenCalledWith('654321')
  })

  it('asks an account without an address for the new address’s code only', async () => {
    const auth = connector({ updateEmail: async () => 'VERIFY_SECONDARY_OTP' })
    const change = createEmailChange({ load: async () => auth as never })
    await change.submitEmail('new@example.test')
    expect(change.store.getState().step).toBe('secondary')
    await change.submitCode('654321')
    expect(auth.updateEmailPrimaryOtp).not.toHaveBeenCalled()
    expect(change.store.getState().step).toBe('done')
  })

  it.each([
    ['AUTH_CODE_INVALID', { attemptsLeft: 4 }, 'The code is not correct. Please check it and try again'],
    ['AUTH_CODE_EXPIRED', undefined, 'This code has expired. Please ask for a new one'],
    ['AUTH_EMAIL_TAKEN', undefined, 'This e-mail address belongs to another account'],
  ] as const)('keeps the step and says %s in its sentence', async (code, params, sentence) => {
    const auth = connector({ updateEmailPrimaryOtp: () => Promise.reject(createWidgetError(code, params ? { params } : {})) })
    const change = createEmailChange({ load: async () => auth as never })
    await change.submitEmail('new@example.test')
    await change.submitCode('000000')
    expect(change.store.getState()).toMatchObject({ step: 'primary', isBusy: false, error: { code, message: sentence } })
  })

  it('drops an answer that comes after reset()', async () => {
    let answer!: (action: 'VERIFY_PRIMARY_OTP') => void
    const updateEmail = vi.fn(() => new Promise<'VERIFY_PRIMARY_OTP'>((resolve) => (answer = resolve)))
    const change = createEmailChange({ load: async () => connector({ updateEmail }) as never })
    const asked = change.submitEmail('new@example.test')
    await vi.waitFor(() => expect(updateEmail).toHaveBeenCalled())
    change.reset()
    answer('VERIFY_PRIMARY_OTP')
    await asked
    expect(change.store.getState()).toMatchObject({ step: 'email', newEmail: undefined, isBusy: false })
  })
})
