import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, http, toHex, verifyMessage, type Hex } from 'viem'
import { startAnvil, type Anvil } from '../../../services/chain/anvil'
import { createRelay, type Relay } from '../../../services/relay/createRelay'
import { createNodeWallet, memoryStorage, type NodeWallet } from '../../../services/relay/testing/createNodeWallet'
import { freePorts } from '../../../services/stack/ports'
import { createWalletConnectSession } from './createWalletConnectSession'

describe('WalletConnect session through our relay, with a real wallet client', () => {
  let relay: Relay
  let anvil: Anvil
  let wallet: NodeWallet
  beforeAll(async () => {
    const ports = await freePorts()
    relay = createRelay({ port: ports.relay })
    anvil = await startAnvil({ port: ports.anvil, chainId: 31337 })
    await relay.ready
    wallet = await createNodeWallet({ relayUrl: relay.url, chains: [{ chainId: 31337, rpcUrl: anvil.rpcUrl }], addressIndex: 3 })
  })
  afterAll(async () => {
    await wallet.close()
    relay.close()
    await anvil.stop()
  })

  const setup = () => {
    const storage = memoryStorage()
    const storagePrefix = `dapp-${Math.random()}`
    const make = () =>
      createWalletConnectSession({ projectId: 'test', relayUrl: relay.url, storagePrefix, metadata: { name: 'dApp', description: 'dApp', url: 'http://127.0.0.1', icons: [] }, networks: { eip155: ['eip155:31337', 'eip155:1'] }, storage: storage as never })
    return { connector: make(), make }
  }
  const connect = async (connector: ReturnType<typeof setup>['connector']) => {
    const pairing = await connector.pair()
    await wallet.pair(pairing.uri)
    return pairing.approval
  }

  it('pairs, signs a message, sends a transaction that lands, and answers accounts and chain from the session', async () => {
    const { connector } = setup()
    expect(await connector.isAuthorized('eip155')).toBe(false)
    expect(await connect(connector)).toEqual({ eip155: { accounts: [wallet.address], caipNetworkId: 'eip155:31337' } })
    expect(await connector.eip155.request({ method: 'eth_accounts' })).toEqual([wallet.address])
    expect(await connector.eip155.request({ method: 'eth_chainId' })).toBe('0x7a69')

    const signature = await connector.eip155.request<Hex>({ method: 'personal_sign', params: [toHex('hello Tessera'), wallet.address] })
    expect(await verifyMessage({ address: wallet.address, message: 'hello Tessera', signature })).toBe(true)

    const hash = await connector.eip155.request<Hex>({ method: 'eth_sendTransaction', params: [{ from: wallet.address, to: '0x000000000000000000000000000000000000dEaD', value: '0x1' }] })
    const receipt = await createPublicClient({ transport: http(anvil.rpcUrl) }).waitForTransactionReceipt({ hash, pollingInterval: 50 })
    expect(receipt.status).toBe('success')
    await connector.disconnect()
  }, 30_000)

  it('lists the methods the wallet approved, and refuses any other at once (4200) without asking the wallet', async () => {
    const { connector } = setup()
    expect(connector.approvedMethods('eip155')).toEqual([])
    await connect(connector)
    expect(connector.approvedMethods('eip155')).toEqual(expect.arrayContaining(['personal_sign', 'eth_sendTransaction', 'eth_signTypedData_v4']))
    expect(connector.approvedMethods('eip155')).not.toContain('eth_sign')
    const asked = wallet.requests.length
    await expect(connector.eip155.request({ method: 'eth_sign', params: [wallet.address, `0x${'ab'.repeat(32)}`] })).rejects.toMatchObject({
      code: 'UNSUPPORTED_METHOD',
      rpcCode: 4200,
      details: 'The wallet did not approve eth_sign for this session',
    })
    expect(wallet.requests.length).toBe(asked)
    await connector.disconnect()
  }, 30_000)

  it('keeps the wallet’s refusal as USER_REJECTED, for the proposal and for a request', async () => {
    const { connector } = setup()
    wallet.declineNextProposal()
    await expect(connect(connector)).rejects.toMatchObject({ code: 'USER_REJECTED' })
    await connect(connector)
    wallet.declineNextRequest()
    await expect(connector.eip155.request({ method: 'personal_sign', params: ['0x68', wallet.address] })).rejects.toMatchObject({ code: 'USER_REJECTED', rpcCode: 4001 })
    await connector.disconnect()
  }, 30_000)

  it('finds its session again after a reload, and hears the wallet disconnect', async () => {
    const { connector, make } = setup()
    await connect(connector)
    const reloaded = make()
    expect(await reloaded.isAuthorized('eip155')).toBe(true)
    expect(await reloaded.getAccounts('eip155')).toEqual([wallet.address])
    const ended = new Promise<void>((resolve) => reloaded.watch({ onDisconnect: resolve }))
    await wallet.disconnectAll()
    await ended
    await expect(reloaded.eip155.request({ method: 'eth_accounts' })).rejects.toMatchObject({ code: 'DISCONNECTED' })
  }, 30_000)

  it('switches among the approved chains without a round trip, and asks the wallet about others', async () => {
    const { connector } = setup()
    await connect(connector)
    const changes: string[] = []
    connector.watch({ onNetworkChanged: (namespace, id) => changes.push(`${namespace} ${id}`) })
    await expect(connector.eip155.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] })).rejects.toMatchObject({ rpcCode: 4902 })
    expect(changes).toEqual([])
    const asked = wallet.requests.length
    await connector.eip155.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a69' }] })
    expect(changes).toEqual(['eip155 eip155:31337'])
    expect(wallet.requests.length).toBe(asked)
    await connector.disconnect()
  }, 30_000)

  it('names the relay it could not reach', async () => {
    const connector = createWalletConnectSession({ projectId: 'test', relayUrl: 'ws://127.0.0.1:9', relayTimeoutMs: 500, storagePrefix: 'down', metadata: { name: 'd', description: 'd', url: 'http://127.0.0.1', icons: [] }, networks: { eip155: ['eip155:31337'] }, storage: memoryStorage() as never })
    await expect(connector.pair()).rejects.toMatchObject({ code: 'WALLETCONNECT_UNAVAILABLE', shortMessage: 'Could not reach the WalletConnect relay', details: 'ws://127.0.0.1:9: no answer in 500 ms' })
  }, 30_000)
})
