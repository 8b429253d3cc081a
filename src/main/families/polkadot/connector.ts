import { GENERIC_SS58_PREFIX, getPolkadotNetwork } from '../../../shared/families/polkadot/address'
import type { PolkadotTransfer } from '../../../shared/families/polkadot/coreApi'
import type { WidgetNetwork } from '../../widget/config'
import type { NamespaceConnector } from '../types'

type Hex = `0x${string}`

/** A Polkadot extension as the connection layer drives it, with what a transfer asks of it. */
export type PolkadotNamespaceConnector = NamespaceConnector & {
  /** The transfer's signature: `signer.signPayload(payload)`, or `signRaw` of its bytes for an extension without it. */
  signTransfer: (transfer: Pick<PolkadotTransfer, 'payload' | 'raw'>) => Promise<Hex>
}

/** Whether a connected connector is a Polkadot one (it signs transfers). */
export const isPolkadotConnector = (connector: NamespaceConnector): connector is PolkadotNamespaceConnector =>
  connector.namespace === 'polkadot' && typeof (connector as Partial<PolkadotNamespaceConnector>).signTransfer === 'function'

/** The SS58 format of a network's addresses: the config's, the known network's, else the generic one (42). */
export const ss58PrefixOf = (network: Pick<WidgetNetwork, 'caipNetworkId'> & { ss58Prefix?: number }): number =>
  network.ss58Prefix ?? getPolkadotNetwork(network.caipNetworkId)?.ss58Prefix ?? GENERIC_SS58_PREFIX
