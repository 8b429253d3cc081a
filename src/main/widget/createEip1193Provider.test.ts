import { describe, expect, it, vi } from 'vitest'
import { createPublicClient, createWalletClient, custom, defineChain, http, verifyMessage, type Address } from 'viem'
import type { DevWallet } from '../../../demo/devWallet/createDevWallet'
import { devAccount, useLocalEvmWidgets } from '../../../test/support/localEvmWidgets'
import { AUTH_CONNECTOR_ID } from '../connectors/auth/authConnectorId'
import type { Core } from '../core/createCore'
import { createEip1193Provider, ProviderRpcError } from './createEip1193Provider'

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

  describe('EIP-5792', () => {
    /** The methods the wallet is asked, in order. */
    const watchWallet = (wallet: DevWallet) => {
      const methods: string[] = []
      const request = wallet.provider.request
      wallet.provider.request = ((args: { method: string }) => {
        methods.push(args.method)
        return request(args as never)
      }) as typeof request
      return methods
    }
    const connectedSetup = async () => {
      const { widget, wallet, provider } = setup()
      await widget.connect('dev.tessera.wallet')
      const chain = defineChain({ id: 31337, name: 'Local 31337', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl(31337)] } } })
      return { widget, wallet, provider, methods: watchWallet(wallet), client: createWalletClient({ account, chain, transport: custom(provider) }) }
    }

    it('a wallet without it (the dev wallet) gets one eth_sendTransaction per call; the status comes from the chain', async () => {
      const { client, methods } = await connectedSetup()
      expect(await client.getCapabilities()).toEqual({ 31337: { atomic: { status: 'unsupported' } }, 31338: { atomic: { status: 'unsupported' } } })
      const target = '0x00000000000000000000000000000000000000e2'
      const { id } = await client.sendCalls({ calls: [{ to: target, value: 1n }, { to: target, value: 2n }] })
      expect(methods.filter((m) => m === 'eth_sendTransaction')).toHaveLength(2)
      const status = await client.waitForCallsStatus({ id, pollingInterval: 50 })
      expect(status).toMatchObject({ id, atomic: false, chainId: 31337, status: 'success', statusCode: 200, version: '2.0.0' })
      expect(status.receipts?.map((r) => r.status)).toEqual(['success', 'success'])
      expect(await createPublicClient({ transport: http(rpcUrl(31337)) }).getBalance({ address: target })).toBe(3n)
      expect(methods).not.toContain('eth_getTransactionReceipt')
    })

    it("reads the bundle's receipts through the worker core when the widget has one", async () => {
      const { widget, provider, methods } = await connectedSetup()
      const request = vi.fn(async ({ method, params }: { chainId: number; method: string; params?: readonly unknown[] }) => createPublicClient({ transport: http(rpcUrl(31337)) }).request({ method, params } as never))
      vi.spyOn(widget, 'core', 'get').mockReturnValue({ request } as unknown as Core)
      const calls = [{ to: '0x00000000000000000000000000000000000000e3', value: '0x1' }, { to: '0x00000000000000000000000000000000000000e3', data: '0x' }]
      const { id } = (await provider.request({ method: 'wallet_sendCalls', params: [{ version: '2.0.0', chainId: '0x7a69', from: account, calls }] })) as { id: string }
      // The last call may still be on its way into a block: pending (100) until it is.
      let status: { status: number; receipts: { transactionHash: string }[] }
      do status = (await provider.request({ method: 'wallet_getCallsStatus', params: [id] })) as typeof status
      while (status.status === 100 && (await new Promise((resolve) => setTimeout(resolve, 50, true))))
      expect(status).toMatchObject({ id, chainId: '0x7a69', atomic: false, status: 200 })
      const receiptReads = request.mock.calls.filter(([call]) => call.method === 'eth_getTransactionReceipt').map(([call]) => [call.chainId, call.params])
      expect(receiptReads).toEqual(expect.arrayContaining(status.receipts.map((r) => [31337, [r.transactionHash]])))
      expect(methods).not.toContain('eth_getTransactionReceipt')
    })

    it('a wallet with it gets wallet_sendCalls and wallet_getCallsStatus as they are', async () => {
      const { wallet, provider, methods } = await connectedSetup()
      const received: { method: string; params?: unknown }[] = []
      const request = wallet.provider.request
      wallet.provider.request = (async (args: { method: string; params?: unknown }) => {
        if (!args.method.startsWith('wallet_')) return request(args as never)
        received.push(args)
        return args.method === 'wallet_sendCalls' ? { id: '0x5792' } : { version: '2.0.0', id: '0x5792', chainId: '0x7a69', atomic: true, status: 100, receipts: [] }
      }) as typeof request
      const params = [{ version: '2.0.0', chainId: '0x7a69', from: account, atomicRequired: true, calls: [{ to: account, value: '0x1' }], capabilities: { paymasterService: { url: 'https://pm.example' } } }]
      expect(await provider.request({ method: 'wallet_sendCalls', params })).toEqual({ id: '0x5792' })
      expect(await provider.request({ method: 'wallet_getCallsStatus', params: ['0x5792'] })).toMatchObject({ atomic: true, status: 100 })
      expect(received).toEqual([{ method: 'wallet_sendCalls', params }, { method: 'wallet_getCallsStatus', params: ['0x5792'] }])
      // Nothing else reached the wallet: no transaction of ours.
      expect(methods).toEqual([])
    })

    it('a bad call is refused with -32602 and its sentence before the wallet sees anything; an unknown id is 5730', async () => {
      const { provider, methods } = await connectedSetup()
      const refusal = provider.request({ method: 'wallet_sendCalls', params: [{ chainId: '0x7a69', calls: [{ to: account }, { to: 'bob' }] }] })
      await expect(refusal).rejects.toBeInstanceOf(ProviderRpcError)
      await expect(refusal).rejects.toMatchObject({ code: -32602, message: 'wallet_sendCalls: calls[1].to must be an address starting 0x (40 hex digits).' })
      await expect(provider.request({ method: 'wallet_sendCalls', params: [{ chainId: '0x7a6a', calls: [{ to: account }] }] })).rejects.toMatchObject({
        code: -32602,
        message: 'wallet_sendCalls: chainId 0x7a6a is not the chain the wallet is on (0x7a69); switch to it first.',
      })
      expect(methods).toEqual([])
      await expect(provider.request({ method: 'wallet_getCallsStatus', params: ['0x1234'] })).rejects.toMatchObject({ code: 5730 })
    })

    it('with the embedded wallet connected the requests go to it as they are, whatever it answers', async () => {
      const { widget, provider, methods } = await connectedSetup()
      // The connected account, as the embedded wallet's is known to the provider: by the auth connector's id.
      const getState = widget.getState
      vi.spyOn(widget, 'getState').mockImplementation(() => {
        const state = getState()
        return { ...state, namespaces: { ...state.namespaces, eip155: { ...state.namespaces.eip155!, connectorId: AUTH_CONNECTOR_ID } } }
      })
      await expect(provider.request({ method: 'wallet_sendCalls', params: [{ chainId: '0x7a69', calls: [{ to: account }] }] })).rejects.toMatchObject({ code: -32601 })
      await expect(provider.request({ method: 'wallet_getCapabilities', params: [account] })).rejects.toMatchObject({ code: -32601 })
      expect(methods).toEqual(['wallet_sendCalls', 'wallet_getCapabilities'])
    })
  })
})
