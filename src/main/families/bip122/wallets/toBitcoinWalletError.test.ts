import { describe, expect, it } from 'vitest'
import { createWidgetError } from '../../../../shared/protocol/errors'
import { toBitcoinWalletError } from './toBitcoinWalletError'

describe('toBitcoinWalletError', () => {
  it.each([
    ['sats-connect USER_REJECTION (-32000)', { code: -32000, message: 'User rejected the request' }, 'USER_REJECTED'],
    ['a sats-connect error answer ({ error: { code } })', { status: 'error', error: { code: -32000, message: 'cancel' } }, 'USER_REJECTED'],
    ['sats-connect ACCESS_DENIED (-32002)', { code: -32002, message: 'no permission' }, 'UNAUTHORIZED'],
    ['sats-connect METHOD_NOT_SUPPORTED (-32001)', { code: -32001, message: 'not for this address' }, 'UNSUPPORTED_METHOD'],
    ['Unisat’s EIP-1193 style refusal (4001)', { code: 4001, message: 'User rejected the request.' }, 'USER_REJECTED'],
    ['a JSON-RPC error response with 4001, as Leather rejects', { jsonrpc: '2.0', id: '1', error: { code: 4001, message: 'User rejected request' } }, 'USER_REJECTED'],
    ['a JSON-RPC error response with USER_REJECTION (-32000)', { jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'cancel' } }, 'USER_REJECTED'],
    ['Leather’s METHOD_NOT_SUPPORTED (4002)', { jsonrpc: '2.0', id: '1', error: { code: 4002, message: 'not supported' } }, 'UNSUPPORTED_METHOD'],
    ['JSON-RPC method not found (-32601)', { code: -32601, message: 'Method not found' }, 'METHOD_NOT_FOUND'],
    ['JSON-RPC internal error (-32603)', { code: -32603, message: 'Internal error' }, 'INTERNAL_ERROR'],
    ['JSON-RPC invalid request (-32600)', { code: -32600, message: 'Invalid request' }, 'INVALID_REQUEST'],
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
