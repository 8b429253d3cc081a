import { describe, expect, it } from 'vitest'

describe('server rendering', () => {
  it('imports the package and creates a widget in Node, with no window, worker or storage', async () => {
    expect(typeof globalThis.window).toBe('undefined')
    const tessera = await import('./index')
    await import('./widget/startWidget')
    const widget = tessera.createWidget({
      projectId: 'ssr',
      networks: [{ chainNamespace: 'eip155', caipNetworkId: 'eip155:1', id: 1, name: 'Ethereum', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['https://eth.merkle.io'] } } }],
    })
    // Nothing starts by itself on a server (each request's render makes a widget); a call that needs it starts it.
    // (The widget's code is loaded already: a start would be over within a few tasks.)
    await new Promise((done) => setTimeout(done, 50))
    expect(widget.getState().isStarted).toBe(false)
    await widget.whenStarted()
    expect(widget.getState().isStarted).toBe(true)
    expect(widget.core).toBeUndefined()
    expect(widget.getState()).toMatchObject({ status: 'disconnected', connectors: [], activeCaipNetworkId: 'eip155:1' })
    widget.destroy()
  })
})
