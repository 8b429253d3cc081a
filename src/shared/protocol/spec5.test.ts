import { describe, expect, it } from 'vitest'
import { checkEmailLoginThrottle } from './emailThrottle'
import type { Transaction } from './schemas/entities'
import { isInsufficientGas } from './send'
import { filterTransactions, groupTransactionsByYearMonth, requireAccountAddress } from './transactions'

describe('e-mail login throttle (SPEC §5, 30 s)', () => {
  it.each([
    [undefined, 0, undefined],
    [0, 30_000, undefined],
    [0, 29_999, 'Please try again after 1 seconds'],
    [0, 0, 'Please try again after 30 seconds'],
    [0, 10_500, 'Please try again after 20 seconds'],
  ])('last login %s, now %i → %s', (lastLoginAtMs, nowMs, message) => {
    const run = () => checkEmailLoginThrottle({ lastLoginAtMs, nowMs })
    if (message === undefined) expect(run).not.toThrow()
    else expect(run).toThrow(expect.objectContaining({ code: 'EMAIL_LOGIN_THROTTLED', message }))
  })
})

describe('send rules (SPEC §5)', () => {
  it.each([
    [{ nativeBalance: 0n, gasCostUsd: '0', nativeBalanceUsd: '0', isSmartAccount: false }, true],
    [{ nativeBalance: 1n, gasCostUsd: '0.51', nativeBalanceUsd: '0.5', isSmartAccount: false }, true],
    [{ nativeBalance: 1n, gasCostUsd: '0.5', nativeBalanceUsd: '0.5', isSmartAccount: false }, false],
    [{ nativeBalance: 0n, gasCostUsd: '9', nativeBalanceUsd: '0', isSmartAccount: true }, false],
  ])('insufficient gas %o → %s', (input, expected) => expect(isInsufficientGas(input)).toBe(expected))
})

describe('history (SPEC §5)', () => {
  const tx = (id: string, chain: string, minedAt: string, transfers: Transaction['transfers']): Transaction => ({
    id,
    metadata: { operationType: 'send', hash: `0x${id}`, minedAt, sentFrom: '0xa', sentTo: '0xb', status: 'confirmed', chain },
    transfers,
  })
  const spam = { nft_info: { flags: { is_spam: true } }, quantity: { numeric: '1' } }
  const fungible = { fungible_info: { symbol: 'ETH' }, quantity: { numeric: '1' } }

  it('drops all-spam NFT transactions, then other chains', () => {
    const list = [
      tx('1', 'eip155:1', '2026-03-01T00:00:00Z', [spam]),
      tx('2', 'eip155:1', '2026-03-01T00:00:00Z', [spam, fungible]),
      tx('3', 'eip155:10', '2026-03-01T00:00:00Z', [fungible]),
      tx('4', 'eip155:1', '2026-03-01T00:00:00Z', [fungible]),
    ]
    expect(filterTransactions(list, 'eip155:1').map((t) => t.id)).toEqual(['2', '4'])
  })

  it('groups by year then month, newest first', () => {
    const grouped = groupTransactionsByYearMonth([
      tx('a', 'eip155:1', '2025-12-31T23:00:00Z', []),
      tx('b', 'eip155:1', '2026-01-02T00:00:00Z', []),
      tx('c', 'eip155:1', '2026-01-20T00:00:00Z', []),
    ])
    expect(Object.keys(grouped)).toEqual(['2025', '2026'])
    expect(grouped[2026]![1]!.map((t) => t.id)).toEqual(['c', 'b'])
    expect(grouped[2025]![12]!.map((t) => t.id)).toEqual(['a'])
  })

  it('needs an account address', () => {
    expect(() => requireAccountAddress(undefined)).toThrow("Transactions can't be fetched without an accountAddress")
    expect(requireAccountAddress('0xabc')).toBe('0xabc')
  })
})
