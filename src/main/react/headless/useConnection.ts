import type { ChainNamespace } from '../../../shared/protocol/caip'
import type { ConnectionStatus } from '../../widget/widgetState'
import { useWidget, useWidgetState } from '../WidgetProvider'

export type UseConnectReturnType = {
  /**
   * Connects the wallet behind `connectorId` (an EIP-6963 rdns, 'injected', a Wallet Standard wallet's id; see
   * `useWalletList`) on its family, or on `namespace` for a wallet of several families. Rejects as the wallet does
   * (USER_REJECTED, WALLET_NOT_FOUND, …); the widget's `error` says it too.
   */
  connect: (connectorId: string, namespace?: ChainNamespace) => Promise<void>
  status: ConnectionStatus
  isConnecting: boolean
  /** Why the last connection failed: a stable code and the spec's sentence; cleared by the next attempt. */
  error: { code: string; message: string } | undefined
  /** Opens the widget's own Connect view instead (its modal must be mounted: `<WidgetModal />`). */
  openConnect: () => void
}

/**
 * Connects a wallet, for a site with its own connect UI.
 * @example const { connect, isConnecting } = useConnect(); <button onClick={() => connect('io.metamask')}>MetaMask</button>
 */
export function useConnect(): UseConnectReturnType {
  const widget = useWidget()
  const status = useWidgetState((s) => s.status)
  const error = useWidgetState((s) => s.error)
  return { connect: widget.connect, status, isConnecting: status === 'connecting' || status === 'reconnecting', error, openConnect: () => widget.open({ view: 'Connect' }) }
}

export type UseDisconnectReturnType = {
  /** Disconnects the active family (or `namespace`, or 'all'); with WalletConnect, the families sharing its session too. */
  disconnect: (namespace?: ChainNamespace | 'all') => Promise<void>
}

/**
 * Disconnects the wallet.
 * @example const { disconnect } = useDisconnect(); <button onClick={() => disconnect()}>Disconnect</button>
 */
export function useDisconnect(): UseDisconnectReturnType {
  return { disconnect: useWidget().disconnect }
}

export type UseSwitchNetworkReturnType = {
  /** Switches the active network (a CAIP-2 id of the site's networks); the connected wallet is asked (SPEC §4). */
  switchNetwork: (caipNetworkId: string) => Promise<void>
  /** The site's networks. */
  networks: ReturnType<ReturnType<typeof useWidget>['getNetworks']>
  activeCaipNetworkId: string
}

/**
 * The site's networks and a switch between them.
 * @example const { networks, switchNetwork } = useSwitchNetwork(); networks.map((n) => <button onClick={() => switchNetwork(n.caipNetworkId)}>{n.name}</button>)
 */
export function useSwitchNetwork(): UseSwitchNetworkReturnType {
  const widget = useWidget()
  const activeCaipNetworkId = useWidgetState((s) => s.activeCaipNetworkId)
  return { switchNetwork: widget.switchNetwork, networks: widget.getNetworks(), activeCaipNetworkId }
}
