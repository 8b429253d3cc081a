import { describe, expect, it } from 'vitest'

describe('server rendering', () => {
  it('imports the package and creates a widget in Node, with no window, worker or storage', async () => {
    expect(typeof globalThis.window).toBe('undefined')
    const tessera = await import('./index')
    const widget = tessera.createWidget({
      projectId: 'ssr',
      networks: [{ chainNamespace: 'eip155', caipNetworkId: 'eip155:1', id: 1, name: 'Ethereum', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['https://eth.merkle.io'] } } }],
    })
    await widget.whenStarted()
    expect(widget.core).toBeUndefined()
    expect(widget.getState()).toMatchObject({ status: 'disconnected', connectors: [], activeCaipNetworkId: 'eip155:1' })
    widget.destroy()
  })
})
