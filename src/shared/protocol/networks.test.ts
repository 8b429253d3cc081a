import { describe, expect, it } from 'vitest'
import { isCaipNetworkId } from './caip'
import { networkSchema } from './schemas/entities'
import { bitcoinNetworks, getBitcoinNetwork } from '../families/bip122/address'
import { getKnownNetwork, knownNetworks, rankedEvmNetworkIds } from './networks'
import { unknownNetwork } from './unknownNetwork'

describe('known networks', () => {
  it('has the 39 ranked EVM networks, Solana ×3, Bitcoin ×3, Polkadot and the four local chains', () => {
    expect(rankedEvmNetworkIds).toHaveLength(39)
    expect(new Set(rankedEvmNetworkIds).size).toBe(39)
    expect(knownNetworks.filter((n) => n.chainNamespace === 'solana').map((n) => n.name)).toEqual(['Solana', 'Solana Devnet', 'Solana Testnet', 'Solana Local'])
    expect(knownNetworks.filter((n) => n.chainNamespace === 'bip122').map((n) => n.name)).toEqual(['Bitcoin', 'Bitcoin Testnet', 'Bitcoin Signet', 'Bitcoin Regtest'])
    expect(getKnownNetwork('polkadot:91b171bb158e2d3848fa23a9f1c25182')?.nativeCurrency).toEqual({ name: 'Polkadot', symbol: 'DOT', decimals: 10 })
    expect(getKnownNetwork('eip155:31337')).toMatchObject({ name: 'Tessera Local', testnet: true, rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } } })
  })

  it.each(knownNetworks.map((n) => [n.caipNetworkId, n] as const))('%s has every field of SPEC §3', (_id, network) => {
    expect(networkSchema.safeParse(network).success).toBe(true)
    expect(isCaipNetworkId(network.caipNetworkId)).toBe(true)
  })

  // CAIP-2 for Solana: the first 32 characters of the cluster's genesis hash (what getGenesisHash answers).
  it.each([
    ['Solana', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d'],
    ['Solana Devnet', 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG'],
    ['Solana Testnet', 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z', '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY'],
    ['Solana Local', 'solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3', 'CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3PECGUCAEMbky'],
  ])('%s is %s, from genesis hash %s', (name, caipNetworkId, genesisHash) => {
    expect(caipNetworkId).toBe(`solana:${genesisHash.slice(0, 32)}`)
    expect(getKnownNetwork(caipNetworkId)).toMatchObject({ name, id: genesisHash.slice(0, 32), nativeCurrency: { symbol: 'SOL', decimals: 9 } })
  })

  // CAIP-2 for Bitcoin (BIP-122): the first 32 hex characters of the genesis block hash.
  it.each([
    ['Bitcoin', '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f', false],
    ['Bitcoin Testnet', '000000000933ea01ad0ee984209779baaec3ced90fa3f408719526f8d77f4943', true],
    ['Bitcoin Signet', '00000008819873e925422c1ff0f99f7cc9bbb232af63a077a480a3633bee1ef6', true],
    ['Bitcoin Regtest', '0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206', true],
  ])('%s is bip122: and the first 32 hex characters of its genesis hash', (name, genesisHash, testnet) => {
    expect(getKnownNetwork(`bip122:${genesisHash.slice(0, 32)}`)).toMatchObject({ name, testnet, nativeCurrency: { symbol: 'BTC', decimals: 8 } })
    expect(bitcoinNetworks[getBitcoinNetwork(`bip122:${genesisHash.slice(0, 32)}`)!].name).toBe(name)
  })

  // CAIP-2 for Polkadot: the first 32 hex characters of the genesis hash; RPC over WebSocket.
  it.each([
    ['Polkadot', '0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3', 'DOT', 10, false, 'wss://rpc.polkadot.io'],
    ['Kusama', '0xb0a8d493285c2df73290dfb7e61f870f17b41801197a149ca93654499ea3dafe', 'KSM', 12, false, 'wss://kusama-rpc.polkadot.io'],
    ['Westend', '0xe143f23803ac50e8f6f8e62695d1ce9e4e1d68aa36c1cd2cfd15340213f3423e', 'WND', 12, true, 'wss://westend-rpc.polkadot.io'],
    ['Polkadot Local', `0x${'45'.repeat(32)}`, 'ROC', 12, true, 'ws://127.0.0.1:9944'],
  ])('%s is polkadot: and the first 32 hex characters of genesis hash %s', (name, genesisHash, symbol, decimals, testnet, webSocket) => {
    expect(getKnownNetwork(`polkadot:${genesisHash.slice(2, 34)}`)).toMatchObject({ name, testnet, nativeCurrency: { symbol, decimals }, rpcUrls: { default: { webSocket: [webSocket] } } })
  })

  it('points the local Solana chain at the stack’s default RPC and PubSub ports', () => {
    expect(getKnownNetwork('solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3')).toMatchObject({
      testnet: true,
      rpcUrls: { default: { http: ['http://127.0.0.1:8899'], webSocket: ['ws://127.0.0.1:8900'] } },
    })
  })

  it('has no duplicate ids and only https RPC URLs outside the local chains', () => {
    expect(new Set(knownNetworks.map((n) => n.caipNetworkId)).size).toBe(knownNetworks.length)
    const local = new Set(['eip155:31337', 'eip155:31338', 'solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3', 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328', 'polkadot:45454545454545454545454545454545'])
    for (const n of knownNetworks.filter((n) => !local.has(n.caipNetworkId))) {
      for (const url of n.rpcUrls.default.http) expect(url).toMatch(/^https:\/\//)
    }
  })

  it('marks testnets', () => {
    expect(getKnownNetwork('eip155:1')?.testnet).toBe(false)
    expect(getKnownNetwork('eip155:11155111')?.testnet).toBe(true)
  })

  it('builds the "Unknown Network" placeholder with empty RPC lists', () => {
    expect(unknownNetwork('eip155:999')).toEqual({
      chainNamespace: 'eip155', caipNetworkId: 'eip155:999', id: 999, name: 'Unknown Network',
      nativeCurrency: { name: 'Unknown', symbol: '', decimals: 18 }, rpcUrls: { default: { http: [] }, chainDefault: { http: [] } }, testnet: false,
    })
  })
})
