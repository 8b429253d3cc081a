import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { expose } from 'comlink'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRelay, type Relay } from '../../../services/relay/createRelay'
import { createNodeWallet, memoryStorage, type NodeWallet } from '../../../services/relay/testing/createNodeWallet'
import { freePorts } from '../../../services/stack/ports'
import { createWalletConnectWorkerApi } from '../../worker/walletConnect/createWalletConnectWorkerApi'
import type { WidgetNetwork } from '../widget/config'
import { toNamespaceConnector } from '../families/eip155/toNamespaceConnector'
import { createWalletConnectConnector } from './createWalletConnectConnector'

const MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
const TESTNET = 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z'
const network = (caipNetworkId: string) => ({ caipNetworkId }) as WidgetNetwork

/** The real worker API behind a MessageChannel, as the WalletConnect worker exposes it (comlink both ways). */
function createChannelWorker(): Worker {
  const { port1, port2 } = new MessageChannel()
  expose(createWalletConnectWorkerApi({ storage: memoryStorage() as never }), port2)
  return Object.assign(port1, { terminate: () => (port1.close(), port2.close()) }) as unknown as Worker
}

/** One legacy wire transaction by hand: one slot, fee payer `payer`, and a message the wallet only signs. */
const wireTransaction = (payer: string) => new Uint8Array([1, ...new Uint8Array(64), 1, 0, 1, 2, ...base58.decode(payer), ...new Uint8Array(32).fill(4), ...new Uint8Array(32).fill(9), 0])

describe('the WalletConnect connector’s solana member, through comlink and our relay, with a real wallet client', () => {
  let relay: Relay
  let wallet: NodeWallet
  beforeAll(async () => {
    const ports = await freePorts()
    relay = createRelay({ port: ports.relay })
    await relay.ready
    wallet = await createNodeWallet({ relayUrl: relay.url, chains: [{ chainId: 31337, rpcUrl: 'http://127.0.0.1:1' }], addressIndex: 6, name: 'Connector Wallet', solanaCaipNetworkIds: [MAINNET, DEVNET] })
  })
  afterAll(async () => {
    await wallet.close()
    relay.close()
  })

  const connect = async (preferredSolana?: string) => {
    const connector = createWalletConnectConnector({
      projectId: 'test',
      relayUrl: relay.url,
      storagePrefix: `dapp-${Math.random()}`,
      metadata: { name: 'dApp', description: 'dApp', url: 'http://127.0.0.1', icons: [] },
      networks: { eip155: ['eip155:31337'], solana: [MAINNET, DEVNET, TESTNET] },
      getPreferredCaipNetworkId: (namespace) => (namespace === 'solana' ? preferredSolana : undefined),
      createWorker: createChannelWorker,
    })
    const pairing = await connector.pair()
    await wallet.pair(pairing.uri)
    return { connector, approval: await pairing.approval }
  }

  it('is a Solana connector on the same session: accounts, cluster, switching, signing', async () => {
    const { connector, approval } = await connect(DEVNET)
    const { solana } = connector
    expect(approval.solana).toEqual({ accounts: [wallet.solanaAddress], caipNetworkId: DEVNET })
    expect({ id: solana.id, type: solana.type, namespace: solana.namespace, name: solana.name }).toEqual({ id: 'walletConnect', type: 'WALLET_CONNECT', namespace: 'solana', name: 'WalletConnect' })
    await expect(solana.connect(network(DEVNET))).rejects.toMatchObject({ code: 'UNSUPPORTED_METHOD' })
    expect(await solana.isAuthorized()).toBe(true)
    expect(await solana.getAccounts()).toEqual([wallet.solanaAddress])
    expect(await solana.getCaipNetworkId(MAINNET)).toBe(MAINNET)
    expect(await solana.getCaipNetworkId(TESTNET)).toBe(DEVNET)
    await solana.switchNetwork(network(MAINNET))
    await expect(solana.switchNetwork(network(TESTNET))).rejects.toMatchObject({ code: 'CHAIN_NOT_SUPPORTED' })

    const signature = await solana.signMessage('hello Tessera', wallet.solanaAddress)
    expect(ed25519.verify(base58.decode(signature), new TextEncoder().encode('hello Tessera'), base58.decode(wallet.solanaAddress))).toBe(true)
    const unsigned = wireTransaction(wallet.solanaAddress)
    const signed = await solana.signTransaction(unsigned, wallet.solanaAddress, MAINNET)
    expect(ed25519.verify(signed.subarray(1, 65), signed.subarray(65), base58.decode(wallet.solanaAddress))).toBe(true)
    expect(signed.subarray(65)).toEqual(unsigned.subarray(65))

    wallet.declineNextRequest()
    await expect(solana.signMessage('no', wallet.solanaAddress)).rejects.toMatchObject({ code: 'USER_REJECTED', shortMessage: 'User rejected the request.' })
    await solana.disconnect()
    await expect(connector.getAccounts()).rejects.toMatchObject({ code: 'DISCONNECTED' })
    connector.destroy()
  }, 30_000)

  it('says which EVM methods the session refuses (those the wallet did not approve), as the EVM connector the widget drives', async () => {
    const { connector } = await connect()
    const evm = toNamespaceConnector(connector)
    expect(await evm.refusesMethod!('personal_sign')).toBe(false)
    expect(await evm.refusesMethod!('eth_signTypedData_v4')).toBe(false)
    expect(await evm.refusesMethod!('eth_sign')).toBe(true)
    expect(await evm.refusesMethod!('eth_signTransaction')).toBe(true)
    await connector.disconnect()
    expect(await evm.refusesMethod!('personal_sign')).toBe(true)
    connector.destroy()
  })

  it('tells its watchers when Solana leaves the session (eip155 goes on) and when the wallet ends it', async () => {
    const { connector } = await connect()
    const solanaEvents: string[] = []
    const eip155Events: string[] = []
    connector.solana.watch({ onAccountsChanged: (accounts) => solanaEvents.push(`accounts ${accounts.join()}`), onDisconnect: () => solanaEvents.push('disconnect') })
    connector.watch({ onAccountsChanged: (accounts) => eip155Events.push(`accounts ${accounts.join()}`), onDisconnect: () => eip155Events.push('disconnect') })
    const { topic, namespaces } = wallet.sessions().at(-1)!
    const update = await wallet.client.update({ topic, namespaces: { eip155: namespaces.eip155! } })
    await update.acknowledged()
    await expect.poll(() => solanaEvents).toEqual(['disconnect'])
    expect(eip155Events).toEqual([`accounts ${wallet.address}`])
    expect(await connector.getAccounts()).toEqual([wallet.address])

    await wallet.disconnectAll()
    await expect.poll(() => eip155Events).toEqual([`accounts ${wallet.address}`, 'disconnect'])
    expect(solanaEvents).toEqual(['disconnect', 'disconnect'])
    connector.destroy()
  }, 30_000)
})
