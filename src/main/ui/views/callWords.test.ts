import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import type { CallStandard, ReviewRow, ReviewValue } from '../../../shared/protocol/review'
import { reviewEn, type ReviewMessageKey } from '../i18n/reviewEn'
import { intentOf, rowLabel, type FunctionCall } from './callWords'

const token: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const bob: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const zero: Address = '0x0000000000000000000000000000000000000000'
const amount = (value: bigint): ReviewValue => ({ kind: 'tokenAmount', token: { address: token }, amount: value, isUnlimited: false })
const address = (value: Address): ReviewValue => ({ kind: 'address', address: value })
const call = (standard: CallStandard | undefined, functionName: string, args: ReviewRow[] = []): FunctionCall => ({
  kind: 'function',
  to: token,
  value: 0n,
  standard,
  functionName,
  signature: `${functionName}()`,
  args,
})
const english = (key: ReviewMessageKey) => reviewEn[key]
const intentText = (c: FunctionCall) => {
  const key = intentOf(c)
  return key && english(key)
}

describe('intentOf', () => {
  it('says what a bundled call does, and that an approval of nothing takes one back', () => {
    expect(intentText(call('erc20', 'transfer'))).toBe('Send tokens')
    expect(intentText(call('erc20', 'transferFrom'))).toBe('Move tokens')
    expect(intentText(call('erc20', 'approve', [{ path: 'spender', value: address(bob) }, { path: 'amount', value: amount(5n) }]))).toBe('Allow spending')
    expect(intentText(call('erc20', 'approve', [{ path: 'spender', value: address(bob) }, { path: 'amount', value: amount(0n) }]))).toBe('Remove an approval')
    expect(intentText(call('erc20', 'increaseAllowance', [{ path: 'addedValue', value: amount(0n) }]))).toBe('Allow spending')
    expect(intentText(call('permit2', 'approve', [{ path: 'amount', value: amount(0n) }]))).toBe('Remove an approval')
    expect(intentText(call('permit2', 'permit'))).toBe('Allow spending')
    expect(intentText(call('erc721', 'approve', [{ path: 'spender', value: address(zero) }]))).toBe('Remove an approval')
    expect(intentText(call('erc721', 'approve', [{ path: 'spender', value: address(bob) }]))).toBe('Allow an NFT to be moved')
    expect(intentText(call('erc721', 'setApprovalForAll', [{ path: 'approved', value: { kind: 'bool', value: true } }]))).toBe('Allow a whole collection to be moved')
    expect(intentText(call('erc1155', 'setApprovalForAll', [{ path: 'approved', value: { kind: 'bool', value: false } }]))).toBe('Remove an approval')
    expect(intentText(call('erc721', 'safeTransferFrom'))).toBe('Send an NFT')
    expect(intentText(call('erc1155', 'safeBatchTransferFrom'))).toBe('Send tokens')
    expect(intentText(call('uniswapV2Router', 'swapExactETHForTokens'))).toBe('Swap')
    expect(intentText(call('uniswapV2Router', 'addLiquidityETH'))).toBe('Add liquidity')
    expect(intentText(call('uniswapV2Router', 'removeLiquidity'))).toBe('Remove liquidity')
    expect(intentText(call('multicall3', 'aggregate3'))).toBe('Several calls at once')
    expect(intentText(call('entryPoint', 'handleOps'))).toBe('Run user operations')
    expect(intentText(call('smartAccount', 'execute'))).toBe('Calls from your smart account')
  })

  it('has no words for a call only a site’s descriptor decoded', () => {
    expect(intentOf(call(undefined, 'mint'))).toBeUndefined()
  })
})

describe('rowLabel', () => {
  const row = (path: string, label?: string): ReviewRow => ({ path, label, value: address(bob) })
  const swap = call('uniswapV2Router', 'swapExactETHForTokens')

  it('names a bundled call’s arguments in words, an array’s items counted from 1', () => {
    expect(['amountOutMin', 'path.[0]', 'path.[1]', 'to', 'deadline'].map((path) => rowLabel(row(path), swap, english))).toEqual([
      'Minimum received',
      'Route 1',
      'Route 2',
      'Recipient',
      'Deadline',
    ])
    expect(rowLabel(row('calls.[1].callData'), call('multicall3', 'aggregate3'), english)).toBe('Call 2')
    expect(rowLabel(row('permitBatch.details.[0].token'), call('permit2', 'permit'), english)).toBe('Token 1')
    expect(rowLabel(row('recipient'), call('erc20', 'transfer'), english)).toBe('Recipient')
  })

  it('keeps a descriptor’s label, and writes other paths as Solidity does', () => {
    expect(rowLabel(row('to', 'Beneficiary'), swap, english)).toBe('Beneficiary')
    expect(rowLabel(row('calls.[0].allowFailure'), call('multicall3', 'aggregate3'), english)).toBe('calls[0].allowFailure')
    // Typed data and a site's descriptor's calls: their own names, which the page cannot put in words.
    expect(rowLabel(row('details.token'), undefined, english)).toBe('details.token')
    expect(rowLabel(row('to'), call(undefined, 'mint'), english)).toBe('to')
  })
})
