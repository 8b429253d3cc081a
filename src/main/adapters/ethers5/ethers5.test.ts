import { describe, expect, it, vi } from 'vitest'
import { providers, utils, Wallet } from 'ethers5'
import { devAccount, useLocalEvmWidgets } from '../../../../test/support/localEvmWidgets'
import type { Core } from '../../core/createCore'
import { SDK_VERSION } from '../../widget/createWidget'
import { ethers5Adapter, getReadProvider, getSigner, getWeb3Provider } from './index'

const account = devAccount
const ether = (value: string) => utils.parseEther(value).toBigInt()

describe('tessera/ethers5: ethers 5 over a widget, against anvil', () => {
  const { setup, connected, rpcUrl } = useLocalEvmWidgets({ adapters: [ethers5Adapter()] })
  /** Straight to an anvil node, to check what landed where. */
  const node = (url: string, chainId: number) => new providers.StaticJsonRpcProvider(url, chainId)
  const balanceOn = async (rpcUrl: string, chainId: number, address: string) => (await node(rpcUrl, chainId).getBalance(address)).toBigInt()

  it('ethers5Adapter names ethers5 in the SDK version string', () => {
    const { widget } = setup()
    expect(widget.sdkVersion).toBe(`react-ethers5-${SDK_VERSION}`)
  })

  it('getSigner before a connection opens Connect and resolves with the account once the visitor connects', async () => {
    const { widget } = setup()
    const asked = getSigner(widget)
    await expect.poll(() => widget.modal.store.getState().open).toBe(true)
    expect(widget.router.store.getState().view).toBe('Connect')
    await widget.connect('dev.tessera.wallet')
    const signer = await asked
    expect(signer).toBeInstanceOf(providers.JsonRpcSigner)
    expect(await signer.getAddress()).toBe(account)
    expect(signer.provider).toBe(getWeb3Provider(widget))
  })

  it('getSigner: closing the modal rejects with the EIP-1193 code 4001', async () => {
    const { widget } = setup()
    const asked = getSigner(widget)
    await expect.poll(() => widget.modal.store.getState().open).toBe(true)
    widget.close()
    await expect(asked).rejects.toMatchObject({ code: 4001, message: 'user denied: User rejected the request.' })
  })

  it('signs a message ethers verifies, and sends ETH that lands', async () => {
    const { widget } = await connected()
    const signer = await getSigner(widget)
    const signature = await signer.signMessage('hello from tessera')
    expect(utils.verifyMessage('hello from tessera', signature)).toBe(account)

    const recipient = Wallet.createRandom().address
    const tx = await signer.sendTransaction({ to: recipient, value: utils.parseEther('1.5') })
    const receipt = await tx.wait()
    expect(receipt).toMatchObject({ status: 1, transactionHash: tx.hash, from: account, to: recipient })
    expect((await getWeb3Provider(widget).getBalance(recipient)).toBigInt()).toBe(ether('1.5'))
    expect(await balanceOn(rpcUrl(31337), 31337, recipient)).toBe(ether('1.5'))
  })

  it('reads (getBlockNumber, getBalance, call) through the read provider, and without a core via the wallet on its chain', async () => {
    const { widget } = await connected()
    const reader = getReadProvider(widget, { chainId: 31337 })
    expect(getReadProvider(widget, { chainId: 31337 })).toBe(reader)
    expect((await reader.getNetwork()).chainId).toBe(31337)
    expect(await reader.getBlockNumber()).toBe(await node(rpcUrl(31337), 31337).getBlockNumber())
    expect((await reader.getBalance(account)).toBigInt()).toBe(await balanceOn(rpcUrl(31337), 31337, account))
    expect(await reader.call({ to: account, data: '0x' })).toBe('0x')
  })

  it("the read provider's JSON-RPC goes to the worker core, for its chain, whatever the wallet is on", async () => {
    const { widget } = setup()
    const rpcUrls: Record<number, string> = { 31337: rpcUrl(31337), 31338: rpcUrl(31338) }
    // The core's contract: a JSON-RPC request to a chain's nodes. Here it forwards to that chain's anvil.
    const request = vi.fn(async ({ chainId, method, params }: { chainId: number; method: string; params?: readonly unknown[] }) => {
      const response = await fetch(rpcUrls[chainId]!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: params ?? [] }) })
      return ((await response.json()) as { result: unknown }).result
    })
    vi.spyOn(widget, 'core', 'get').mockReturnValue({ request } as unknown as Core)
    // A block on 31338 only, so the two chains' heights differ.
    await node(rpcUrl(31338), 31338).send('evm_mine', [])
    const reader = getReadProvider(widget, { chainId: 31338 })
    expect(await reader.getBlockNumber()).toBe(await node(rpcUrl(31338), 31338).getBlockNumber())
    expect((await reader.getBalance(account)).toBigInt()).toBe(await balanceOn(rpcUrl(31338), 31338, account))
    expect(await reader.call({ to: account, data: '0x' })).toBe('0x')
    const calls = request.mock.calls.map(([call]) => [call.chainId, call.method])
    expect(new Set(calls.map(([chainId]) => chainId))).toEqual(new Set([31338]))
    expect(calls.map(([, method]) => method)).toEqual(expect.arrayContaining(['eth_blockNumber', 'eth_getBalance', 'eth_call']))
  })

  it('getReadProvider refuses a chain the widget does not have', () => {
    const { widget } = setup()
    expect(() => getReadProvider(widget, { chainId: 1 })).toThrow(expect.objectContaining({ code: 'NETWORK_NOT_FOUND', details: "eip155:1 is not one of the widget's networks." }))
  })

  it("after a switch in Tessera the same provider and signer work on the new chain (network 'any')", async () => {
    const { widget } = await connected()
    const provider = getWeb3Provider(widget)
    const signer = await getSigner(widget)
    expect((await provider.getNetwork()).chainId).toBe(31337)
    const changes: [number, number][] = []
    provider.on('network', (next: providers.Network, previous?: providers.Network) => previous && changes.push([previous.chainId, next.chainId]))

    try {
      await widget.switchNetwork('eip155:31338')
      expect(getWeb3Provider(widget)).toBe(provider)
      expect((await provider.getNetwork()).chainId).toBe(31338)
      expect(changes).toEqual([[31337, 31338]])
      const recipient = Wallet.createRandom().address
      const receipt = await (await signer.sendTransaction({ to: recipient, value: utils.parseEther('2') })).wait()
      expect(receipt.status).toBe(1)
      expect((await provider.getBalance(recipient)).toBigInt()).toBe(ether('2'))
      expect(await balanceOn(rpcUrl(31338), 31338, recipient)).toBe(ether('2'))
      expect(await balanceOn(rpcUrl(31337), 31337, recipient)).toBe(0n)
    } finally {
      provider.removeAllListeners()
    }
  })

  it("a refusal in the wallet is ethers 5's ACTION_REJECTED, for signing and for sending", async () => {
    const { widget, wallet } = await connected()
    const signer = await getSigner(widget)
    wallet.rejectNext('personal_sign')
    await expect(signer.signMessage('no')).rejects.toMatchObject({ code: utils.Logger.errors.ACTION_REJECTED, action: 'signMessage' })
    wallet.rejectNext('eth_sendTransaction')
    await expect(signer.sendTransaction({ to: account, value: 1 })).rejects.toMatchObject({ code: utils.Logger.errors.ACTION_REJECTED, action: 'sendTransaction' })
  })

  it('EIP-5792 through the Web3Provider: a wallet without it gets one transaction per call; a bad call keeps its code and sentence', async () => {
    const { widget, wallet } = await connected()
    const methods: string[] = []
    const request = wallet.provider.request
    wallet.provider.request = ((args: { method: string }) => {
      methods.push(args.method)
      return request(args as never)
    }) as typeof request
    const provider = getWeb3Provider(widget)
    const recipient = Wallet.createRandom().address
    const calls = [{ to: recipient, value: utils.hexValue(utils.parseEther('1')) }, { to: recipient, value: utils.hexValue(utils.parseEther('2')) }]
    const { id } = (await provider.send('wallet_sendCalls', [{ version: '2.0.0', chainId: '0x7a69', from: account, calls }])) as { id: string }
    expect(methods.filter((m) => m === 'eth_sendTransaction')).toHaveLength(2)
    await expect.poll(async () => ((await provider.send('wallet_getCallsStatus', [id])) as { status: number }).status).toBe(200)
    expect(await provider.send('wallet_getCallsStatus', [id])).toMatchObject({ id, chainId: '0x7a69', atomic: false, receipts: [{ status: '0x1' }, { status: '0x1' }] })
    expect(await balanceOn(rpcUrl(31337), 31337, recipient)).toBe(ether('3'))

    await expect(provider.send('wallet_sendCalls', [{ chainId: '0x7a69', calls: [{ to: recipient, data: 'a9059cbb' }] }])).rejects.toMatchObject({
      code: -32602,
      message: 'wallet_sendCalls: calls[0].data must be hex bytes starting 0x.',
    })
    expect(methods.filter((m) => m === 'eth_sendTransaction')).toHaveLength(2)
  })
})
