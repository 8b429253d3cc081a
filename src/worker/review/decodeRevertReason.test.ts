import { encodeErrorResult, parseAbi, type Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeRevertReason } from './decodeRevertReason'

const sender: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const errors = parseAbi(['error Error(string)', 'error Panic(uint256)', 'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)'])

describe('decodeRevertReason', () => {
  it.each([
    ['Error(string): the contract’s own words', encodeErrorResult({ abi: errors, errorName: 'Error', args: ['not enough'] }), { kind: 'error', message: 'not enough' }],
    ['a panic: its code', encodeErrorResult({ abi: errors, errorName: 'Panic', args: [0x11n] }), { kind: 'panic', code: 0x11 }],
    [
      'an ERC-6093 custom error: its name and arguments as rows',
      encodeErrorResult({ abi: errors, errorName: 'ERC20InsufficientBalance', args: [sender, 1n, 2n] }),
      {
        kind: 'customError',
        name: 'ERC20InsufficientBalance',
        args: [
          { path: 'sender', value: { kind: 'address', address: sender } },
          { path: 'balance', value: { kind: 'number', value: 1n } },
          { path: 'needed', value: { kind: 'number', value: 2n } },
        ],
      },
    ],
    ['an error no bundled ABI knows: the raw data', '0xdeadbeef01', { kind: 'unknown', data: '0xdeadbeef01' }],
    ['a revert without data', '0x', { kind: 'unknown', data: '0x' }],
  ] as const)('decodes %s', (_, data, reason) => {
    expect(decodeRevertReason(data)).toEqual(reason)
  })
})
