import type { Chain } from 'viem'
import type { EvmNetwork } from '../../widget/config'

/**
 * A viem chain as a Tessera network (`createWidget({ networks })`), so a site lists its chains once: name, native
 * currency, RPC URLs, block explorer, testnet flag, Multicall3 and block time carry over.
 * @example createWidget({ projectId, networks: [mainnet, base].map(toWidgetNetwork) })
 */
export function toWidgetNetwork(chain: Chain): EvmNetwork {
  const { http, webSocket } = chain.rpcUrls.default
  const explorer = chain.blockExplorers?.default
  const multicall3 = chain.contracts?.multicall3?.address
  return {
    chainNamespace: 'eip155',
    caipNetworkId: `eip155:${chain.id}`,
    id: chain.id,
    name: chain.name,
    nativeCurrency: { name: chain.nativeCurrency.name, symbol: chain.nativeCurrency.symbol, decimals: chain.nativeCurrency.decimals },
    rpcUrls: { default: { http: [...http], ...(webSocket?.length ? { webSocket: [...webSocket] } : {}) } },
    ...(explorer ? { blockExplorers: { default: { name: explorer.name, url: explorer.url } } } : {}),
    ...(chain.testnet !== undefined ? { testnet: chain.testnet } : {}),
    ...(multicall3 ? { contracts: { multicall3: { address: multicall3 } } } : {}),
    ...(chain.blockTime ? { blockTime: chain.blockTime } : {}),
  }
}
