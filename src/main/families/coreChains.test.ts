import { describe, expect, it } from 'vitest'
import type { WidgetNetwork } from '../widget/config'
import { coreReaches, familyCoreChains } from './coreChains'

const network = (chainNamespace: WidgetNetwork['chainNamespace'], caipNetworkId: string, http: string[], webSocket?: string[]) =>
  ({ chainNamespace, caipNetworkId, id: caipNetworkId.split(':')[1]!, name: caipNetworkId, nativeCurrency: { name: 'x', symbol: 'X', decimals: 9 }, rpcUrls: { default: { http, ...(webSocket && { webSocket }) } } }) as WidgetNetwork

describe('familyCoreChains', () => {
  it('gives the core every endpoint of each non-EVM network, in its family’s list, and leaves out networks without one', () => {
    expect(
      familyCoreChains([
        network('eip155', 'eip155:1', ['https://eth.example']),
        network('solana', 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', ['https://a.example', 'https://b.example']),
        network('solana', 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z', []),
        network('bip122', 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328', ['https://esplora.example/api', 'https://mempool.example/api']),
        network('polkadot', 'polkadot:45454545454545454545454545454545', ['https://dot.example'], ['wss://a.dot.example', 'wss://b.dot.example']),
        network('polkadot', 'polkadot:91b171bb158e2d3848fa23a9f1c25182', ['https://rpc.polkadot.io']),
      ]),
    ).toEqual({
      familyChains: {
        solana: [{ caipNetworkId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', rpcUrls: ['https://a.example', 'https://b.example'] }],
        bip122: [{ caipNetworkId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328', apiUrls: ['https://esplora.example/api', 'https://mempool.example/api'] }],
        polkadot: [
          { caipNetworkId: 'polkadot:45454545454545454545454545454545', rpcUrls: ['wss://a.dot.example', 'wss://b.dot.example'] },
          { caipNetworkId: 'polkadot:91b171bb158e2d3848fa23a9f1c25182', rpcUrls: ['wss://rpc.polkadot.io'] },
        ],
      },
    })
  })

  it('says which networks the core reads: those with an endpoint it can use', () => {
    expect(coreReaches(network('eip155', 'eip155:1', ['https://eth.example']))).toBe(true)
    expect(coreReaches(network('eip155', 'eip155:1', [], ['wss://eth.example']))).toBe(false)
    expect(coreReaches(network('solana', 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', []))).toBe(false)
    expect(coreReaches(network('bip122', 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328', ['https://esplora.example/api']))).toBe(true)
    expect(coreReaches(network('polkadot', 'polkadot:45454545454545454545454545454545', [], ['wss://dot.example']))).toBe(true)
    expect(coreReaches(network('polkadot', 'polkadot:45454545454545454545454545454545', []))).toBe(false)
  })
})
