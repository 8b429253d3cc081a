import { describe, expect, it } from 'vitest'
import { addressCacheSize, isAddress, isValidCaipAddress } from './isAddress'
import { isBitcoinAddress } from './bitcoin'
import { isEvmAddress, toChecksumAddress } from './evm'
import { decodeSs58, isPolkadotAddress } from './polkadot'
import { isSolanaAddress } from './solana'

// EIP-55 examples, from the EIP's text (https://eips.ethereum.org/EIPS/eip-55).
const eip55 = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
]

describe('EVM addresses (SPEC §5)', () => {
  it.each(eip55)('computes the EIP-55 checksum of %s', (address) => {
    expect(toChecksumAddress(address.toLowerCase())).toBe(address)
    expect(isEvmAddress(address, { strict: true })).toBe(true)
  })

  it('rejects a one-character checksum flip in strict mode only', () => {
    const flipped = '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
    expect(isEvmAddress(flipped, { strict: true })).toBe(false)
    expect(isEvmAddress(flipped)).toBe(true)
  })

  it.each([
    ['40 hex digits without 0x', '5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', true, false],
    ['all lowercase with 0x', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', true, true],
    ['39 hex digits', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae', false, false],
    ['41 hex digits', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed0', false, false],
    ['a non-hex character', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg', false, false],
    ['empty', '', false, false],
  ])('%s: loose %s, strict %s', (_name, value, loose, strict) => {
    expect(isEvmAddress(value)).toBe(loose)
    expect(isEvmAddress(value, { strict: true })).toBe(strict)
  })
})

describe('Solana addresses (SPEC §5: base58, 32 to 44 characters)', () => {
  it.each([
    ['the system program, 32 characters', '11111111111111111111111111111111', true],
    ['31 characters', '1111111111111111111111111111111', false],
    ['the USDC mint, 44 characters', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', true],
    ['45 characters', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1vv', false],
    ['a character outside base58 (0)', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10', false],
    ['base58 that decodes to more than 32 bytes', 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', false],
  ])('%s → %s', (_name, value, valid) => expect(isSolanaAddress(value)).toBe(valid))
})

describe('Bitcoin addresses', () => {
  // BIP-173 and BIP-350 (https://github.com/bitcoin/bips/blob/master/bip-0350.mediawiki#test-vectors), and the
  // genesis coinbase address.
  it.each([
    ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'mainnet'],
    ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'mainnet'],
    ['tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'testnet'],
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', 'mainnet'],
    ['tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c', 'testnet'],
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'mainnet'],
    ['3LRW7jeCvQCRdPF8S3yUCfRAx4eqXFmdcr', 'mainnet'],
    ['mrCDrCybB6J1vRfbwM5hemdJz73FwDBC8r', 'testnet'],
    ['2NByiBUaEXrhmqAsg7BbLpcQSAQs1EDwt5w', 'testnet'],
  ] as const)('accepts %s on %s', (address, network) => {
    expect(isBitcoinAddress(address, network)).toBe(true)
  })

  it.each([
    ['a v1 program with a bech32 (not bech32m) checksum', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', 'mainnet'],
    ['a v0 program with a bech32m checksum', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', 'mainnet'],
    ['a one-character flip', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', 'mainnet'],
    ['mixed case', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7KV8F3T4', 'mainnet'],
    ['a mainnet address on testnet', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'testnet'],
    ['a testnet base58 address on mainnet', 'mrCDrCybB6J1vRfbwM5hemdJz73FwDBC8r', 'mainnet'],
    ['a base58 checksum flip', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb', 'mainnet'],
  ] as const)('rejects %s', (_name, address, network) => {
    expect(isBitcoinAddress(address, network)).toBe(false)
  })
})

describe('Polkadot SS58 addresses', () => {
  // //Alice's public key in its generic (42), Polkadot (0) and Kusama (2) forms (Substrate's well-known dev key).
  const alice = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY'
  const alicePolkadot = '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5'
  const aliceKusama = 'HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F'
  const alicePublicKey = 'd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d'
  const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

  it.each([
    [alice, 42],
    [alicePolkadot, 0],
    [aliceKusama, 2],
  ])('decodes %s with prefix %i to Alice’s key', (address, prefix) => {
    const decoded = decodeSs58(address)!
    expect(decoded.prefix).toBe(prefix)
    expect(hex(decoded.publicKey)).toBe(alicePublicKey)
    expect(isPolkadotAddress(address, { prefix })).toBe(true)
  })

  it('rejects another network’s prefix when one is asked for', () => expect(isPolkadotAddress(alice, { prefix: 0 })).toBe(false))
  it('rejects a checksum flip', () => expect(isPolkadotAddress('5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQZ')).toBe(false))
  it('rejects an EVM address', () => expect(isPolkadotAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false))
})

describe('isAddress and its cache', () => {
  it('dispatches by namespace', () => {
    expect(isAddress('eip155', eip55[0]!)).toBe(true)
    expect(isAddress('solana', '11111111111111111111111111111111')).toBe(true)
    expect(isAddress('bip122', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe(true)
    expect(isAddress('polkadot', '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5')).toBe(true)
    expect(isAddress('solana', eip55[0]!)).toBe(false)
  })

  it('keeps at most 8,192 answers', () => {
    for (let i = 0; i < 9_000; i++) isAddress('eip155', `0x${i.toString(16).padStart(40, '0')}`)
    expect(addressCacheSize()).toBe(8_192)
  })

  it.each([
    [`eip155:1:${eip55[0]}`, true],
    ['eip155:1:0x123', false],
    ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:11111111111111111111111111111111', true],
    ['bip122:000000000019d6689c085ae165831e93:1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', true],
    ['bip122:000000000019d6689c085ae165831e93:mrCDrCybB6J1vRfbwM5hemdJz73FwDBC8r', false],
    ['cosmos:hub:cosmos1xyz', false],
  ])('validates the CAIP-10 address %s → %s', (value, valid) => expect(isValidCaipAddress(value)).toBe(valid))
})
