import type { Client } from 'viem'
import type { CaipNetworkId } from '../../shared/protocol/caip'
import { createWidgetError } from '../../shared/protocol/errors'
import type { FrameConfig } from '../config/frameConfig'
import { toCaipNetworkId } from '../config/readFrameParams'
import type { ResolvedNetwork } from './createRpcHandler'
import { createEvmClient } from './evmRequests'

export type NetworkState = ReturnType<typeof createNetworkState>

/**
 * The network the frame is on (one per namespace, and the active one), among the configured ones only; viem clients are
 * made once per chain.
 * @example const networks = createNetworkState(config, params.caipNetworkId); networks.switchTo(137)
 */
export function createNetworkState(config: FrameConfig, initial: CaipNetworkId | undefined) {
  const evm = config.networks.eip155
  const solana = config.networks.solana ?? []
  const isConfigured = (id: CaipNetworkId) => evm.some((n) => `eip155:${n.chainId}` === id) || solana.some((n) => n.caipNetworkId === id)
  const current: { eip155?: CaipNetworkId; solana?: CaipNetworkId } = {
    ...(evm[0] && { eip155: `eip155:${evm[0].chainId}` as CaipNetworkId }),
    ...(solana[0] && { solana: solana[0].caipNetworkId as CaipNetworkId }),
  }
  let active: 'eip155' | 'solana' = current.eip155 ? 'eip155' : 'solana'
  const clients = new Map<number, Client>()

  const find = (id: string | number | undefined) => {
    const caip = toCaipNetworkId(id)
    if (!caip || !isConfigured(caip)) throw createWidgetError('UNSUPPORTED_CHAIN_ID', { details: `chain ${String(id).slice(0, 80)} is not one of the frame's networks` })
    return caip
  }
  const switchTo = (id: string | number) => {
    const caip = find(id)
    const namespace = caip.startsWith('solana:') ? 'solana' : 'eip155'
    current[namespace] = caip
    active = namespace
    return caip
  }
  if (initial && isConfigured(initial)) switchTo(initial)

  return {
    switchTo,
    /** The active network as the widget writes chain ids: a number for eip155, the CAIP-2 id for solana. */
    activeChainId(): string | number {
      const caip = current[active]
      if (!caip) throw createWidgetError('NETWORK_NOT_FOUND')
      return active === 'eip155' ? Number(caip.slice('eip155:'.length)) : caip
    },
    activeNamespace: () => active,
    evmNetworks: () => evm,
    /** The network a request of `namespace` acts on: the one it names (configured only), else the frame's. */
    resolve(namespace: 'eip155' | 'solana', chainId: string | number | undefined): ResolvedNetwork {
      const caip = chainId === undefined ? current[namespace] : find(chainId)
      if (!caip || !caip.startsWith(`${namespace}:`)) throw createWidgetError('UNSUPPORTED_CHAIN_ID', { details: `no ${namespace} network` })
      if (namespace === 'solana') return { namespace, network: solana.find((n) => n.caipNetworkId === caip)! }
      const network = evm.find((n) => `eip155:${n.chainId}` === caip)!
      let client = clients.get(network.chainId)
      if (!client) clients.set(network.chainId, (client = createEvmClient(network)))
      return { namespace, network, client }
    },
  }
}
