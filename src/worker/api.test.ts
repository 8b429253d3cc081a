import { createServer } from 'node:http'
import { erc20Abi, parseAbiItem, parseEther, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '../../services/chain/anvil'
import { seedChain, type SeededChain } from '../../services/chain/seedChain'
import { freePorts } from '../../services/stack/ports'
import { createWorkerApi } from './api'

describe('worker api on anvil', () => {
  let anvil: Anvil
  let seeded: SeededChain
  const configured = () => {
    const api = createWorkerApi()
    api.configure({ chains: [{ chainId: 31337, rpcUrls: [anvil.rpcUrl], multicall3: seeded.multicall3 }], blockPollingIntervalMs: 20 })
    return api
  }
  beforeAll(async () => {
    anvil = await startAnvil({ port: (await freePorts()).anvil, chainId: 31337 })
    seeded = await seedChain({ rpcUrl: anvil.rpcUrl })
  })
  afterAll(() => anvil.stop())

  it('reads token metadata and balances in one multicall, decoded', async () => {
    const api = configured()
    const [usd, tsr] = seeded.tokens
    const results = await api.multicall({
      chainId: 31337,
      contracts: [
        { address: usd!.address, abi: erc20Abi, functionName: 'decimals' },
        { address: tsr!.address, abi: erc20Abi, functionName: 'symbol' },
        { address: usd!.address, abi: erc20Abi, functionName: 'balanceOf', args: [seeded.devAccounts[1]!] },
        { address: seeded.devAccounts[0]!, abi: erc20Abi, functionName: 'decimals' },
      ],
    })
    expect(results.slice(0, 3)).toEqual([
      { status: 'success', result: 6 },
      { status: 'success', result: 'TSR' },
      { status: 'success', result: 1_000_000n * 10n ** 6n },
    ])
    expect(results[3]).toMatchObject({ status: 'failure', error: { name: 'ContractFunctionExecutionError' } })
  })

  it('turns node and contract failures into WidgetErrors with the spec’s codes', async () => {
    const api = configured()
    await expect(api.request({ chainId: 31337, method: 'eth_noSuchMethod' })).rejects.toMatchObject({ code: 'METHOD_NOT_FOUND', rpcCode: -32601 })
    await expect(
      api.readContract({ chainId: 31337, address: seeded.tokens[0]!.address, abi: erc20Abi, functionName: 'transferFrom', args: [seeded.devAccounts[5]!, seeded.devAccounts[6]!, 1n] }),
    ).rejects.toMatchObject({ code: 'CONTRACT_FUNCTION_REVERTED', details: 'DemoToken: allowance exceeded' })
    const unreachable = createWorkerApi()
    unreachable.configure({ chains: [{ chainId: 1, rpcUrls: ['http://127.0.0.1:9'] }] })
    await expect(unreachable.getBlockNumber({ chainId: 1 })).rejects.toMatchObject({ code: 'HTTP_REQUEST_FAILED' })
  })

  it('keeps watched block numbers current in its store, and stops when unwatched', async () => {
    const api = configured()
    const before = await api.getBlockNumber({ chainId: 31337 })
    api.watchBlockNumber({ watchId: 'w', chainId: 31337 })
    await api.request({ chainId: 31337, method: 'anvil_mine', params: ['0x1'] })
    await expect.poll(() => api.getState().blockNumbers['31337']).toBe(before + 1n)
    api.unwatchBlockNumber({ watchId: 'w' })
    await new Promise((resolve) => setTimeout(resolve, 50))
    await api.request({ chainId: 31337, method: 'anvil_mine', params: ['0x1'] })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(api.getState().blockNumbers['31337']).toBe(before + 1n)
  })

  it('pauses block polling while the page is hidden', async () => {
    const api = configured()
    api.watchBlockNumber({ watchId: 'w', chainId: 31337 })
    const start = await api.getBlockNumber({ chainId: 31337 })
    api.setVisibility(false)
    await new Promise((resolve) => setTimeout(resolve, 50))
    await api.request({ chainId: 31337, method: 'anvil_mine', params: ['0x1'] })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(api.getState().blockNumbers['31337']).toBe(start)
    api.setVisibility(true)
    await expect.poll(() => api.getState().blockNumbers['31337']).toBe(start + 1n)
    api.unwatchBlockNumber({ watchId: 'w' })
  })

  it('tracks a transaction until its receipt, and reads the balances it changed', async () => {
    const api = configured()
    const [from, to] = seeded.devAccounts
    const before = await api.getBalance({ chainId: 31337, address: to! })
    const hash = (await api.request({
      chainId: 31337,
      method: 'eth_sendTransaction',
      params: [{ from, to, value: `0x${parseEther('1.5').toString(16)}` }],
    })) as Hex
    const receipt = await api.waitForTransactionReceipt({ chainId: 31337, hash, pollingIntervalMs: 20 })
    expect(receipt.status).toBe('success')
    expect(api.getState().pendingTransactions[hash]).toMatchObject({ status: 'success', blockNumber: receipt.blockNumber })
    expect(await api.getBalance({ chainId: 31337, address: to! })).toBe(before + parseEther('1.5'))
    // The same balance by CAIP-2 id, the form every family answers.
    expect(await api.getNativeBalance({ caipNetworkId: 'eip155:31337', address: to! })).toBe(before + parseEther('1.5'))
  })

  it('looks for a receipt twice per block of the network’s block time, not every 4 s', async () => {
    const api = createWorkerApi()
    api.configure({ chains: [{ chainId: 31337, rpcUrls: [anvil.rpcUrl], multicall3: seeded.multicall3, blockTime: 1_000 }] })
    const [from, to] = seeded.devAccounts
    await api.request({ chainId: 31337, method: 'evm_setAutomine', params: [false] })
    try {
      const hash = (await api.request({ chainId: 31337, method: 'eth_sendTransaction', params: [{ from, to, value: '0x1' }] })) as Hex
      const receipt = api.waitForTransactionReceipt({ chainId: 31337, hash })
      await new Promise((resolve) => setTimeout(resolve, 100))
      await api.request({ chainId: 31337, method: 'anvil_mine', params: ['0x1'] })
      // Polled every 500 ms, the receipt comes about half a second after the block; polled every 4 s, after 3.9 s.
      const lateBy = new Promise((resolve) => setTimeout(() => resolve('not within 2.5 s'), 2_500))
      expect(await Promise.race([receipt.then((r) => r.status), lateBy])).toBe('success')
    } finally {
      await api.request({ chainId: 31337, method: 'evm_setAutomine', params: [true] })
    }
  })

  it('serves a balance from its 30 s cache until the account is invalidated', async () => {
    const api = configured()
    const [from, to] = seeded.devAccounts
    const before = await api.getBalance({ chainId: 31337, address: to! })
    await api.request({ chainId: 31337, method: 'eth_sendTransaction', params: [{ from, to, value: '0x1' }] })
    expect(await api.getBalance({ chainId: 31337, address: to! })).toBe(before)
    expect(await api.getBalance({ chainId: 31337, address: to!, force: true })).toBe(before + 1n)
    await api.request({ chainId: 31337, method: 'eth_sendTransaction', params: [{ from, to, value: '0x1' }] })
    expect(api.invalidateBalances({ chainId: 31337, address: to! })).toBeGreaterThan(0)
    expect(await api.getBalance({ chainId: 31337, address: to! })).toBe(before + 2n)
  })

  it('calls the data service, caching what SPEC §9 times', async () => {
    const requests: string[] = []
    const server = createServer((req, res) => {
      requests.push(req.url!)
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ name: 'alice.tessera.id', avatar: null }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const api = createWorkerApi()
      const baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`
      api.configure({ chains: [], dataService: { baseUrl, projectId: 'demo', sdkVersion: 'tessera-wagmi-0.1.0' } })
      const identity = { method: 'getIdentity' as const, args: { address: '0xAbC' } }
      expect(await api.callDataService(identity)).toEqual({ name: 'alice.tessera.id', avatar: null })
      await api.callDataService(identity)
      expect(requests).toEqual(['/v1/identity/0xAbC?st=tessera&sv=tessera-wagmi-0.1.0&projectId=demo'])
      await expect(api.callDataService({ method: 'toString' as never })).rejects.toMatchObject({ code: 'INVALID_MESSAGE', details: 'unknown data-service call: toString' })
    } finally {
      server.close()
    }
  })

  it('says so when the data service is not configured', async () => {
    const api = createWorkerApi()
    api.configure({ chains: [] })
    await expect(api.callDataService({ method: 'getSupportedChains' })).rejects.toMatchObject({ code: 'SERVICE_NOT_CONFIGURED' })
  })

  it('reads and decodes Transfer logs in the worker', async () => {
    const api = configured()
    const token = seeded.tokens[0]!
    const transfer = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')
    const logs = await api.getLogs({ chainId: 31337, address: token.address, abi: [transfer], eventName: 'Transfer', fromBlock: 0n })
    // The mints to the dev accounts come first (then the liquidity provider's, and its pools' transfers).
    expect(logs.slice(0, seeded.devAccounts.length).map((log) => (log.args as { to: string }).to)).toEqual(seeded.devAccounts)
    expect(logs[0]).toMatchObject({ eventName: 'Transfer', args: { to: seeded.devAccounts[0], value: 1_000_000n * 10n ** 6n } })
  })

  it('keeps queried logs in the worker: a count, then decoded slices equal to getLogs’s', async () => {
    const api = configured()
    const transfer = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')
    const filter = { chainId: 31337, address: seeded.tokens.map((t) => t.address), abi: [transfer], eventName: 'Transfer', fromBlock: 0n }
    const all = await api.getLogs(filter)
    const set = await api.queryLogs(filter)
    expect(set).toEqual({ id: expect.any(String), chainId: 31337, count: all.length })
    expect(all.length).toBeGreaterThan(3)
    expect(api.readLogs({ id: set.id, offset: 1, limit: 2 })).toEqual(all.slice(1, 3))
    expect(api.readLogs({ id: set.id, offset: 0, limit: all.length })).toEqual(all)
    expect(api.releaseLogs({ id: set.id })).toBe(true)
    expect(() => api.readLogs({ id: set.id, offset: 0, limit: 1 })).toThrow(expect.objectContaining({ code: 'RESOURCE_NOT_FOUND' }))
  })

  it('refuses a chain it was not configured with', async () => {
    const api = createWorkerApi()
    api.configure({ chains: [] })
    await expect(api.getBlockNumber({ chainId: 1 })).rejects.toMatchObject({ code: 'NETWORK_NOT_FOUND', shortMessage: 'Network not found', details: 'eip155:1 is not configured in the core' })
  })
})
