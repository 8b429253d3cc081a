import type { ConnectorType } from '../connectors/eip1193'

/** Connector types whose one session spans chains: ending it on one chain ends it on all. */
const sharedSessionTypes: ConnectorType[] = ['WALLET_CONNECT', 'AUTH']

/**
 * The namespaces a disconnect ends (SPEC §4): the one asked for and, when its connector is a wallet-connect or auth
 * connector, every other namespace connected through a connector of the same type.
 * @example namespacesToDisconnect('eip155', { eip155: 'walletConnect', solana: 'walletConnect' }, typeOf) // ['eip155', 'solana']
 */
export function namespacesToDisconnect(namespace: string, connectedConnectorIds: Partial<Record<string, string>>, typeOf: (connectorId: string) => ConnectorType | undefined): string[] {
  const connectorId = connectedConnectorIds[namespace]
  const type = connectorId === undefined ? undefined : typeOf(connectorId)
  if (!type || !sharedSessionTypes.includes(type)) return [namespace]
  const others = (Object.entries(connectedConnectorIds) as [string, string][]).filter(([ns, id]) => ns !== namespace && typeOf(id) === type).map(([ns]) => ns)
  return [namespace, ...others]
}
