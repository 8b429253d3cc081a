import { describe, expect, it } from 'vitest'
import { createWidgetError, reviveError, serializeError } from '../../shared/protocol/errors'
import { createNotifications } from './createNotifications'
import { errorNotice, toErrorNotice } from './errorNotice'

describe('error notices', () => {
  it('carry the code, the params and the English sentence of the table', () => {
    expect(errorNotice('EMAIL_LOGIN_THROTTLED', { n: 12 })).toEqual({ code: 'EMAIL_LOGIN_THROTTLED', params: { n: 12 }, message: 'Please try again after 12 seconds' })
    expect(errorNotice('TRANSACTION_STARTED')).toEqual({ code: 'TRANSACTION_STARTED', message: 'Transaction started' })
  })

  it('come from a WidgetError, one revived from a worker included', () => {
    const error = createWidgetError('NAME_REGISTER_FAILED', { params: { name: 'alice' }, details: 'taken' })
    expect(toErrorNotice(error)).toEqual({ code: 'NAME_REGISTER_FAILED', params: { name: 'alice' }, message: 'Error registering name alice' })
    expect(toErrorNotice(reviveError(structuredClone(serializeError(error))))).toEqual(toErrorNotice(error))
  })

  it.each([new Error('boom'), { code: 4001 }, { code: 'NOT_OURS' }, null, 'text'])('say the fallback for %j, which is not one of ours', (thrown) => {
    expect(toErrorNotice(thrown)).toEqual({ code: 'SOMETHING_WENT_WRONG', message: 'Something went wrong' })
    expect(toErrorNotice(thrown, 'SOLANA_SEND_FAILED').code).toBe('SOLANA_SEND_FAILED')
  })
})

describe('toasts of the error table', () => {
  it('keep their code and params for the UI, with the English sentence as the message', () => {
    const toasts = createNotifications()
    toasts.show(errorNotice('TRANSACTION_STARTED'))
    expect(toasts.store.getState()).toMatchObject({ open: true, code: 'TRANSACTION_STARTED', params: undefined, message: 'Transaction started', variant: 'success' })
    toasts.close()
    toasts.show(errorNotice('EMAIL_LOGIN_THROTTLED', { n: 3 }), { variant: 'error' })
    expect(toasts.store.getState()).toMatchObject({ code: 'EMAIL_LOGIN_THROTTLED', params: { n: 3 }, message: 'Please try again after 3 seconds' })
  })

  it('a plain text toast after one with a code has no code left', () => {
    const toasts = createNotifications()
    toasts.show(errorNotice('TRANSACTION_STARTED'))
    toasts.close()
    toasts.show('Saved')
    expect(toasts.store.getState()).toMatchObject({ open: true, message: 'Saved', code: undefined, params: undefined })
  })
})
