import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Address } from 'viem'
import { createDevWallet, devWalletInfo } from '../../../demo/devWallet/createDevWallet'
import { startAnvil, type Anvil } from '../../../services/chain/anvil'
import { freePorts } from '../../../services/stack/ports'
import { ProviderRpcError } from '../../shared/protocol/errors'
import { createInjectedConnector } from './createInjectedConnector'

const accounts: Address[] = ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266']

describe('injected connector over a real EIP-1193 wallet', () => {
  let anvil: Anvil
  let anvil2: Anvil
  beforeAll(async () => {
    const ports = await freePorts()
    ;[anvil, anvil2] = await Promise.all([startAnvil({ port: ports.anvil, chainId: 31337 }), startAnvil({ port: ports.anvil2, chainId: 31338 })])
  })
  afterAll(() => Promise.all([anvil.stop(), anvil2.stop()]))

  const setup = () => {
    const wallet = createDevWallet({ chains: [{ chainId: 31337, name: 'Local', rpcUrl: anvil.rpcUrl }], accounts })
    return { wallet, connector: createInjectedConnector({ info: devWalletInfo, provider: wallet.provider, isAnnounced: true }) }
  }
  const second = () => ({ id: 31338, name: 'Tessera Local 2', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: [anvil2.rpcUrl] })

  it('describes itself from the EIP-6963 info', () => {
    const { connector } = setup()
    expect(connector).toMatchObject({ id: 'dev.tessera.wallet', name: 'Tessera Dev Wallet', type: 'ANNOUNCED', chain: 'eip155', info: { rdns: 'dev.tessera.wallet' } })
  })

  it('connects and reports accounts and chain; is authorized afterwards', async () => {
    const { connector } = setup()
    expect(await connector.isAuthorized()).toBe(false)
    expect(await connector.connect()).toEqual({ accounts, chainId: 31337 })
    expect(await connector.isAuthorized()).toBe(true)
  })

  it('keeps the wallet’s code when the user rejects', async () => {
    const { wallet, connector } = setup()
    wallet.rejectNext('eth_requestAccounts')
    const error = await connector.connect().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProviderRpcError)
    expect(error).toMatchObject({ code: 'USER_REJECTED', rpcCode: 4001, shortMessage: 'User rejected the request.' })
  })

  it('adds a chain the wallet does not know (4902), then switches to it', async () => {
    const { connector } = setup()
    const changes: number[] = []
    connector.watch({ onChainChanged: (id) => changes.push(id) })
    await connector.switchChain(second())
    expect(await connector.getChainId()).toBe(31338)
    expect(changes).toEqual([31338])
  })

  it("says 'Chain is not supported' when adding fails", async () => {
    const { connector } = setup()
    const error = await connector.switchChain({ ...second(), rpcUrls: [] }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'CHAIN_NOT_SUPPORTED', shortMessage: 'Chain is not supported' })
  })

  it('passes on a rejection of the switch as USER_REJECTED', async () => {
    const { wallet, connector } = setup()
    wallet.rejectNext('wallet_switchEthereumChain')
    await expect(connector.switchChain(second())).rejects.toMatchObject({ code: 'USER_REJECTED' })
  })

  it('follows account changes and disconnects, and stops following', async () => {
    const { wallet, connector } = setup()
    await connector.connect()
    const seen: Address[][] = []
    let disconnects = 0
    const stop = connector.watch({ onAccountsChanged: (a) => seen.push(a), onDisconnect: () => disconnects++ })
    wallet.disconnect()
    stop()
    wallet.disconnect()
    expect(seen).toEqual([[]])
    expect(disconnects).toBe(1)
  })

  it('refuses malformed answers from a wallet', async () => {
    const connector = createInjectedConnector({
      info: devWalletInfo,
      isAnnounced: true,
      provider: { request: async ({ method }: { method: string }) => (method === 'eth_chainId' ? 'banana' : ['0xnot-an-address']) } as never,
    })
    await expect(connector.getChainId()).rejects.toMatchObject({ code: 'WALLET_BAD_RESPONSE', details: 'The wallet reported an invalid chain id: banana' })
    await expect(connector.connect()).rejects.toMatchObject({ code: 'WALLET_BAD_RESPONSE', details: 'The wallet reported an invalid address: 0xnot-an-address' })
  })
})
