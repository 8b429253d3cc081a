import { describe, expect, it } from 'vitest'
import { createWidgetError } from '../../../shared/protocol/errors'
import { toWalletStandardError } from './toWalletStandardError'

const named = (name: string, message = 'x', fields: Record<string, unknown> = {}) => Object.assign(new Error(message), { name }, fields)
// @solana/wallet-adapter's errors keep the wallet's own error in `.error`.
const adapterError = (name: string, inner?: unknown) => Object.assign(new Error('wrapped'), { name, error: inner })

describe('toWalletStandardError', () => {
  it.each([
    ['an EIP-1193 style code 4001 (Phantom, Solflare, Backpack)', Object.assign(new Error('User rejected the request.'), { code: 4001 })],
    ['a plain object with code 4001', { code: 4001, message: 'User rejected the request.' }],
    ['a WalletStandardError USER__REQUEST_REJECTED', named('WalletStandardError', 'The user rejected the request', { context: { __code: 4001000 } })],
    ['a UserRejectedRequestError by name', named('UserRejectedRequestError')],
    ['a closed wallet window (wallet-adapter WalletWindowClosedError)', named('WalletWindowClosedError')],
    ['a wallet-adapter WalletSignMessageError around a 4001', adapterError('WalletSignMessageError', { code: 4001, message: 'rejected' })],
    ['a wallet-adapter WalletConnectionError around a 4001', adapterError('WalletConnectionError', { code: 4001 })],
    ['a bare wallet-adapter WalletSignTransactionError', adapterError('WalletSignTransactionError')],
    ['a bare wallet-adapter WalletSignMessageError', adapterError('WalletSignMessageError')],
    ['an error whose cause has code 4001', new Error('outer', { cause: { code: 4001 } })],
    ['a WalletConnect rejection (5000)', { code: 5000, message: 'User rejected.' }],
  ])('%s is USER_REJECTED', (_name, error) => {
    const widgetError = toWalletStandardError(error)
    expect(widgetError.code).toBe('USER_REJECTED')
    expect(widgetError.cause).toBe(error)
  })

  it.each([
    ['code 4100', { code: 4100 }, 'UNAUTHORIZED'],
    ['code 4900', { code: 4900 }, 'DISCONNECTED'],
    ['code -32603', { code: -32603 }, 'INTERNAL_ERROR'],
    ['an unknown numeric code', { code: 1234 }, 'UNKNOWN_RPC_ERROR'],
    ['WalletStandardError FEATURE_UNIMPLEMENTED', named('WalletStandardError', 'x', { context: { __code: 6160002 } }), 'UNSUPPORTED_METHOD'],
    ['WalletStandardError ACCOUNT_CHAIN_UNSUPPORTED', named('WalletStandardError', 'x', { context: { __code: 6160000 } }), 'UNSUPPORTED_CHAIN'],
    ['a plain Error', new Error('boom'), 'UNKNOWN'],
    ['a thrown string', 'boom', 'UNKNOWN'],
    ['a bare wallet-adapter WalletSendTransactionError (a send can fail for many reasons)', adapterError('WalletSendTransactionError'), 'UNKNOWN'],
    ['a bare WalletConnectionError', adapterError('WalletConnectionError'), 'UNKNOWN'],
  ])('%s is %s', (_name, error, code) => expect(toWalletStandardError(error).code).toBe(code))

  it('never reads the message: "User rejected" text without a code or name is UNKNOWN', () => {
    expect(toWalletStandardError(new Error('User rejected the request.')).code).toBe('UNKNOWN')
    expect(toWalletStandardError({ code: 4001, message: 'insufficient funds' }).code).toBe('USER_REJECTED')
  })

  it('keeps a WidgetError as it is and the wallet message as details', () => {
    const original = createWidgetError('UNSUPPORTED_METHOD')
    expect(toWalletStandardError(original)).toBe(original)
    expect(toWalletStandardError({ code: 4001, message: 'Nope' }).details).toBe('Nope')
  })
})
