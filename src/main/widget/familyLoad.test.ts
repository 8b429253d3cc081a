import { describe, expect, it, vi } from 'vitest'
import { createMemoryStorage, createWidgetStorage } from '../storage/createWidgetStorage'
import { createWidget } from './createWidget'

// The Solana family's code fails to download once (offline for a moment); EVM's comes.
let failures = 1
vi.mock('../families/solana/adapter', async (importOriginal) => {
  if (failures-- > 0) throw new TypeError('Failed to fetch dynamically imported module')
  return importOriginal()
})

const evm = { chainNamespace: 'eip155' as const, caipNetworkId: 'eip155:31337', id: 31337, name: 'Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } }
const solana = { chainNamespace: 'solana' as const, caipNetworkId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', id: 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1', name: 'Solana Devnet', nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 }, rpcUrls: { default: { http: [] } } }

describe("a family's code failing to load", () => {
  it('fails that load only: the next call loads what is missing, and each family is set up once', async () => {
    const target = new EventTarget() as Window
    const listened = vi.spyOn(target, 'addEventListener')
    const dispatched = vi.spyOn(target, 'dispatchEvent')
    const widget = createWidget({
      projectId: 'test',
      networks: [evm, solana],
      window: target,
      storage: createWidgetStorage({ storage: createMemoryStorage() }),
    })
    await widget.whenStarted()
    await expect(widget.ready()).rejects.toThrow()
    // EVM's wallets were asked for by the failed load (EIP-6963): the second load sets up only what is missing.
    const asked = () => dispatched.mock.calls.filter(([event]) => event.type === 'eip6963:requestProvider').length
    const listening = () => listened.mock.calls.filter(([type]) => type === 'eip6963:announceProvider').length
    await vi.waitFor(() => expect([asked(), listening()]).toEqual([1, 1]))
    await widget.ready()
    await expect(widget.getAdapter('solana')).resolves.toBeDefined()
    await expect(widget.getAdapter('eip155')).resolves.toBeDefined()
    expect([asked(), listening()]).toEqual([1, 1])
    widget.destroy()
  })
})
