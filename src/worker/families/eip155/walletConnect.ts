import { numberToHex } from 'viem'
import { formatCaipNetworkId, parseCaipAddress, parseCaipNetworkId } from '../../../shared/protocol/caip'
import { parseAccounts, parseChainId } from '../../../shared/protocol/eip1193'
import { addressesOnNetworkOrAny, type WalletConnectFamily } from '../../walletConnect/walletConnectFamily'

/**
 * WalletConnect's eip155 namespace: an EIP-1193 provider over the session. Accounts and the chain are answered from the
 * session; the wallet's accountsChanged and chainChanged events are passed on.
 * @example const hash = await session.eip155.request({ method: 'eth_sendTransaction', params: [transaction] })
 */
export const eip155WalletConnect = {
  methods: ['eth_sendTransaction', 'personal_sign', 'eth_signTypedData_v4', 'wallet_switchEthereumChain', 'wallet_addEthereumChain', 'wallet_getCapabilities', 'wallet_sendCalls', 'wallet_getCallsStatus'],
  events: ['accountsChanged', 'chainChanged'],
  tellsEveryUpdate: true,
  readAccounts: (accounts, chain) => parseAccounts(addressesOnNetworkOrAny(accounts, chain)),
  onEvent({ name, data }, _chain, side) {
    if (name === 'accountsChanged') side.tell(parseAccounts((data as unknown[]).map((a) => parseCaipAddress(String(a))?.address ?? String(a))))
    else if (name === 'chainChanged') side.switchTo(formatCaipNetworkId('eip155', parseChainId(data)))
  },
  requests: (side) => ({
    async request<T = unknown>({ method, params }: { method: string; params?: unknown }): Promise<T> {
      const chain = side.network()
      if (method === 'eth_accounts' || method === 'eth_requestAccounts') return side.accounts() as T
      if (method === 'eth_chainId') return numberToHex(Number(parseCaipNetworkId(chain)!.reference)) as T
      if (method === 'wallet_switchEthereumChain') {
        const target = formatCaipNetworkId('eip155', parseChainId((params as [{ chainId?: unknown }] | undefined)?.[0]?.chainId))
        // A chain the wallet approved for the session needs no round trip; another one is the wallet's to decide.
        if (!side.approvedNetworks().includes(target)) await side.request(method, params)
        side.switchTo(target)
        return null as T
      }
      return side.request<T>(method, params)
    },
  }),
} satisfies WalletConnectFamily
