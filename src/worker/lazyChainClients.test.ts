import { describe, expect, it, vi } from 'vitest'

// Counts each time a chain family's client module is evaluated: a static import anywhere in the worker's graph would
// count at once, when this file imports api.ts.
const loads = vi.hoisted(() => ({ solana: 0, bitcoin: 0, polkadot: 0 }))
vi.mock('./families/solana/solanaWorkerApi', () => {
  loads.solana++
  return { createSolanaWorkerApi: () => ({ getTokenBalances: async () => [] }) }
})
vi.mock('./families/bip122/bitcoinWorkerApi', () => {
  loads.bitcoin++
  return { createBitcoinWorkerApi: () => ({ getFeeRates: async () => ({ fast: 1, medium: 1, slow: 1, byTarget: {} }) }) }
})
vi.mock('./families/polkadot/polkadotWorkerApi', () => {
  loads.polkadot++
  return { createPolkadotWorkerApi: () => ({ getChainInfo: async () => ({ ss58Prefix: 42 }), destroy: async () => {} }) }
})

const { createWorkerApi } = await import('./api')
/** Where the page's bundler put each family's module (src/main/core/familyModules.ts); here, the sources. */
const familyModules = {
  solana: new URL('./families/solana/solanaFamily.ts', import.meta.url).href,
  bip122: new URL('./families/bip122/bitcoinFamily.ts', import.meta.url).href,
  polkadot: new URL('./families/polkadot/polkadotFamily.ts', import.meta.url).href,
}

describe('chain clients load lazily in the worker', () => {
  it('fetches the Solana and Bitcoin clients only once a network of theirs is configured', async () => {
    const api = createWorkerApi()
    api.configure({ chains: [] })
    await expect(api.familyCall({ namespace: 'bip122', method: 'getFeeRates', args: { caipNetworkId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328' } })).rejects.toMatchObject({ code: 'NETWORK_NOT_FOUND' })
    expect(loads).toEqual({ solana: 0, bitcoin: 0, polkadot: 0 })

    // Without the module's URL, the family's calls say what is missing.
    api.configure({ chains: [], familyChains: { bip122: [{ caipNetworkId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328', apiUrl: 'http://127.0.0.1:9' }] } })
    await expect(api.familyCall({ namespace: 'bip122', method: 'getFeeRates', args: { caipNetworkId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328' } })).rejects.toMatchObject({ code: 'NETWORK_NOT_FOUND', details: "Bitcoin networks are configured, but not the URL of the Bitcoin client's module" })

    api.configure({ chains: [], familyModules, familyChains: { bip122: [{ caipNetworkId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328', apiUrl: 'http://127.0.0.1:9' }] } })
    expect(await api.familyCall({ namespace: 'bip122', method: 'getFeeRates', args: { caipNetworkId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328' } })).toMatchObject({ fast: 1 })
    expect(loads).toEqual({ solana: 0, bitcoin: 1, polkadot: 0 })

    api.configure({ chains: [], familyModules, familyChains: { solana: [{ caipNetworkId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', rpcUrl: 'http://127.0.0.1:9' }] } })
    expect(await api.familyCall({ namespace: 'solana', method: 'getTokenBalances', args: { caipNetworkId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', owner: '11111111111111111111111111111111' } })).toEqual([])
    expect(loads).toEqual({ solana: 1, bitcoin: 1, polkadot: 0 })
  })

  it('imports the Polkadot client (and @polkadot/api) on the first Polkadot call, not when its network is configured', async () => {
    const api = createWorkerApi()
    const polkadotChains = [{ caipNetworkId: 'polkadot:91b171bb158e2d3848fa23a9f1c25182', rpcUrl: 'ws://127.0.0.1:9' }]
    api.configure({ chains: [], familyModules, familyChains: { polkadot: polkadotChains } })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(loads.polkadot).toBe(0)
    expect(await api.familyCall({ namespace: 'polkadot', method: 'getChainInfo', args: { caipNetworkId: polkadotChains[0]!.caipNetworkId } })).toMatchObject({ ss58Prefix: 42 })
    expect(loads.polkadot).toBe(1)
  })
})
