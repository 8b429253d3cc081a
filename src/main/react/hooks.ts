import { balanceKey } from '../../shared/protocol/core/coreState'
import type { WidgetNetwork } from '../widget/config'
import { useStoreSelector, useWidget, useWidgetState } from './WidgetProvider'

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
  const isStarted = useWidgetState((s) => s.isStarted)
  // Before the widget has started: the first network as the site gave it (a config without one fails its check).
  const network: WidgetNetwork = widget.getNetworks().find((n) => n.caipNetworkId === activeCaipNetworkId) ?? (isStarted ? widget.getActiveNetwork() : widget.getNetworks()[0]!)
  return { network, networks: widget.getNetworks(), switchNetwork: widget.switchNetwork }
}

const noCoreStore = { getState: () => undefined, subscribe: () => () => {} }

/**
 * The connected account's native balance on the active network, from the core's mirrored store (the one home of chain
 * data: the worker reads it, the page mirrors it). Undefined until read, or without a core.
 */
export function useBalance(): { value: bigint; symbol: string; decimals: number } | undefined {
  const widget = useWidget()
  const address = useWidgetState((s) => s.address)
  const activeCaipNetworkId = useWidgetState((s) => s.activeCaipNetworkId)
  // An account is there only once the widget has started, and its core with it.
  const core = address ? widget.core : undefined
  const entry = useStoreSelector((core?.store ?? noCoreStore) as typeof noCoreStore, () => (address ? core?.store.getState().balances[balanceKey(activeCaipNetworkId, address)] : undefined))
  if (!entry) return undefined
  const { nativeCurrency } = widget.getActiveNetwork()
  return { value: entry.value, symbol: nativeCurrency.symbol, decimals: nativeCurrency.decimals }
}
