import { toHex } from 'viem'
import { createWalletConnectConnector } from '../../src/main/connectors/createWalletConnectConnector'
import { createWalletConnectSession } from '../../src/worker/walletConnect/createWalletConnectSession'

/**
 * One WalletConnect connection as the widget makes it (load the client, show a URI, wait for the wallet, sign once),
 * with the sign client on this thread ('main') or in the connector's worker ('worker').
 */
export async function pairAndSign(mode: 'main' | 'worker', relayUrl: string, onUri: (uri: string) => void) {
  const parameters = { projectId: 'bench', relayUrl, storagePrefix: `bench-${Math.random()}`, metadata: { name: 'bench', description: 'bench', url: 'http://127.0.0.1', icons: [] }, chainIds: [31337] }
  const connector = mode === 'main' ? createWalletConnectSession(parameters) : createWalletConnectConnector(parameters)
  const pairing = await connector.pair()
  onUri(pairing.uri)
  const { accounts } = await pairing.approval
  const signature = await connector.request<string>({ method: 'personal_sign', params: [toHex('hello'), accounts[0]] })
  await connector.disconnect()
  return { signature }
}
