import { erc20Abi } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '../../services/chain/anvil'
import { seedChain, type SeededChain } from '../../services/chain/seedChain'
import { freePorts } from '../../services/stack/ports'
import { createWorkerApi } from './api'

describe('worker api on anvil', () => {
  let anvil: Anvil
  let seeded: SeededChain
  beforeAll(async () => {
    anvil = await startAnvil({ port: (await freePorts()).anvil, chainId: 31337 })
    seeded = await seedChain({ rpcUrl: anvil.rpcUrl })
  })
  afterAll(() => anvil.stop())

  it('reads token metadata and balances in one multicall, decoded', async () => {
    const api = createWorkerApi()
    api.configure({ chains: [{ chainId: 31337, rpcUrls: [anvil.rpcUrl], multicall3: seeded.multicall3 }] })
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

  it('reads the block number and notices new blocks', async () => {
    const api = createWorkerApi()
    api.configure({ chains: [{ chainId: 31337, rpcUrls: [anvil.rpcUrl] }] })
    const before = await api.getBlockNumber({ chainId: 31337 })
    const seen: bigint[] = []
    const unwatch = api.watchBlockNumber({ chainId: 31337, pollingIntervalMs: 50 }, (n) => seen.push(n))
    await expect.poll(() => seen.length).toBeGreaterThan(0)
    await api.request({ chainId: 31337, method: 'anvil_mine', params: ['0x1'] })
    await expect.poll(() => seen.at(-1)).toBe(before + 1n)
    unwatch()
  })

  it('refuses a chain it was not configured with', async () => {
    const api = createWorkerApi()
    api.configure({ chains: [] })
    expect(() => api.getBlockNumber({ chainId: 1 })).toThrow('Network not found: eip155:1 is not configured in the core')
  })
})
