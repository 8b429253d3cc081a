import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recoverMessageAddress, verifyTypedData, type Address } from 'viem'
import { startAnvil, type Anvil } from '../../services/chain/anvil'
import { freePorts } from '../../services/stack/ports'
import { announceProvider, createDevWallet, ProviderRpcError } from './createDevWallet'

describe('dev wallet', () => {
  let anvilA: Anvil
  let anvilB: Anvil
  const accounts: Address[] = ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8']
  beforeAll(async () => {
    const ports = await freePorts()
    ;[anvilA, anvilB] = await Promise.all([startAnvil({ port: ports.anvil, chainId: 31337 }), startAnvil({ port: ports.anvil2, chainId: 31338 })])
  })
  afterAll(() => Promise.all([anvilA.stop(), anvilB.stop()]))

  const wallet = () =>
    createDevWallet({
      chains: [
        { chainId: 31337, name: 'A', rpcUrl: anvilA.rpcUrl },
        { chainId: 31338, name: 'B', rpcUrl: anvilB.rpcUrl },
      ],
      accounts,
    })

  it('connects, then signs with anvil’s unlocked account', async () => {
    const { provider } = wallet()
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([])
    const events: unknown[] = []
    provider.on('accountsChanged', (a) => events.push(a))
    expect(await provider.request({ method: 'eth_requestAccounts' })).toEqual(accounts)
    expect(events).toEqual([accounts])
    const signature = await provider.request({ method: 'personal_sign', params: ['0x68656c6c6f', accounts[0]!] })
    expect(await recoverMessageAddress({ message: 'hello', signature })).toBe(accounts[0])
  })

  it('signs EIP-712 typed data sent as eth_signTypedData as v4, and says it has no legacy typed data and grants no ERC-7715 permissions (4200)', async () => {
    const { provider } = wallet()
    await provider.request({ method: 'eth_requestAccounts' })
    const typedData = {
      types: { EIP712Domain: [{ name: 'name', type: 'string' }], Mail: [{ name: 'contents', type: 'string' }] },
      primaryType: 'Mail',
      domain: { name: 'Mail' },
      message: { contents: 'hello' },
    } as const
    const signature = (await provider.request({ method: 'eth_signTypedData', params: [accounts[0]!, JSON.stringify(typedData)] } as never)) as `0x${string}`
    expect(await verifyTypedData({ address: accounts[0]!, ...typedData, signature })).toBe(true)
    const legacy = [[{ type: 'string', name: 'Message', value: 'hello' }], accounts[0]!]
    for (const method of ['eth_signTypedData', 'eth_signTypedData_v1']) {
      await expect(provider.request({ method, params: legacy } as never)).rejects.toMatchObject({ code: 4200, message: 'Tessera Dev Wallet does not sign legacy typed data (eth_signTypedData_v1).' })
    }
    for (const method of ['wallet_grantPermissions', 'wallet_requestExecutionPermissions']) {
      await expect(provider.request({ method, params: [{ chainId: '0x7a69' }] } as never)).rejects.toMatchObject({ code: 4200, message: 'Tessera Dev Wallet does not grant ERC-7715 permissions: it has no smart account to enforce them.' })
    }
  })

  it('refuses to sign before connecting', async () => {
    const { provider } = wallet()
    await expect(provider.request({ method: 'personal_sign', params: ['0x00', accounts[0]!] })).rejects.toMatchObject({ code: 4100 })
  })

  it('switches chains, emits chainChanged, and answers 4902 for an unknown chain until it is added', async () => {
    const { provider } = wallet()
    const changes: unknown[] = []
    provider.on('chainChanged', (id) => changes.push(id))
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a6a' }] })
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x7a6a')
    expect(await provider.request({ method: 'eth_blockNumber' })).toMatch(/^0x/)
    expect(changes).toEqual(['0x7a6a'])
    const unknown = provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] })
    await expect(unknown).rejects.toBeInstanceOf(ProviderRpcError)
    await expect(unknown).rejects.toMatchObject({ code: 4902 })
    await provider.request({ method: 'wallet_addEthereumChain', params: [{ chainId: '0x1', chainName: 'One', rpcUrls: [anvilA.rpcUrl] }] } as never)
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] })
    expect(changes).toEqual(['0x7a6a', '0x1'])
  })

  it('rejects the next approval with 4001 when told to', async () => {
    const dev = wallet()
    dev.rejectNext('eth_requestAccounts')
    await expect(dev.provider.request({ method: 'eth_requestAccounts' })).rejects.toMatchObject({ code: 4001, message: 'User rejected the request.' })
    expect(await dev.provider.request({ method: 'eth_requestAccounts' })).toEqual(accounts)
  })

  it('announces itself by EIP-6963, again on every request', () => {
    const target = new EventTarget() as Window
    const dev = wallet()
    const seen: string[] = []
    target.addEventListener('eip6963:announceProvider', (e) => seen.push((e as CustomEvent).detail.info.rdns))
    const stop = announceProvider(target, dev)
    target.dispatchEvent(new Event('eip6963:requestProvider'))
    stop()
    target.dispatchEvent(new Event('eip6963:requestProvider'))
    expect(seen).toEqual(['dev.tessera.wallet', 'dev.tessera.wallet'])
  })
})
