import { describe, expect, it } from 'vitest'
import { exceedsBalance, isReceiverLike } from './send'

describe('amount and receiver checks of the send form', () => {
  it.each([
    ['1.5', { numeric: '1.5', decimals: '18' }, false],
    ['1.500000000000000001', { numeric: '1.5', decimals: '18' }, true],
    ['2', { numeric: '1.999999', decimals: '6' }, true],
    ['abc', { numeric: '1', decimals: '18' }, false],
    [undefined, { numeric: '1', decimals: '18' }, false],
  ])('%s against a balance of %o exceeds it: %s', (amount, quantity, expected) => {
    expect(exceedsBalance(amount, quantity)).toBe(expected)
  })
  it.each([
    ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', true],
    ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', true],
    ['0x123', false],
    ['alice.tessera.id', true],
    ['alice', false],
    ['al ice.tessera.id', false],
  ])('%s can be sent to: %s', (value, expected) => {
    expect(isReceiverLike(value)).toBe(expected)
  })
})
