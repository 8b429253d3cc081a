import { expose, transferHandlers } from 'comlink'
import { erc20Abi, parseAbiItem } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
  let seeded: SeededChain
  const chains = () => [{ chainId: 31337, rpcUrls: [anvil.rpcUrl], multicall3: seeded.multicall3 }]
  beforeAll(async () => {
    installErrorTransferHandler(transferHandlers)
    anvil = await startAnvil({ port: (await freePorts()).anvil, chainId: 31337 })
    seeded = await seedChain({ rpcUrl: anvil.rpcUrl })
  })
  afterAll(() => anvil.stop())

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
})
