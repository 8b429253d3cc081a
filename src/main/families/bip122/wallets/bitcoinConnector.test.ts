import { describe, expect, it } from 'vitest'
import { checkSignPsbt, sameAccounts, toBitcoinAccounts } from './bitcoinConnector'

// BIP-84 and BIP-86 test vectors (mainnet), and a regtest pair.
const P2WPKH = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'
const P2TR = 'bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr'
const P2TR_2 = 'bc1p4qhjn9zdvkux4e44uhx8tc55attvtyu358kutcqkudyccelu0was9fqzwh'
const P2PKH = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'

describe('toBitcoinAccounts', () => {
  it.each([
    ['payment then ordinals, by address type', [{ address: P2TR }, { address: P2WPKH }], [['payment', P2WPKH], ['ordinals', P2TR]]],
    ['the purposes a wallet names win over the address type', [{ address: P2TR, purpose: 'payment' }, { address: P2TR_2, purpose: 'ordinals' }], [['payment', P2TR], ['ordinals', P2TR_2]]],
    ['a lone taproot address is the payment account', [{ address: P2TR }], [['payment', P2TR]]],
    ['a lone legacy address is the payment account', [{ address: P2PKH }], [['payment', P2PKH]]],
    ['only an ordinals address named: it is the account', [{ address: P2TR, purpose: 'ordinals' }], [['ordinals', P2TR]]],
    ['the same address for both purposes is listed once', [{ address: P2WPKH, purpose: 'payment' }, { address: P2WPKH, purpose: 'ordinals' }], [['payment', P2WPKH]]],
    ['what is not a Bitcoin address is dropped', [{ address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }, { address: 42 }, null, { address: P2WPKH }], [['payment', P2WPKH]]],
    ['a stacks purpose is not a Bitcoin one', [{ address: P2WPKH, purpose: 'stacks' }, { address: P2TR, purpose: 'stacks' }], [['payment', P2WPKH], ['ordinals', P2TR]]],
    ['nothing', [], []],
  ])('%s', (_name, input, expected) => {
    expect(toBitcoinAccounts(input as never).map((a) => [a.purpose, a.address])).toEqual(expected)
  })

  it('keeps a hex public key (lower case) and drops anything else', () => {
    expect(toBitcoinAccounts([{ address: P2WPKH, publicKey: '02AB' }])[0]).toEqual({ address: P2WPKH, purpose: 'payment', publicKey: '02ab' })
    expect(toBitcoinAccounts([{ address: P2WPKH, publicKey: 'zz' }])[0]).toEqual({ address: P2WPKH, purpose: 'payment' })
  })

  it('reads at most 20 addresses', () => {
    expect(toBitcoinAccounts([...Array.from({ length: 20 }, () => ({ address: 'nope' })), { address: P2WPKH }])).toEqual([])
  })

  it('compares account lists by address and purpose', () => {
    const a = toBitcoinAccounts([{ address: P2WPKH }, { address: P2TR }])
    expect(sameAccounts(a, toBitcoinAccounts([{ address: P2TR }, { address: P2WPKH }]))).toBe(true)
    expect(sameAccounts(a, toBitcoinAccounts([{ address: P2WPKH }]))).toBe(false)
  })
})

describe('checkSignPsbt', () => {
  const valid = { psbtBase64: 'cHNidP8B', address: P2WPKH, signingIndexes: [0], network: 'mainnet' as const }
  it.each([
    ['a PSBT that is not base64', { psbtBase64: 'not base64!' }, 'INVALID_PARAMS'],
    ['an address that is not Bitcoin', { address: 'hello' }, 'INVALID_ADDRESS'],
    ['no input to sign', { signingIndexes: [] }, 'INVALID_PARAMS'],
    ['a negative input index', { signingIndexes: [-1] }, 'INVALID_PARAMS'],
  ])('refuses %s', (_name, change, code) => {
    expect(() => checkSignPsbt({ ...valid, ...change })).toThrow(expect.objectContaining({ code }))
  })
  it('takes a well-formed request', () => expect(() => checkSignPsbt(valid)).not.toThrow())
})
