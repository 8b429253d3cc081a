import { expose, transferHandlers } from 'comlink'
import { erc20Abi, parseAbiItem, toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startAnvil, type Anvil } from '../../../services/chain/anvil'
import { seedChain, type SeededChain } from '../../../services/chain/seedChain'
import { freePorts } from '../../../services/stack/ports'
import { installErrorTransferHandler } from '../../shared/protocol/errors'
import type { ContractCall } from '../../shared/protocol/core/coreApi'
import { createWorkerApi } from '../../worker/api'
import { createCore } from './createCore'

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')

/** The real worker API behind a MessageChannel (comlink both ways); `multicallSizes` records each multicall's calls. */
function createChannelWorker(multicallSizes: number[] = []) {
  return () => {
    const { port1, port2 } = new MessageChannel()
    const api = createWorkerApi()
    const multicall = api.multicall
    expose({ ...api, multicall: (parameters: Parameters<typeof multicall>[0]) => (multicallSizes.push(parameters.contracts.length), multicall(parameters)) }, port2)
    return Object.assign(port1, { terminate: () => (port1.close(), port2.close()) }) as unknown as Worker
  }
}

describe('createCore over comlink, on anvil', () => {
  let anvil: Anvil
  let anvil2: Anvil
  let seeded: SeededChain
  const chains = () => [{ chainId: 31337, rpcUrls: [anvil.rpcUrl], multicall3: seeded.multicall3 }]
  beforeAll(async () => {
    installErrorTransferHandler(transferHandlers)
    const ports = await freePorts()
    ;[anvil, anvil2] = await Promise.all([startAnvil({ port: ports.anvil, chainId: 31337 }), startAnvil({ port: ports.anvil2, chainId: 31338 })])
    seeded = await seedChain({ rpcUrl: anvil.rpcUrl })
  })
  afterAll(() => Promise.all([anvil.stop(), anvil2.stop()]))

  it('queries logs into the worker and reads them by slices and pages, as getLogs would give them', async () => {
    const core = createCore({ chains: chains(), createWorker: createChannelWorker() })
    try {
      const filter = { chainId: 31337, address: seeded.tokens.map((t) => t.address), abi: [transferEvent], eventName: 'Transfer', fromBlock: 0n }
      const all = await core.getLogs(filter)
      const set = await core.queryLogs(filter)
      expect(set.count).toBe(all.length)
      expect(await core.readLogs(set, { offset: 2, limit: 2 })).toEqual(all.slice(2, 4))
      expect(await core.readLogs(set)).toEqual(all.slice(0, 100))
      const pages: number[] = []
      const read = []
      for await (const page of core.iterateLogs(set, { pageSize: 3 })) {
        pages.push(page.length)
        read.push(...page)
      }
      expect(read).toEqual(all)
      expect(pages).toEqual(Array.from({ length: Math.ceil(all.length / 3) }, (_, i) => Math.min(3, all.length - i * 3)))
      expect(await core.releaseLogs(set)).toBe(true)
      await expect(core.readLogs(set)).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' })
    } finally {
      core.destroy()
    }
  })

  it('posts thousands of calls in parts of 2,048 and answers every result in the order of the calls', async () => {
    const sizes: number[] = []
    const core = createCore({ chains: chains(), createWorker: createChannelWorker(sizes) })
    try {
      const token = seeded.tokens[0]!.address
      const holders = seeded.devAccounts
      // Decimals and the dev accounts' balances (each seeded with tokens), interleaved: a result out of place shows.
      const contracts: ContractCall[] = Array.from({ length: 5_000 }, (_, i) =>
        i % 7 === 0
          ? { address: token, abi: erc20Abi, functionName: 'decimals' }
          : { address: token, abi: erc20Abi, functionName: 'balanceOf', args: [holders[i % holders.length]!] },
      )
      const reference = createWorkerApi()
      reference.configure({ chains: chains() })
      const expected = await reference.multicall({ chainId: 31337, contracts })
      expect(expected[0]).toEqual({ status: 'success', result: 6 })
      expect(expected[1]).toEqual({ status: 'success', result: expect.any(BigInt) })
      expect(await core.multicall({ chainId: 31337, contracts })).toEqual(expected)
      expect(sizes).toEqual([2_048, 2_048, 904])
    } finally {
      core.destroy()
    }
  })

  it('reaches the same EVM chain by CAIP-2 id as by numeric chain id, on each of two chains', async () => {
    const core = createCore({ chains: [...chains(), { chainId: 31338, rpcUrls: [anvil2.rpcUrl] }], createWorker: createChannelWorker() })
    try {
      for (const chainId of [31337, 31338]) {
        const caipNetworkId = `eip155:${chainId}`
        expect(await core.request({ caipNetworkId, method: 'eth_chainId' })).toBe(toHex(chainId))
        expect(await core.getBlockNumber({ caipNetworkId })).toBe(await core.getBlockNumber({ chainId }))
      }
      // The seeded chain has blocks, the other none: a block number read on the wrong chain shows.
      expect(await core.getBlockNumber({ caipNetworkId: 'eip155:31337' })).toBeGreaterThan(0n)
      const seen: bigint[] = []
      const stop = core.watchBlockNumber({ caipNetworkId: 'eip155:31338' }, (blockNumber) => seen.push(blockNumber))
      await vi.waitFor(() => expect(seen).toEqual([0n]))
      stop()

      const token = seeded.tokens[0]!.address
      const holder = seeded.devAccounts[1]!
      const balanceOf = { address: token, abi: erc20Abi, functionName: 'balanceOf', args: [holder] } as const
      expect(await core.readContract({ caipNetworkId: 'eip155:31337', ...balanceOf })).toBe(await core.readContract({ chainId: 31337, ...balanceOf }))
      expect(await core.getBalance({ caipNetworkId: 'eip155:31337', address: holder, token })).toBe(await core.readContract({ chainId: 31337, ...balanceOf }))
      const filter = { address: token, abi: [transferEvent], eventName: 'Transfer', fromBlock: 0n }
      expect(await core.getLogs({ caipNetworkId: 'eip155:31337', ...filter })).toEqual(await core.getLogs({ chainId: 31337, ...filter }))
    } finally {
      core.destroy()
    }
  })

  it.each(['eip155:0x7a69', 'eip155:031337', 'eip155:', 'eip155:99999999999999999999', 'eip155:31337:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', '31337'])(
    'answers NETWORK_NOT_FOUND naming %s, which is not eip155:<chain id>',
    async (caipNetworkId) => {
      const core = createCore({ chains: chains(), createWorker: createChannelWorker() })
      try {
        const error = { code: 'NETWORK_NOT_FOUND', details: expect.stringContaining(`"${caipNetworkId}"`) }
        await expect(core.request({ caipNetworkId, method: 'eth_chainId' })).rejects.toMatchObject(error)
        await expect(core.getBlockNumber({ caipNetworkId })).rejects.toMatchObject(error)
        await expect(core.getBalance({ caipNetworkId, address: seeded.devAccounts[0]!, token: seeded.tokens[0]!.address })).rejects.toMatchObject(error)
        await expect(core.waitForTransactionReceipt({ caipNetworkId, hash: '0x01' })).rejects.toMatchObject(error)
        expect(() => core.watchBlockNumber({ caipNetworkId }, () => {})).toThrow(expect.objectContaining(error))
      } finally {
        core.destroy()
      }
    },
  )
})
