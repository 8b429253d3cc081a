import { address as bitcoinjsAddress, initEccLib, networks as bitcoinjsNetworks } from 'bitcoinjs-lib'
import * as ecc from 'tiny-secp256k1'
import { describe, expect, it } from 'vitest'
import { addressCacheSize, isAddress, isValidCaipAddress } from './isAddress'
import { bitcoinNetworks, decodeBitcoinAddress, describeBitcoinNetworks, getBitcoinAddressNetworks, getBitcoinNetwork, isBitcoinAddress } from '../../families/bip122/address'
import { isEvmAddress, toChecksumAddress } from '../../families/eip155/address'
import { decodeSs58, isPolkadotAddress } from '../../families/polkadot/address'
import { isSolanaAddress } from '../../families/solana/address'

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

describe('Bitcoin addresses by network (mainnet bc, testnet and signet tb, regtest bcrt)', () => {
  // The local chain's first dev account (BIP84 and BIP86 keys of the regtest seed, services/chain/bitcoin/devKeys.ts).
  const regtestP2wpkh = 'bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuw'
  const regtestP2tr = 'bcrt1pfewlxm8meyyvgjydfu7v8j4ej64symj6ut8sf66h9germp94qgzs92e5zv'
  const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
  const toOutputScript = (address: string, network: typeof bitcoinjsNetworks.bitcoin) => {
    initEccLib(ecc) // bitcoinjs-lib checks P2TR keys on the curve
    return bitcoinjsAddress.toOutputScript(address, network)
  }

  it.each([
    ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'p2wpkh', ['mainnet'], '0014751e76e8199196d454941c45d1b3a323f1433bd6'],
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', 'p2tr', ['mainnet'], '512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798'],
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'p2pkh', ['mainnet'], '76a91462e907b15cbf27d5425399ebf6f0fb50ebb88f1888ac'],
    ['3LRW7jeCvQCRdPF8S3yUCfRAx4eqXFmdcr', 'p2sh', ['mainnet'], undefined],
    ['tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'p2wpkh', ['testnet', 'signet'], '0014751e76e8199196d454941c45d1b3a323f1433bd6'],
    ['tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', 'p2wsh', ['testnet', 'signet'], '00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262'],
    [regtestP2wpkh, 'p2wpkh', ['regtest'], undefined],
    [regtestP2tr, 'p2tr', ['regtest'], undefined],
    ['mrCDrCybB6J1vRfbwM5hemdJz73FwDBC8r', 'p2pkh', ['testnet', 'signet', 'regtest'], undefined],
    ['2NByiBUaEXrhmqAsg7BbLpcQSAQs1EDwt5w', 'p2sh', ['testnet', 'signet', 'regtest'], undefined],
    ['bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y', 'witness', ['mainnet'], undefined],
  ] as const)('decodes %s: %s on %j', (address, type, networks, outputScript) => {
    const decoded = decodeBitcoinAddress(address)!
    expect({ type: decoded.type, networks: decoded.networks }).toEqual({ type, networks })
    expect(getBitcoinAddressNetworks(address)).toEqual(networks)
    if (outputScript) expect(hex(decoded.outputScript)).toBe(outputScript)
    // The same script bitcoinjs-lib makes of it, for its first network.
    const bitcoinjsNetwork = { mainnet: bitcoinjsNetworks.bitcoin, testnet: bitcoinjsNetworks.testnet, signet: bitcoinjsNetworks.testnet, regtest: bitcoinjsNetworks.regtest }[decoded.networks[0]!]
    if (decoded.type !== 'witness') expect(hex(decoded.outputScript)).toBe(hex(toOutputScript(address, bitcoinjsNetwork)))
    for (const network of ['mainnet', 'testnet', 'signet', 'regtest'] as const) expect(isBitcoinAddress(address, network)).toBe((networks as readonly string[]).includes(network))
  })

  it('gives the output script that pays a regtest P2WPKH (OP_0 <20 bytes>) and P2TR (OP_1 <x-only key>) address', () => {
    expect(hex(decodeBitcoinAddress(regtestP2wpkh)!.outputScript)).toMatch(/^0014[0-9a-f]{40}$/)
    const p2tr = decodeBitcoinAddress(regtestP2tr)!
    expect(hex(p2tr.outputScript)).toBe(`5120${hex(p2tr.program)}`)
    expect(p2tr.program).toHaveLength(32)
  })

  it.each([
    ['a regtest address with a flipped character', 'bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuq'],
    ['an unknown prefix', 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9'],
    ['a v1 program in bech32 on regtest', 'bcrt1pfewlxm8meyyvgjydfu7v8j4ej64symj6ut8sf66h9germp94qgzs0m0x9p'],
    ['an EVM address', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['a Solana address', '11111111111111111111111111111111'],
    ['empty', ''],
    ['over 90 characters', `bc1q${'q'.repeat(90)}`],
  ])('refuses %s on every network', (_name, address) => {
    expect(decodeBitcoinAddress(address)).toBeUndefined()
    expect(getBitcoinAddressNetworks(address)).toEqual([])
  })

  it('names the networks an address belongs to, for "this is a mainnet address"', () => {
    expect(describeBitcoinNetworks(getBitcoinAddressNetworks('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'))).toBe('Bitcoin mainnet')
    expect(describeBitcoinNetworks(getBitcoinAddressNetworks('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx'))).toBe('Bitcoin testnet or signet')
    expect(describeBitcoinNetworks(getBitcoinAddressNetworks('mrCDrCybB6J1vRfbwM5hemdJz73FwDBC8r'))).toBe('Bitcoin testnet, signet or regtest')
    expect(describeBitcoinNetworks(getBitcoinAddressNetworks(regtestP2tr))).toBe('Bitcoin regtest')
  })

  it.each([
    ['mainnet', 'bip122:000000000019d6689c085ae165831e93'],
    ['testnet', 'bip122:000000000933ea01ad0ee984209779ba'],
    ['signet', 'bip122:00000008819873e925422c1ff0f99f7c'],
    ['regtest', 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328'],
  ] as const)('knows %s as %s', (network, caipNetworkId) => {
    expect(bitcoinNetworks[network].caipNetworkId).toBe(caipNetworkId)
    expect(getBitcoinNetwork(caipNetworkId)).toBe(network)
  })

  it('knows no other bip122 network', () => expect(getBitcoinNetwork('bip122:00000000da84f2bafbbc53dee25a72ae')).toBeUndefined())
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
    ['bip122:00000008819873e925422c1ff0f99f7c:tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', true],
    ['bip122:0f9188f13cb7b2c71f2a335e3a4fc328:bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuw', true],
    ['bip122:0f9188f13cb7b2c71f2a335e3a4fc328:tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', false],
    ['cosmos:hub:cosmos1xyz', false],
  ])('validates the CAIP-10 address %s → %s', (value, valid) => expect(isValidCaipAddress(value)).toBe(valid))
})
