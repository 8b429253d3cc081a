import { describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, custom, http, verifyMessage, type Address } from 'viem'
import { devAccount, useLocalEvmWidgets } from '../../../test/support/localEvmWidgets'
import { createEip1193Provider } from './createEip1193Provider'

const account: Address = devAccount

describe('the EIP-1193 provider over a widget, driven by viem against anvil', () => {
  const { setup: setupWidget, rpcUrl } = useLocalEvmWidgets()
  const setup = () => {
    const { widget, wallet } = setupWidget()
    return { widget, wallet, provider: createEip1193Provider(widget) }
  }

  it('answers the chain and no accounts before a connection; signing then is 4100', async () => {
    const { provider } = setup()
    const client = createWalletClient({ transport: custom(provider) })
    expect(await client.getChainId()).toBe(31337)
    expect(await client.getAddresses()).toEqual([])
    await expect(provider.request({ method: 'personal_sign', params: ['0x68656c6c6f', account] })).rejects.toMatchObject({ code: 4100, message: 'The requested method and/or account has not been authorized by the user.' })
    await expect(provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: 'mainnet' }] })).rejects.toMatchObject({ code: -32602, message: 'wallet_switchEthereumChain takes [{ chainId }] with a hex chain id.' })
  })

  it('eth_requestAccounts opens Connect and answers once the visitor connects; closing the modal is 4001', async () => {
    const { widget, provider } = setup()
    const asked = provider.request({ method: 'eth_requestAccounts' })
    await expect.poll(() => widget.modal.store.getState().open).toBe(true)
    expect(widget.router.store.getState().view).toBe('Connect')
    await widget.connect('dev.tessera.wallet')
    expect(await asked).toEqual([account])

    await widget.disconnect()
    const declined = provider.request({ method: 'eth_requestAccounts' })
    await expect.poll(() => widget.modal.store.getState().open).toBe(true)
    widget.close()
    await expect(declined).rejects.toMatchObject({ code: 4001, message: 'User rejected the request.' })
  })

  it('signs with the connected wallet, reads through the widget, and tells listeners about accounts, chains and disconnects', async () => {
    const { widget, provider } = setup()
    const events: unknown[] = []
    provider.on('accountsChanged', (accounts) => events.push(['accountsChanged', accounts]))
    provider.on('chainChanged', (chainId) => events.push(['chainChanged', chainId]))
    provider.on('disconnect', (error: { code: number }) => events.push(['disconnect', error.code]))
    await widget.ready()
    await widget.connect('dev.tessera.wallet')
    const wallet = createWalletClient({ account, transport: custom(provider) })
    const signature = await wallet.signMessage({ message: 'hello' })
    expect(await verifyMessage({ address: account, message: 'hello', signature })).toBe(true)
    const reader = createPublicClient({ transport: custom(provider) })
    expect(await reader.getBalance({ address: account })).toBe(10_000n * 10n ** 18n)

    await wallet.switchChain({ id: 31338 })
    expect(widget.getState().activeCaipNetworkId).toBe('eip155:31338')
    expect(await reader.getChainId()).toBe(31338)
    await widget.disconnect()
    expect(events).toEqual([['accountsChanged', [account]], ['chainChanged', '0x7a6a'], ['accountsChanged', []], ['disconnect', 4900]])
  })

  it('with a fixed chain id, reads that chain whatever the wallet is on (its own RPC, without a worker)', async () => {
    const { widget } = setup()
    await widget.connect('dev.tessera.wallet')
    const reader = createPublicClient({ transport: custom(createEip1193Provider(widget, { chainId: 31338 })) })
    expect(await reader.getChainId()).toBe(31338)
    const target = '0x00000000000000000000000000000000000000e1'
    const hash = await createWalletClient({ account, transport: custom(createEip1193Provider(widget)) }).sendTransaction({ to: target, value: 5n, chain: null })
    await createPublicClient({ transport: http(rpcUrl(31337)) }).waitForTransactionReceipt({ hash, pollingInterval: 50 })
    expect(await reader.getBalance({ address: target })).toBe(0n)
    expect(await createPublicClient({ transport: custom(createEip1193Provider(widget, { chainId: 31337 })) }).getBalance({ address: target })).toBe(5n)
  })
})
