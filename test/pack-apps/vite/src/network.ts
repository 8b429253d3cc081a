import type { WidgetNetwork } from 'tessera'

/** The test's local chains, from the query: ?rpc=…&rpc2=… (a block every 2 s). */
const query = new URLSearchParams(location.search)
const local = (id: number, rpcUrl: string): WidgetNetwork => ({ chainNamespace: 'eip155', caipNetworkId: `eip155:${id}`, id, name: `Local ${id}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } }, blockTime: 2_000 })
export const networks = [local(31337, query.get('rpc')!), local(31338, query.get('rpc2')!)]
