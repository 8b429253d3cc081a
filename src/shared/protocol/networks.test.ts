import { describe, expect, it } from 'vitest'
import { isCaipNetworkId } from './caip'
import { networkSchema } from './schemas/entities'
import { getKnownNetwork, knownNetworks, rankedEvmNetworkIds, unknownNetwork } from './networks'

describe('known networks', () => {
  it('has the 39 ranked EVM networks, Solana ×3, Bitcoin ×2, Polkadot and the two local chains', () => {
    expect(rankedEvmNetworkIds).toHaveLength(39)
    expect(new Set(rankedEvmNetworkIds).size).toBe(39)
    expect(knownNetworks.filter((n) => n.chainNamespace === 'solana').map((n) => n.name)).toEqual(['Solana', 'Solana Devnet', 'Solana Testnet'])
    expect(knownNetworks.filter((n) => n.chainNamespace === 'bip122').map((n) => n.name)).toEqual(['Bitcoin', 'Bitcoin Testnet'])
    expect(getKnownNetwork('polkadot:91b171bb158e2d3848fa23a9f1c25182')?.nativeCurrency).toEqual({ name: 'Polkadot', symbol: 'DOT', decimals: 10 })
    expect(getKnownNetwork('eip155:31337')).toMatchObject({ name: 'Tessera Local', testnet: true, rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } } })
  })

  it.each(knownNetworks.map((n) => [n.caipNetworkId, n] as const))('%s has every field of SPEC §3', (_id, network) => {
    expect(networkSchema.safeParse(network).success).toBe(true)
    expect(isCaipNetworkId(network.caipNetworkId)).toBe(true)
  })

  it('has no duplicate ids and only https RPC URLs outside the local chains', () => {
    expect(new Set(knownNetworks.map((n) => n.caipNetworkId)).size).toBe(knownNetworks.length)
    for (const n of knownNetworks.filter((n) => !n.name.startsWith('Tessera Local'))) {
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
