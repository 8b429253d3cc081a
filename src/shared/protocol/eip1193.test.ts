import { getAddress, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { parseAccounts, parseChainId, utf8ToHex } from './eip1193'

describe('wallet answers', () => {
  it('checksums accounts as viem does, and names a bad one', () => {
    const lower = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
    expect(parseAccounts([lower, lower.toUpperCase().replace('0X', '0x')])).toEqual([getAddress(lower), getAddress(lower)])
    expect(() => parseAccounts(['0x1234'])).toThrow('The wallet reported an invalid address: 0x1234')
    expect(() => parseAccounts('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')).toThrow('The wallet reported accounts that are not a list')
  })
  it('reads chain ids in hex or decimal and names a bad one', () => {
    expect(parseChainId('0x7a69')).toBe(31337)
    expect(parseChainId(1)).toBe(1)
    expect(() => parseChainId('0x0')).toThrow('The wallet reported an invalid chain id: 0x0')
  })
  it('encodes a message for personal_sign as viem does', () => {
    for (const text of ['hello', 'héllo ✓ 🦊', 'line\nbreak', '']) expect(utf8ToHex(text)).toBe(toHex(text))
  })
})
