import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  call,
  connect,
  createStorage,
  disconnect,
  getAccount,
  getBalance,
  getCallsStatus,
  getCapabilities,
  readContract,
  reconnect,
  sendCalls,
  sendTransaction,
  signMessage,
  switchChain,
  waitForCallsStatus,
  waitForTransactionReceipt,
  watchAccount,
  writeContract,
  type Config,
} from '@wagmi/core'
import { createPublicClient, defineChain, erc20Abi, http, parseEther, verifyMessage, type Address, type Chain } from 'viem'
import { announceProvider, createDevWallet, type DevWallet } from '../../../../demo/devWallet/createDevWallet'
import { startAnvil, type Anvil } from '../../../../services/chain/anvil'
import { seedChain, type SeededChain } from '../../../../services/chain/seedChain'
import { freePorts } from '../../../../services/stack/ports'
import { createWidgetError } from '../../../shared/protocol/errors'
import { createMemoryStorage, createWidgetStorage } from '../../storage/createWidgetStorage'
import { createWidget, SDK_VERSION, type Widget } from '../../widget/createWidget'
import { confirmEveryReview } from '../../../../test/support/localEvmWidgets'
import { createWagmiAdapter, tesseraTransport, toWidgetNetwork } from './index'

const account: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const receiver: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/** One page of a site: its storages survive a reload, its wallet extension too. */
type Page = { widgetStorage: ReturnType<typeof createMemoryStorage>; wagmiStorage: Map<string, string>; wallet: DevWallet }

