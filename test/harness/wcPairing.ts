import { toHex } from 'viem'
import { createWalletConnectConnector } from '../../src/main/connectors/createWalletConnectConnector'
import { createWalletConnectSession } from '../../src/worker/walletConnect/createWalletConnectSession'

/**
 * One WalletConnect connection as the widget makes it (load the client, show a URI, wait for the wallet, sign once),
 * with the sign client on this thread ('main') or in the connector's worker ('worker').
 */
export async function pairAndSign(mode: 'main' | 'worker', relayUrl: string, onUri: (uri: string) => void) {
  const parameters = { projectId: 'bench', relayUrl, storagePrefix: `bench-${Math.random()}`, metadata: { name: 'bench', description: 'bench', url: 'http://127.0.0.1', icons: [] }, networks: { eip155: ['eip155:31337'] } }
  const sign = (accounts: readonly string[]) => ({ method: 'personal_sign', params: [toHex('hello'), accounts[0]] })
  if (mode === 'main') {
    const session = createWalletConnectSession(parameters)
    const pairing = await session.pair()
    onUri(pairing.uri)
    const signature = await session.eip155.request<string>(sign((await pairing.approval).eip155!.accounts))
    await session.disconnect()
    return { signature }
  }
  const connector = createWalletConnectConnector(parameters)
  const pairing = await connector.pair()
  onUri(pairing.uri)
  const signature = await connector.request<string>(sign((await pairing.approval).eip155!.accounts))
  await connector.disconnect()
  return { signature }
}
