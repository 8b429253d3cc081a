import { describe, expect, it } from 'vitest'
import { createWidgetError } from '../../../shared/protocol/errors'
import { toBitcoinWalletError } from './toBitcoinWalletError'

describe('toBitcoinWalletError', () => {
  it.each([
    ['sats-connect USER_REJECTION (-32000)', { code: -32000, message: 'User rejected the request' }, 'USER_REJECTED'],
    ['a sats-connect error answer ({ error: { code } })', { status: 'error', error: { code: -32000, message: 'cancel' } }, 'USER_REJECTED'],
    ['sats-connect ACCESS_DENIED (-32002)', { code: -32002, message: 'no permission' }, 'UNAUTHORIZED'],
    ['sats-connect METHOD_NOT_SUPPORTED (-32001)', { code: -32001, message: 'not for this address' }, 'UNSUPPORTED_METHOD'],
    ['Unisat’s EIP-1193 style refusal (4001)', { code: 4001, message: 'User rejected the request.' }, 'USER_REJECTED'],
    ['a Wallet Standard refusal', { name: 'WalletStandardError', context: { __code: 4001000 }, message: 'rejected' }, 'USER_REJECTED'],
    ['JSON-RPC invalid params', { code: -32602, message: 'bad psbt' }, 'INVALID_PARAMS'],
    ['an error without a code', new Error('something broke'), 'UNKNOWN'],
  ])('%s', (_name, error, code) => {
    const mapped = toBitcoinWalletError(error)
    expect(mapped.code).toBe(code)
    expect(mapped.cause).toBe(error)
  })

  it('never reads the message: a refusal in words without a code is UNKNOWN', () => {
    expect(toBitcoinWalletError(new Error('User rejected the request')).code).toBe('UNKNOWN')
  })

  it('keeps a WidgetError as it is', () => {
    const error = createWidgetError('CHAIN_NOT_SUPPORTED')
    expect(toBitcoinWalletError(error)).toBe(error)
  })
})