describe('the wagmi adapter, driven by @wagmi/core against anvil', () => {
  let anvil: Anvil
  let anvil2: Anvil
  let seeded: SeededChain
  let chainA: Chain
  let chainB: Chain
  const widgets: Widget[] = []
  beforeAll(async () => {
    const ports = await freePorts()
    ;[anvil, anvil2] = await Promise.all([startAnvil({ port: ports.anvil, chainId: 31337 }), startAnvil({ port: ports.anvil2, chainId: 31338 })])
    seeded = await seedChain({ rpcUrl: anvil.rpcUrl })
    const chain = (id: number, rpcUrl: string, multicall3?: Address) =>
      defineChain({ id, name: `Local ${id}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } }, ...(multicall3 ? { contracts: { multicall3: { address: multicall3 } } } : {}) })
    chainA = chain(31337, anvil.rpcUrl, seeded.multicall3)
    chainB = chain(31338, anvil2.rpcUrl)
  })
  afterAll(() => Promise.all([anvil?.stop(), anvil2?.stop()]))
  afterEach(() => widgets.splice(0).forEach((w) => w.destroy()))

  const newPage = (): Page => ({
    widgetStorage: createMemoryStorage(),
    wagmiStorage: new Map(),
    wallet: createDevWallet({
      chains: [
        { chainId: 31337, name: 'A', rpcUrl: anvil.rpcUrl },
        { chainId: 31338, name: 'B', rpcUrl: anvil2.rpcUrl },
      ],
      accounts: [account, receiver],
    }),
  })
  /** What a site does on load: the adapter, then the widget that takes it (over the page's storages and wallet). */
  const load = (page: Page = newPage()) => {
    const target = new EventTarget() as Window
    announceProvider(target, page.wallet)
    const adapter = createWagmiAdapter({
      chains: [chainA, chainB],
      pollingInterval: 50,
      storage: createStorage({ storage: { getItem: (k) => page.wagmiStorage.get(k) ?? null, setItem: (k, v) => void page.wagmiStorage.set(k, v), removeItem: (k) => void page.wagmiStorage.delete(k) } }),
    })
    const widget = createWidget({ projectId: 'test', networks: adapter.networks, adapters: [adapter], window: target, storage: createWidgetStorage({ storage: page.widgetStorage }) })
    confirmEveryReview(widget)
    widgets.push(widget)
    const config: Config = adapter.wagmiConfig
    return { page, adapter, widget, config, connector: config.connectors[0]! }
  }
  const connectInTessera = async (widget: Widget, config: Config) => {
    await widget.connect('dev.tessera.wallet')
    await expect.poll(() => getAccount(config).status).toBe('connected')
  }

  it("wagmi's connect opens Tessera's Connect view and resolves when the visitor connects there", async () => {
    const { widget, config, connector } = load()
    expect(connector).toMatchObject({ id: 'tessera', name: 'Tessera', type: 'tessera' })
    expect(widget.sdkVersion).toBe(`react-wagmi-${SDK_VERSION}`)

    const connecting = connect(config, { connector })
    await expect.poll(() => widget.modal.store.getState().open).toBe(true)
    expect(widget.router.store.getState().view).toBe('Connect')
    expect(getAccount(config).status).toBe('connecting')
    await widget.connect('dev.tessera.wallet')

    expect(await connecting).toEqual({ accounts: [account], chainId: 31337 })
    expect(getAccount(config)).toMatchObject({ status: 'connected', address: account, addresses: [account], chainId: 31337, connector: { id: 'tessera' } })
  })

  it('closing the modal rejects wagmi\'s connect as a user rejection (4001); with Tessera connected, connect answers at once', async () => {
    const { widget, config, connector } = load()
    const declined = connect(config, { connector })
    await expect.poll(() => widget.modal.store.getState().open).toBe(true)
    widget.close()
    await expect(declined).rejects.toMatchObject({ name: 'UserRejectedRequestError', code: 4001 })
    expect(getAccount(config).status).toBe('disconnected')

    await connectInTessera(widget, config)
    await disconnect(config)
    await widget.connect('dev.tessera.wallet')
    // wagmi 2.16+ and 3 may ask for accounts with their capabilities.
    expect(await connect(config, { connector, withCapabilities: true })).toEqual({ accounts: [{ address: account, capabilities: {} }], chainId: 31337 })
  })

  it('a connection made in Tessera alone shows in wagmi, and so do account and network changes made in the wallet or in Tessera', async () => {
    const { page, widget, config } = load()
    const seen: unknown[] = []
    const stop = watchAccount(config, { onChange: ({ status, address, chainId }) => seen.push([status, address, chainId]) })
    await widget.connect('dev.tessera.wallet')
    await expect.poll(() => getAccount(config)).toMatchObject({ status: 'connected', address: account, chainId: 31337 })

    page.wallet.switchAccount(receiver)
    await expect.poll(() => getAccount(config).address).toBe(receiver)
    await widget.switchNetwork('eip155:31338')
    await expect.poll(() => getAccount(config).chainId).toBe(31338)
    stop()
    expect(seen).toContainEqual(['connected', account, 31337])
    expect(seen.at(-1)).toEqual(['connected', receiver, 31338])
  })

  it('reads through the Tessera transport: without a worker core (node), from the chain\'s RPC URL', async () => {
    const { config } = load()
    const [token] = seeded.tokens
    const onNode = await createPublicClient({ transport: http(anvil.rpcUrl) }).getBalance({ address: account })
    expect(await getBalance(config, { address: account, chainId: 31337 })).toMatchObject({ value: onNode, symbol: 'ETH' })
    expect(await readContract(config, { address: token!.address, abi: erc20Abi, functionName: 'symbol', chainId: 31337 })).toBe(token!.symbol)
    expect(await getBalance(config, { address: account, chainId: 31338 })).toMatchObject({ value: parseEther('10000') })
  })

  it("reads through the widget's core when it has one (the chain's id, method and params), and keep the JSON-RPC code of its errors", async () => {
    const { widget, config } = load()
    const nodes = { 31337: createPublicClient({ transport: http(anvil.rpcUrl) }), 31338: createPublicClient({ transport: http(anvil2.rpcUrl) }) }
    const request = vi.fn(({ chainId, method, params }: { chainId: number; method: string; params?: readonly unknown[] }) => nodes[chainId as 31337].request({ method, params } as never))
    vi.spyOn(widget, 'core', 'get').mockReturnValue({ request } as unknown as NonNullable<typeof widget.core>)

    expect((await getBalance(config, { address: account, chainId: 31338 })).value).toBe(await nodes[31338].getBalance({ address: account }))
    expect(request).toHaveBeenCalledWith({ chainId: 31338, method: 'eth_getBalance', params: [account, 'latest'] })
    const [token] = seeded.tokens
    expect(await readContract(config, { address: token!.address, abi: erc20Abi, functionName: 'decimals', chainId: 31337 })).toBe(token!.decimals)
    // The core serves only the widget's networks; a transport for another chain reads from its own RPC URL.
    const other = defineChain({ ...chainB, id: 31338, rpcUrls: { default: { http: [anvil2.rpcUrl] } } })
    const outside = createPublicClient({ chain: { ...other, id: 99 } as Chain, transport: tesseraTransport(widget, { fallback: http(anvil2.rpcUrl) }) })
    request.mockClear()
    expect(await outside.getChainId()).toBe(31338)
    expect(request).not.toHaveBeenCalled()

    request.mockRejectedValueOnce(createWidgetError('USER_REJECTED'))
    await expect(getBalance(config, { address: account, chainId: 31337 })).rejects.toMatchObject({ cause: { name: 'UserRejectedRequestError', code: 4001 } })
    request.mockRejectedValueOnce(createWidgetError('EXECUTION_REVERTED', { details: 'execution reverted: no', cause: { code: 3, message: 'execution reverted: no', data: '0x' } }))
    await expect(call(config, { to: token!.address, data: '0x12345678', chainId: 31337 })).rejects.toMatchObject({ name: 'CallExecutionError', cause: { name: 'ExecutionRevertedError' } })
  })

  it('sends a transaction and writes a contract with the wallet connected in Tessera; both land on anvil', async () => {
    const { widget, config } = load()
    await connectInTessera(widget, config)
    const before = await getBalance(config, { address: receiver })
    const hash = await sendTransaction(config, { to: receiver, value: parseEther('1') })
    expect(await waitForTransactionReceipt(config, { hash, pollingInterval: 50 })).toMatchObject({ status: 'success', from: account.toLowerCase(), to: receiver.toLowerCase() })
    expect((await getBalance(config, { address: receiver })).value - before.value).toBe(parseEther('1'))

    const [token] = seeded.tokens
    const written = await writeContract(config, { address: token!.address, abi: erc20Abi, functionName: 'transfer', args: [receiver, 5n] })
    expect((await waitForTransactionReceipt(config, { hash: written, pollingInterval: 50 })).status).toBe('success')
  })

  it('sendCalls, getCallsStatus and getCapabilities work for a wallet without EIP-5792 (the dev wallet): one transaction per call', async () => {
    const { page, widget, config } = load()
    await connectInTessera(widget, config)
    const methods: string[] = []
    const request = page.wallet.provider.request
    page.wallet.provider.request = ((args: { method: string }) => {
      methods.push(args.method)
      return request(args as never)
    }) as typeof request
    expect(await getCapabilities(config)).toEqual({ 31337: { atomic: { status: 'unsupported' } }, 31338: { atomic: { status: 'unsupported' } } })
    expect(await getCapabilities(config, { chainId: 31338 })).toEqual({ atomic: { status: 'unsupported' } })

    const [token] = seeded.tokens
    const tokenBalance = () => readContract(config, { address: token!.address, abi: erc20Abi, functionName: 'balanceOf', args: [receiver], chainId: 31337 })
    const [ethBefore, tokenBefore] = [(await getBalance(config, { address: receiver })).value, await tokenBalance()]
    const { id } = await sendCalls(config, {
      calls: [
        { to: receiver, value: parseEther('1') },
        { to: token!.address, abi: erc20Abi, functionName: 'transfer', args: [receiver, 7n] },
      ],
    })
    expect(methods.filter((m) => m === 'eth_sendTransaction')).toHaveLength(2)
    const status = await waitForCallsStatus(config, { id, pollingInterval: 50 })
    expect(status).toMatchObject({ id, atomic: false, chainId: 31337, status: 'success', statusCode: 200 })
    expect(status.receipts?.map((r) => r.status)).toEqual(['success', 'success'])
    expect(await getCallsStatus(config, { id })).toEqual(status)
    expect((await getBalance(config, { address: receiver })).value - ethBefore).toBe(parseEther('1'))
    expect((await tokenBalance()) - tokenBefore).toBe(7n)

    await expect(sendCalls(config, { calls: [{ to: receiver, value: 1n }, { to: receiver, value: 2n }], forceAtomic: true })).rejects.toMatchObject({ cause: { name: 'AtomicityNotSupportedError', code: 5760 } })
    await expect(getCallsStatus(config, { id: `0x${'0'.repeat(64)}` })).rejects.toMatchObject({ name: 'UnknownBundleIdError', code: 5730 })
    expect(methods.filter((m) => m === 'eth_sendTransaction')).toHaveLength(2)
  })

  it('sendCalls and getCapabilities go as they are to a wallet with EIP-5792', async () => {
    const { page, widget, config } = load()
    await connectInTessera(widget, config)
    const received: { method: string; params?: unknown }[] = []
    const request = page.wallet.provider.request
    page.wallet.provider.request = (async (args: { method: string; params?: unknown }) => {
      if (!args.method.startsWith('wallet_') || args.method === 'wallet_switchEthereumChain') return request(args as never)
      received.push(args)
      if (args.method === 'wallet_getCapabilities') return { '0x7a69': { atomic: { status: 'supported' } } }
      if (args.method === 'wallet_sendCalls') return { id: '0x5792' }
      return { version: '2.0.0', id: '0x5792', chainId: '0x7a69', atomic: true, status: 200, receipts: [] }
    }) as typeof request
    expect(await getCapabilities(config, { chainId: 31337 })).toEqual({ atomic: { status: 'supported' } })
    expect(await sendCalls(config, { calls: [{ to: receiver, value: 1n }], forceAtomic: true })).toEqual({ id: '0x5792' })
    expect(await getCallsStatus(config, { id: '0x5792' })).toMatchObject({ atomic: true, status: 'success' })
    expect(received).toEqual([
      { method: 'wallet_getCapabilities', params: [account, ['0x7a69']] },
      { method: 'wallet_sendCalls', params: [{ atomicRequired: true, calls: [{ to: receiver, value: '0x1' }], chainId: '0x7a69', from: account, version: '2.0.0' }] },
      { method: 'wallet_getCallsStatus', params: ['0x5792'] },
    ])
  })

  it('signs a message that verifies', async () => {
    const { widget, config } = load()
    await connectInTessera(widget, config)
    const signature = await signMessage(config, { message: 'hello tessera' })
    expect(await verifyMessage({ address: account, message: 'hello tessera', signature })).toBe(true)
  })

  it("wagmi's switchChain moves Tessera and wagmi; the wallet's refusal is a user rejection", async () => {
    const { page, widget, config } = load()
    await connectInTessera(widget, config)
    expect(await switchChain(config, { chainId: 31338 })).toMatchObject({ id: 31338 })
    expect(widget.getState().namespaces.eip155?.activeCaipNetworkId).toBe('eip155:31338')
    expect(getAccount(config).chainId).toBe(31338)
    expect((await getBalance(config, { address: account })).value).toBe(parseEther('10000'))

    page.wallet.rejectNext('wallet_switchEthereumChain')
    await expect(switchChain(config, { chainId: 31337 })).rejects.toMatchObject({ name: 'UserRejectedRequestError', code: 4001 })
    expect(getAccount(config).chainId).toBe(31338)
  })

  it("wagmi's disconnect disconnects Tessera; Tessera's disconnect and the wallet's reach wagmi", async () => {
    const { page, widget, config } = load()
    await connectInTessera(widget, config)
    await disconnect(config)
    expect(widget.getState().namespaces.eip155?.status).toBe('disconnected')
    expect(getAccount(config).status).toBe('disconnected')

    await connectInTessera(widget, config)
    await widget.disconnect('eip155')
    expect(getAccount(config)).toMatchObject({ status: 'disconnected', address: undefined })

    await connectInTessera(widget, config)
    page.wallet.disconnect()
    await expect.poll(() => getAccount(config).status).toBe('disconnected')
  })

  it('after a reload (a new widget and config over the same storages) both reconnect, as WagmiProvider does on mount', async () => {
    const first = load()
    await connectInTessera(first.widget, first.config)
    await switchChain(first.config, { chainId: 31338 })
    first.widget.destroy()

    const { widget, config } = load(first.page)
    expect(await reconnect(config)).toMatchObject([{ accounts: [account], chainId: 31338 }])
    expect(getAccount(config)).toMatchObject({ status: 'connected', address: account, chainId: 31338 })
    expect(widget.getState().namespaces.eip155).toMatchObject({ status: 'connected', address: account, activeCaipNetworkId: 'eip155:31338' })

    // After a disconnect, the next load reconnects neither.
    await disconnect(config)
    widget.destroy()
    const next = load(first.page)
    expect(await reconnect(next.config)).toEqual([])
    expect(getAccount(next.config).status).toBe('disconnected')
  })

  it('an adapter attached to a new widget (a remount) follows its connection', async () => {
    const first = load()
    await connectInTessera(first.widget, first.config)
    const remount = (widgetStorage: ReturnType<typeof createMemoryStorage>) => {
      const target = new EventTarget() as Window
      announceProvider(target, first.page.wallet)
      const widget = createWidget({ projectId: 'test', networks: first.adapter.networks, adapters: [first.adapter], window: target, storage: createWidgetStorage({ storage: widgetStorage }) })
      confirmEveryReview(widget)
      widgets.push(widget)
      return widget
    }
    // Over the same storage the new widget reconnects, with the account the wallet is on now.
    first.widget.destroy()
    first.page.wallet.switchAccount(receiver)
    const second = remount(first.page.widgetStorage)
    await expect.poll(() => getAccount(first.config)).toMatchObject({ status: 'connected', address: receiver })
    expect(second.getState().namespaces.eip155?.address).toBe(receiver)

    // Over fresh storage there is nothing to reconnect: wagmi disconnects, and follows the next connection.
    second.destroy()
    const third = remount(createMemoryStorage())
    await expect.poll(() => getAccount(first.config).status).toBe('disconnected')
    await third.connect('dev.tessera.wallet')
    await expect.poll(() => getAccount(first.config)).toMatchObject({ status: 'connected', address: receiver })
  })

  it('turns viem chains into Tessera networks', () => {
    expect(toWidgetNetwork(defineChain({ ...chainA, blockExplorers: { default: { name: 'Scan', url: 'https://scan.example' } }, testnet: true, blockTime: 2_000 }))).toEqual({
      chainNamespace: 'eip155',
      caipNetworkId: 'eip155:31337',
      id: 31337,
      name: 'Local 31337',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
      blockExplorers: { default: { name: 'Scan', url: 'https://scan.example' } },
      testnet: true,
      contracts: { multicall3: { address: seeded.multicall3 } },
      blockTime: 2_000,
    })
  })
})
