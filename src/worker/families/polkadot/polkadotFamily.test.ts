import { describe, expect, it, vi } from 'vitest'

// Counts each time the Polkadot client module is evaluated: a static import anywhere in the worker's graph would count
// at once, when this file imports api.ts. dedot, its Substrate library, comes only with that module.
const loads = vi.hoisted(() => ({ polkadot: 0, destroyed: 0 }))
vi.mock('./polkadotWorkerApi', () => {
  loads.polkadot++
  return {
    createPolkadotWorkerApi: ({ chains }: { chains: { caipNetworkId: string }[] }) => ({
      getChainInfo: async () => ({ caipNetworkId: chains[0]!.caipNetworkId }),
      destroy: async () => void loads.destroyed++,
    }),
  }
})

const { createWorkerApi } = await import('../../api')
const LOCAL = 'polkadot:45454545454545454545454545454545'
const WESTEND = 'polkadot:e143f23803ac50e8f6f8e62695d1ce9e'
/** Where the page's bundler put the module (src/main/core/familyModules.ts); here, its source. */
const familyModules = { polkadot: new URL('./polkadotFamily.ts', import.meta.url).href }

describe('the Polkadot client loads lazily in the worker', () => {
  it('is fetched only once a Polkadot network is configured, and a new config closes the previous connections', async () => {
    const api = createWorkerApi()
    api.configure({ chains: [] })
    await expect(api.familyCall({ namespace: 'polkadot', method: 'getChainInfo', args: { caipNetworkId: LOCAL } })).rejects.toMatchObject({ code: 'NETWORK_NOT_FOUND', details: 'no Polkadot network is configured in the core' })
    expect(loads).toEqual({ polkadot: 0, destroyed: 0 })

    // Without the module's URL, the family's calls say what is missing.
    api.configure({ chains: [], familyChains: { polkadot: [{ caipNetworkId: LOCAL, rpcUrl: 'ws://127.0.0.1:9' }] } })
    await expect(api.familyCall({ namespace: 'polkadot', method: 'getChainInfo', args: { caipNetworkId: LOCAL } })).rejects.toMatchObject({ code: 'NETWORK_NOT_FOUND', details: "Polkadot networks are configured, but not the URL of the Polkadot client's module" })
    expect(loads.polkadot).toBe(0)

    api.configure({ chains: [], familyModules, familyChains: { polkadot: [{ caipNetworkId: LOCAL, rpcUrl: 'ws://127.0.0.1:9' }] } })
    expect(await api.familyCall({ namespace: 'polkadot', method: 'getChainInfo', args: { caipNetworkId: LOCAL } })).toEqual({ caipNetworkId: LOCAL })
    expect(loads).toEqual({ polkadot: 1, destroyed: 0 })

    api.configure({ chains: [], familyModules, familyChains: { polkadot: [{ caipNetworkId: WESTEND, rpcUrl: 'wss://westend-rpc.polkadot.io' }] } })
    expect(await api.familyCall({ namespace: 'polkadot', method: 'getChainInfo', args: { caipNetworkId: WESTEND } })).toEqual({ caipNetworkId: WESTEND })
    expect(loads).toEqual({ polkadot: 1, destroyed: 1 })
    api.configure({ chains: [] })
    await vi.waitFor(() => expect(loads.destroyed).toBe(2))
  })

  it('answers the calls of core.polkadot only, not the rest of its module (destroy, nativeBalance)', async () => {
    const api = createWorkerApi()
    api.configure({ chains: [], familyModules, familyChains: { polkadot: [{ caipNetworkId: LOCAL, rpcUrl: 'ws://127.0.0.1:9' }] } })
    for (const method of ['destroy', 'nativeBalance', 'toString', '__proto__']) {
      await expect(api.familyCall({ namespace: 'polkadot', method: method as 'getChainInfo', args: { caipNetworkId: LOCAL } })).rejects.toMatchObject({ code: 'INVALID_MESSAGE', field: 'method' })
    }
    await expect(api.familyCall({ namespace: 'cosmos' as 'polkadot', method: 'getChainInfo', args: { caipNetworkId: LOCAL } })).rejects.toMatchObject({ code: 'INVALID_MESSAGE' })
  })
})
