import { encodeAddress } from '@polkadot/util-crypto'
import { describe, expect, it } from 'vitest'
import { decodeSs58, describeSs58Prefix, encodeSs58, getPolkadotNetwork, polkadotNetworks } from './address'

const alicePublicKey = Uint8Array.from(Buffer.from('d43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d', 'hex'))

describe('encodeSs58', () => {
  it.each([
    [0, '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5'],
    [2, 'HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F'],
    [42, '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY'],
  ])('gives //Alice with prefix %i as every Substrate tool does: %s', (prefix, address) => {
    expect(encodeSs58(alicePublicKey, prefix)).toBe(address)
  })

  it.each([1, 7, 63, 64, 65, 255, 1284, 5_000, 16_383])('agrees with @polkadot/util-crypto and decodes back for prefix %i (one and two bytes)', (prefix) => {
    const address = encodeSs58(alicePublicKey, prefix)
    expect(address).toBe(encodeAddress(alicePublicKey, prefix))
    expect(decodeSs58(address)).toEqual({ prefix, publicKey: alicePublicKey })
  })

  it.each([
    [new Uint8Array(31), 0, 'An SS58 account key has 32 bytes, not 31'],
    [alicePublicKey, -1, '-1 is not an SS58 prefix (0 to 16383)'],
    [alicePublicKey, 16_384, '16384 is not an SS58 prefix (0 to 16383)'],
    [alicePublicKey, 1.5, '1.5 is not an SS58 prefix (0 to 16383)'],
  ])('refuses a key of the wrong length or a prefix out of range', (key, prefix, message) => {
    expect(() => encodeSs58(key, prefix)).toThrow(message)
  })
})

describe('the Polkadot networks', () => {
  it('finds each by its CAIP-2 id, with its SS58 prefix and token', () => {
    expect(getPolkadotNetwork('polkadot:91b171bb158e2d3848fa23a9f1c25182')).toEqual(polkadotNetworks.polkadot)
    expect(getPolkadotNetwork('polkadot:b0a8d493285c2df73290dfb7e61f870f')).toMatchObject({ name: 'Kusama', ss58Prefix: 2, symbol: 'KSM', decimals: 12 })
    expect(getPolkadotNetwork('polkadot:e143f23803ac50e8f6f8e62695d1ce9e')).toMatchObject({ name: 'Westend', ss58Prefix: 42, symbol: 'WND' })
    expect(getPolkadotNetwork('polkadot:45454545454545454545454545454545')).toMatchObject({ name: 'Polkadot Local', ss58Prefix: 2, symbol: 'ROC' })
    expect(getPolkadotNetwork('polkadot:00000000000000000000000000000000')).toBeUndefined()
  })

  it.each([
    [0, 'Polkadot'],
    [2, 'Kusama'],
    [42, 'generic Substrate'],
    [7, 'SS58 format 7'],
  ])('names prefix %i for a sentence: %s', (prefix, name) => expect(describeSs58Prefix(prefix)).toBe(name))
})
