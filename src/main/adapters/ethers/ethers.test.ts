import { afterEach, describe, expect, it, vi } from 'vitest'
import { isError, JsonRpcProvider, JsonRpcSigner, parseEther, toQuantity, verifyMessage, Wallet } from 'ethers'
import { devAccount, useLocalEvmWidgets } from '../../../../test/support/localEvmWidgets'
import type { Core } from '../../core/createCore'
import { SDK_VERSION } from '../../widget/createWidget'
import { ethersAdapter, getBrowserProvider, getReadProvider, getSigner } from './index'

const account = devAccount

describe('tessera/ethers: ethers 6 over a widget, against anvil', () => {
  const { setup, connected, rpcUrl } = useLocalEvmWidgets({ adapters: [ethersAdapter()] })
  const nodes: JsonRpcProvider[] = []
  afterEach(() => void nodes.splice(0).forEach((n) => n.destroy()))
  /** Straight to an anvil node, to check what landed where. */
  const node = (url: string, chainId: number) => {
    const provider = new JsonRpcProvider(url, chainId, { staticNetwork: true })
    nodes.push(provider)
    return provider
  }

  it('ethersAdapter names ethers in the SDK version string', () => {
    const { widget } = setup()
    expect(widget.sdkVersion).toBe(`react-ethers-${SDK_VERSION}`)
  })

  it('getSigner before a connection opens Connect and resolves with the account once the visitor connects', async () => {
    const { widget } = setup()
    const asked = getSigner(widget)
    await expect.poll(() => widget.modal.store.getState().open).toBe(true)
    expect(widget.router.store.getState().view).toBe('Connect')
    await widget.connect('dev.tessera.wallet')
    const signer = await asked
    expect(signer).toBeInstanceOf(JsonRpcSigner)
    expect(await signer.getAddress()).toBe(account)
    expect((await signer.provider.getNetwork()).chainId).toBe(31337n)
  })

  it('getSigner: closing the modal is ethers ACTION_REJECTED (requestAccess)', async () => {
    const { widget } = setup()
    const asked = getSigner(widget)
    await expect.poll(() => widget.modal.store.getState().open).toBe(true)
    widget.close()
    const error = await asked.catch((e: unknown) => e)
    expect(isError(error, 'ACTION_REJECTED')).toBe(true)
    expect(error).toMatchObject({ action: 'requestAccess', reason: 'rejected' })
  })

  it("getSigner: the widget follows a wallet connecting on another chain, and the signer is on that chain", async () => {
    const { widget } = setup({ walletChainIds: [31338, 31337] })
    const asked = getSigner(widget)
    await expect.poll(() => widget.modal.store.getState().open).toBe(true)
    await widget.connect('dev.tessera.wallet')
    const signer = await asked
    expect(widget.getState().activeCaipNetworkId).toBe('eip155:31338')
    expect((await signer.provider.getNetwork()).chainId).toBe(31338n)
    expect(await signer.provider.getBalance(account)).toBe(await node(rpcUrl(31338), 31338).getBalance(account))
  })

  it('signs a message ethers verifies, and sends ETH that lands', async () => {
    const { widget } = await connected()
    const signer = await getSigner(widget)
    const signature = await signer.signMessage('hello from tessera')
    expect(verifyMessage('hello from tessera', signature)).toBe(account)

    const recipient = Wallet.createRandom().address
    const tx = await signer.sendTransaction({ to: recipient, value: parseEther('1.5') })
    const receipt = await tx.wait()
    expect(receipt).toMatchObject({ status: 1, hash: tx.hash, from: account, to: recipient })
    expect(await getBrowserProvider(widget).getBalance(recipient)).toBe(parseEther('1.5'))
    expect(await node(rpcUrl(31337), 31337).getBalance(recipient)).toBe(parseEther('1.5'))
  })

  it('reads (getBlockNumber, getBalance, call) through the read provider, and without a core via the wallet on its chain', async () => {
    const { widget } = await connected()
    const reader = getReadProvider(widget, { chainId: 31337 })
    expect(getReadProvider(widget, { chainId: 31337 })).toBe(reader)
    expect((await reader.getNetwork()).chainId).toBe(31337n)
    expect(await reader.getBlockNumber()).toBe(await node(rpcUrl(31337), 31337).getBlockNumber())
    expect(await reader.getBalance(account)).toBe(await node(rpcUrl(31337), 31337).getBalance(account))
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
    expect(await reader.getBalance(account)).toBe(await node(rpcUrl(31338), 31338).getBalance(account))
    expect(await reader.call({ to: account, data: '0x' })).toBe('0x')
    expect(request.mock.calls.map(([call]) => [call.chainId, call.method])).toEqual([
      [31338, 'eth_blockNumber'],
      [31338, 'eth_getBalance'],
      [31338, 'eth_call'],
    ])
  })

  it('getReadProvider refuses a chain the widget does not have', () => {
    const { widget } = setup()
    expect(() => getReadProvider(widget, { chainId: 1 })).toThrow(expect.objectContaining({ code: 'NETWORK_NOT_FOUND', details: "eip155:1 is not one of the widget's networks." }))
  })

  it('after a switch in Tessera the provider and signer are on the new chain; the old provider fails with NETWORK_ERROR', async () => {
    const { widget } = await connected()
    const before = getBrowserProvider(widget)
    expect(getBrowserProvider(widget)).toBe(before)
    expect((await before.getNetwork()).chainId).toBe(31337n)

    await widget.switchNetwork('eip155:31338')
    const after = getBrowserProvider(widget)
    expect(after).not.toBe(before)
    expect((await after.getNetwork()).chainId).toBe(31338n)
    const signer = await getSigner(widget)
    const recipient = Wallet.createRandom().address
    const receipt = await (await signer.sendTransaction({ to: recipient, value: parseEther('2') })).wait()
    expect(receipt?.status).toBe(1)
    expect(await after.getBalance(recipient)).toBe(parseEther('2'))
    expect(await node(rpcUrl(31338), 31338).getBalance(recipient)).toBe(parseEther('2'))
    expect(await node(rpcUrl(31337), 31337).getBalance(recipient)).toBe(0n)

    const stale = await before.getBalance(recipient).catch((e: unknown) => e)
    expect(isError(stale, 'NETWORK_ERROR')).toBe(true)
  })

  it("a refusal in the wallet is ethers' ACTION_REJECTED, for signing and for sending", async () => {
    const { widget, wallet } = await connected()
    const signer = await getSigner(widget)
    wallet.rejectNext('personal_sign')
    const signing = await signer.signMessage('no').catch((e: unknown) => e)
    expect(isError(signing, 'ACTION_REJECTED')).toBe(true)
    expect(signing).toMatchObject({ action: 'signMessage', reason: 'rejected' })

    wallet.rejectNext('eth_sendTransaction')
    const sending = await signer.sendTransaction({ to: account, value: 1n }).catch((e: unknown) => e)
    expect(isError(sending, 'ACTION_REJECTED')).toBe(true)
    expect(sending).toMatchObject({ action: 'sendTransaction', reason: 'rejected' })
  })

  it('EIP-5792 through the BrowserProvider: a wallet without it gets one transaction per call, and wallet_getCallsStatus reports them', async () => {
    const { widget, wallet } = await connected()
    const methods: string[] = []
    const request = wallet.provider.request
    wallet.provider.request = ((args: { method: string }) => {
      methods.push(args.method)
      return request(args as never)
    }) as typeof request
    const provider = getBrowserProvider(widget)
    expect(await provider.send('wallet_getCapabilities', [account, ['0x7a69']])).toEqual({ '0x7a69': { atomic: { status: 'unsupported' } } })

    const recipient = Wallet.createRandom().address
    const calls = [{ to: recipient, value: toQuantity(parseEther('1')) }, { to: recipient, value: toQuantity(parseEther('2')) }]
    const { id } = (await provider.send('wallet_sendCalls', [{ version: '2.0.0', chainId: '0x7a69', from: account, atomicRequired: false, calls }])) as { id: string }
    expect(methods.filter((m) => m === 'eth_sendTransaction')).toHaveLength(2)
    type CallsStatus = { status: number; receipts: { status: string; transactionHash: string }[] }
    await expect.poll(async () => ((await provider.send('wallet_getCallsStatus', [id])) as CallsStatus).status).toBe(200)
    const status = (await provider.send('wallet_getCallsStatus', [id])) as CallsStatus
    expect(status).toMatchObject({ version: '2.0.0', id, chainId: '0x7a69', atomic: false })
    expect(status.receipts.map((r) => r.status)).toEqual(['0x1', '0x1'])
    for (const { transactionHash } of status.receipts) expect((await provider.getTransactionReceipt(transactionHash))?.to).toBe(recipient)
    expect(await provider.getBalance(recipient)).toBe(parseEther('3'))
  })

  it('EIP-5792 through the BrowserProvider: a bad call, atomicRequired and an unknown id keep their code and sentence', async () => {
    const { widget } = await connected()
    const provider = getBrowserProvider(widget)
    const send = (method: string, params: unknown[]) => provider.send(method, params).catch((e: unknown) => e)
    expect(await send('wallet_sendCalls', [{ chainId: '0x7a69', calls: [{ to: account, value: '100' }] }])).toMatchObject({
      error: { code: -32602, message: 'wallet_sendCalls: calls[0].value must be a hex quantity starting 0x, such as 0x2386f26fc10000.' },
    })
    expect(await send('wallet_sendCalls', [{ chainId: '0x7a69', atomicRequired: true, calls: [{ to: account }] }])).toMatchObject({ error: { code: 5760 } })
    expect(await send('wallet_getCallsStatus', ['0x1234'])).toMatchObject({ error: { code: 5730 } })
  })
})
