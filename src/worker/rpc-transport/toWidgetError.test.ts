import { HttpRequestError, TimeoutError, UrlRequiredError, UserRejectedRequestError, InternalRpcError, ContractFunctionRevertedError, erc20Abi } from 'viem'
import { describe, expect, it } from 'vitest'
import { WidgetError } from '../../shared/protocol/errors'
import { toWidgetError } from './toWidgetError'

describe('toWidgetError', () => {
  it.each([
    ['a timeout', new TimeoutError({ body: {}, url: 'http://node' }), 'RPC_TIMEOUT'],
    ['no URL', new UrlRequiredError(), 'NO_RPC_URL'],
    ['an HTTP failure', new HttpRequestError({ url: 'http://node', status: 502 }), 'HTTP_REQUEST_FAILED'],
    ['a user rejection', new UserRejectedRequestError(new Error('no')), 'USER_REJECTED'],
    ['an internal error', new InternalRpcError(new Error('boom')), 'INTERNAL_ERROR'],
    ['a revert', new ContractFunctionRevertedError({ abi: erc20Abi, functionName: 'transfer', message: 'not enough' }), 'CONTRACT_FUNCTION_REVERTED'],
    ['an abort', Object.assign(new Error('aborted'), { name: 'AbortError' }), 'REQUEST_ABORTED'],
    ['anything else', new Error('strange'), 'UNKNOWN'],
    ['a string', 'thrown string', 'UNKNOWN'],
  ])('maps %s', (_name, error, code) => {
    const mapped = toWidgetError(error)
    expect(mapped).toBeInstanceOf(WidgetError)
    expect(mapped.code).toBe(code)
  })

  it('keeps the HTTP status and leaves a WidgetError as it is', () => {
    expect(toWidgetError(new HttpRequestError({ url: 'http://node', status: 503 })).status).toBe(503)
    const error = new WidgetError('REQUEST_ABORTED')
    expect(toWidgetError(error)).toBe(error)
  })

  it('keeps the code of an error built by another copy of the errors module (a chain family bundle)', () => {
    // What a family module's own copy of the class builds: an Error carrying the brand and a code, not our class.
    const fromAnotherCopy = Object.assign(new Error('Amount is below the dust limit'), { [Symbol.for('tessera.WidgetError')]: true, code: 'BITCOIN_AMOUNT_BELOW_DUST' })
    expect(fromAnotherCopy).not.toBeInstanceOf(WidgetError)
    expect(toWidgetError(fromAnotherCopy).code).toBe('BITCOIN_AMOUNT_BELOW_DUST')
  })
})
