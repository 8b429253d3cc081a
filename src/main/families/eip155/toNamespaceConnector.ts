import { formatCaipNetworkId, parseCaipNetworkId, type CaipNetworkId } from '../../../shared/protocol/caip'
import { utf8ToHex } from '../../../shared/protocol/eip1193'
import type { Connector } from '../../connectors/eip1193'
import type { WidgetNetwork } from '../../widget/config'
import type { NamespaceConnector } from '../types'

type Eip155Connector = Connector & { connect?: (options: { chainId?: number }) => Promise<{ accounts: string[]; chainId: number }> }

const chainIdOf = (caipNetworkId: CaipNetworkId) => Number(parseCaipNetworkId(caipNetworkId)!.reference)

/**
 * An EIP-1193 connector (injected, announced or WalletConnect) as the namespace-generic connection layer drives it:
 * CAIP-2 network ids, addable networks for wallet_switchEthereumChain/wallet_addEthereumChain, personal_sign.
 */
export function toNamespaceConnector(connector: Eip155Connector): NamespaceConnector {
  const caip = (chainId: number) => formatCaipNetworkId('eip155', chainId)
  return {
    id: connector.id,
    name: connector.name,
    type: connector.type,
    namespace: 'eip155',
    imageUrl: connector.imageUrl,
    info: connector.info,
    request: connector.request,
    ...(connector.refusesMethod && { refusesMethod: connector.refusesMethod }),
    async connect() {
      if (!connector.connect) throw new Error(`${connector.name} connects through its own view`)
      const { accounts, chainId } = await connector.connect({})
      return { accounts, caipNetworkId: caip(chainId) }
    },
    isAuthorized: () => connector.isAuthorized(),
    getAccounts: () => connector.getAccounts(),
    getCaipNetworkId: async () => caip(await connector.getChainId()),
    disconnect: () => connector.disconnect(),
    switchNetwork: (network: WidgetNetwork) =>
      connector.switchChain({
        id: chainIdOf(network.caipNetworkId as CaipNetworkId),
        name: network.name,
        nativeCurrency: network.nativeCurrency,
        rpcUrls: network.rpcUrls.default.http,
        blockExplorerUrls: network.blockExplorers ? [network.blockExplorers.default.url] : [],
      }),
    signMessage: async (message: string, address: string) => (await connector.request({ method: 'personal_sign', params: [utf8ToHex(message), address] })) as string,
    watch: ({ onAccountsChanged, onNetworkChanged, onDisconnect }) =>
      connector.watch({ onAccountsChanged, onChainChanged: onNetworkChanged && ((chainId) => onNetworkChanged(caip(chainId))), onDisconnect }),
  }
}
