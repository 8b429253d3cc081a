import { encodeFunctionData, getAddress, slice, type Address, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { tesseraAccountAbi } from '../../src/frame/smartAccount/toTesseraAccount'
import { getCallTargets } from './callTargets'

const A: Address = '0x4444444444444444444444444444444444444444'
const B: Address = getAddress('0xabcdefabcdefabcdefabcdefabcdefabcdefabcd')
const execute = (to: Address, data: Hex = '0x') => encodeFunctionData({ abi: tesseraAccountAbi, functionName: 'execute', args: [to, 1n, data] })
const executeBatch = (...targets: Address[]) =>
  encodeFunctionData({ abi: tesseraAccountAbi, functionName: 'executeBatch', args: [targets.map((target) => ({ target, value: 0n, data: '0xabcd' as Hex }))] })

describe('getCallTargets', () => {
  it.each([
    ['an operation that only deploys', '0x' as Hex, []],
    ['execute', execute(B.toLowerCase() as Address), [B]],
    ['execute whose inner data is itself a call (only the outer target counts)', execute(A, executeBatch(B)), [A]],
    ['executeBatch', executeBatch(A, B, A), [A, B, A]],
    ['an empty executeBatch', executeBatch(), []],
  ])('reads %s', (_, callData, targets) => {
    expect(getCallTargets(callData)).toEqual(targets)
  })

  it.each([
    ['an unknown selector', '0xdeadbeef' as Hex],
    ['a selector alone', slice(execute(A), 0, 4)],
    ['truncated arguments', slice(execute(A), 0, 40)],
    ['a batch whose length word is huge', `${slice(executeBatch(A), 0, 36)}${'ff'.repeat(32)}` as Hex],
    ['a view function of the account', encodeFunctionData({ abi: tesseraAccountAbi, functionName: 'isValidSignature', args: [`0x${'00'.repeat(32)}`, '0x'] })],
    ['three bytes', '0x123456' as Hex],
  ])('cannot read %s', (_, callData) => {
    expect(getCallTargets(callData)).toBeUndefined()
  })
})
