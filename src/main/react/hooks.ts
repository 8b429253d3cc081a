import { useWidget, useWidgetState } from './WidgetProvider'

/** The connected account: status, address, CAIP address and all accounts. */
export function useAccount() {
  const status = useWidgetState((s) => s.status)
  const address = useWidgetState((s) => s.address)
  const caipAddress = useWidgetState((s) => s.caipAddress)
  const allAccounts = useWidgetState((s) => s.allAccounts)
  return { status, address, caipAddress, allAccounts, isConnected: status === 'connected' }
}

/** The active network and the ones the site offers. */
export function useNetwork() {
  const widget = useWidget()
  const activeCaipNetworkId = useWidgetState((s) => s.activeCaipNetworkId)
  const network = widget.getNetworks().find((n) => n.caipNetworkId === activeCaipNetworkId) ?? widget.getActiveNetwork()
  return { network, networks: widget.getNetworks(), switchNetwork: widget.switchNetwork }
}

/** The connected account's native balance on the active network, read through the core. */
export function useBalance() {
  return useWidgetState((s) => s.balance)
}
