import { describe, expect, it } from 'vitest'
import { formatCaipAddress, formatCaipNetworkId, parseCaipAddress, parseCaipNetworkId } from './caip'

describe('CAIP-2 network ids (SPEC §5: two parts)', () => {
  it.each([
    ['eip155:1', { namespace: 'eip155', reference: '1' }],
    ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', { namespace: 'solana', reference: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' }],
    ['polkadot:91b171bb158e2d3848fa23a9f1c25182', { namespace: 'polkadot', reference: '91b171bb158e2d3848fa23a9f1c25182' }],
    ['bip122:000000000019d6689c085ae165831e93', { namespace: 'bip122', reference: '000000000019d6689c085ae165831e93' }],
  ])('parses %s', (id, parsed) => expect(parseCaipNetworkId(id)).toEqual(parsed))

  it.each(['eip155', 'eip155:', ':1', 'eip155:1:0xabc', 'cosmos:hub', 'eip155:1 ', 'EIP155:1', ''])('rejects %j', (id) =>
    expect(parseCaipNetworkId(id)).toBeUndefined(),
  )

  it('formats, refusing what it could not parse back', () => {
    expect(formatCaipNetworkId('eip155', 31337)).toBe('eip155:31337')
    expect(() => formatCaipNetworkId('eip155', '')).toThrow('Invalid CAIP-2 network id: eip155:')
  })
})

describe('CAIP-10 account ids (SPEC §5: three non-empty parts, a known namespace)', () => {
  it('parses a valid id', () =>
    expect(parseCaipAddress('eip155:1:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb')).toEqual({
      namespace: 'eip155',
      reference: '1',
      address: '0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb',
    }))

  it.each(['eip155:1', 'eip155:1:', 'eip155::0xabc', ':1:0xabc', 'cosmos:1:0xabc', 'eip155:1:0xabc:extra'])('rejects %j', (id) =>
    expect(parseCaipAddress(id)).toBeUndefined(),
  )

  it('formats', () => {
    expect(formatCaipAddress('eip155:1', '0xabc')).toBe('eip155:1:0xabc')
    expect(() => formatCaipAddress('eip155:1', '')).toThrow('Invalid CAIP-10 account id: eip155:1:')
  })
})
