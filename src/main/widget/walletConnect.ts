import type { StoreApi } from 'zustand/vanilla'
import { reusesPairing } from '../../shared/protocol/walletLinks'
import { createWalletConnectConnector, type WalletConnectConnectorParameters } from '../connectors/createWalletConnectConnector'
import { createWalletConnectPairing, type PairingState, type WalletConnectPairingParameters } from './createWalletConnectPairing'

/**
 * WalletConnect for one widget, loaded on first use (a WalletConnect view, or reconnecting a stored session): the
 * connector and the pairing kept live while a view shows.
 */
export function createWidgetWalletConnect({ connector: parameters, store, onApproved }: { connector: WalletConnectConnectorParameters; store: StoreApi<PairingState>; onApproved: WalletConnectPairingParameters['onApproved'] }) {
  const connector = createWalletConnectConnector(parameters)
  const pairing = createWalletConnectPairing({ pair: () => connector.pair(), store, onApproved })
  const keepsPairing = typeof navigator !== 'undefined' && reusesPairing(navigator.userAgent)
  return {
    connector,
    pairing,
    /** Closing the modal resets the pairing, except on Telegram and Safari on iOS, where it lives until it expires. */
    onClose: () => (keepsPairing ? pairing.pause() : pairing.reset()),
  }
}

export type WidgetWalletConnect = ReturnType<typeof createWidgetWalletConnect>
