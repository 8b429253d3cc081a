/**
 * The hosted RPC endpoint of a Tessera data service for one network (SPEC §7), to name as that network's RPC: the
 * service forwards its JSON-RPC to the nodes its operator configured, ranked with fallback, under the project's origins
 * and rate limit.
 * @example hostedRpcUrl({ api: 'https://api.example.com', caipNetworkId: 'eip155:8453', projectId: 'my-site' }) // 'https://api.example.com/v1/?chainId=eip155%3A8453&projectId=my-site'
 */
export function hostedRpcUrl({ api, caipNetworkId, projectId }: { api: string; caipNetworkId: string; projectId: string }): string {
  const url = new URL('v1/', api.endsWith('/') ? api : `${api}/`)
  url.search = new URLSearchParams({ chainId: caipNetworkId, projectId }).toString()
  return url.toString()
}
