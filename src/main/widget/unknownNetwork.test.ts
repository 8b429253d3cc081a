import { describe, expect, it } from 'vitest'
import { unknownNetwork } from './createConnectionController'

describe('unknownNetwork (a network the site did not request)', () => {
  it.each([
    ['eip155:999', 999, { name: 'Ether', symbol: 'ETH', decimals: 18 }],
    ['solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z', '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z', { name: 'Solana', symbol: 'SOL', decimals: 9 }],
    ['bip122:000000000933ea01ad0ee984209779ba', '000000000933ea01ad0ee984209779ba', { name: 'Bitcoin', symbol: 'BTC', decimals: 8 }],
    // An unknown Substrate chain's currency cannot be told from its id: no symbol rather than another family's.
    ['polkadot:0123456789abcdef0123456789abcdef', '0123456789abcdef0123456789abcdef', { name: 'Unknown', symbol: '', decimals: 18 }],
  ] as const)('%s is "Unknown Network" with its family’s currency', (caipNetworkId, id, nativeCurrency) => {
    expect(unknownNetwork(caipNetworkId)).toMatchObject({ caipNetworkId, id, name: 'Unknown Network', nativeCurrency, rpcUrls: { default: { http: [] } } })
  })
})
