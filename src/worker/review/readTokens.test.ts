import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import type { ContractCall, MulticallResult } from '../../shared/protocol/core/coreApi'
import { readTokens } from './readTokens'

const addresses: Address[] = ['0x5FbDB2315678afecb367f032d93F642f64180aa3', '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512']

/** A node whose contracts answer `symbol()` with `symbols[i]` and `decimals()` with 6, and no interface. */
const answering = (symbols: string[]) => ({
  multicall: async (calls: readonly ContractCall[]): Promise<MulticallResult[]> =>
    calls.map((call, i) => {
      if (call.functionName === 'symbol') return { status: 'success', result: symbols[Math.floor(i / 4)] }
      if (call.functionName === 'decimals') return { status: 'success', result: 6 }
      return { status: 'failure', error: new Error('no interface') } as MulticallResult
    }),
})

describe('readTokens', () => {
  it('keeps a symbol as the contract gives it', async () => {
    const tokens = await readTokens(answering(['USDC', 'wstETH']), addresses)
    expect([...tokens.values()]).toEqual([
      { symbol: 'USDC', decimals: 6 },
      { symbol: 'wstETH', decimals: 6 },
    ])
  })

  it.each([
    ['a right-to-left override that makes it read as another', 'US\u202EDC'],
    ['a zero-width space', 'USD\u200BC'],
    ['a control character', 'USDC\n'],
    ['spaces around it', ' USDC'],
    ['more than 32 characters', 'A'.repeat(33)],
    ['nothing', ''],
  ])('leaves out a symbol with %s: the token shows as its address', async (_, symbol) => {
    const tokens = await readTokens(answering([symbol, 'TSR']), addresses)
    expect(tokens.get(addresses[0]!)).toEqual({ decimals: 6 })
    expect(tokens.get(addresses[1]!)).toEqual({ symbol: 'TSR', decimals: 6 })
  })
})
