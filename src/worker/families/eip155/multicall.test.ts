import {
  createClient,
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  http,
  multicall3Abi,
  parseAbi,
  decodeFunctionResult,
  type Abi,
  type Address,
  type Client,
  type Hex,
} from 'viem'
import { multicall as viemMulticall } from 'viem/actions'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import artifacts from '../../../../services/chain/contracts.generated.json' with { type: 'json' }
import { startAnvil, type Anvil } from '../../../../services/chain/anvil'
import { seedChain, type SeededChain } from '../../../../services/chain/seedChain'
import { freePorts } from '../../../../services/stack/ports'
import type { ContractCall } from '../../../shared/protocol/core/coreApi'
import { decodeAggregate3, encodeAggregate3, multicall } from './multicall'

const aggregate3Outputs = multicall3Abi.find((item) => item.type === 'function' && item.name === 'aggregate3')!.outputs
const multicall3FullAbi = artifacts.Multicall3.abi as Abi
const overloadedAbi = parseAbi(['function balanceOf(address) view returns (uint256)', 'function balanceOf(address, uint256) view returns (uint256)'])
const holder = (i: number) => `0x${(0x10000 + i).toString(16).padStart(40, '0')}` as Address

/** What both give back, errors as name and message (the Error objects differ in identity only). */
const comparable = (results: readonly ({ status: 'success'; result: unknown } | { status: 'failure'; error: Error })[]) =>
  results.map((r) => (r.status === 'success' ? { status: r.status, result: r.result } : { status: r.status, name: r.error.name, message: r.error.message }))

describe('multicall on anvil, against viem’s', () => {
  let anvil: Anvil
  let seeded: SeededChain
  let client: Client
  const both = async (contracts: ContractCall[], batchSize = 1_024, on = client) => ({
    ours: comparable(await multicall(on, { contracts, multicallAddress: seeded.multicall3, batchSize })),
    viems: comparable(await viemMulticall(on, { contracts, allowFailure: true, batchSize, multicallAddress: seeded.multicall3 })),
  })
  beforeAll(async () => {
    anvil = await startAnvil({ port: (await freePorts()).anvil, chainId: 31337 })
    seeded = await seedChain({ rpcUrl: anvil.rpcUrl })
    client = createClient({ transport: http(anvil.rpcUrl) })
  })
  afterAll(() => anvil.stop())

  it('gives the same results and errors: values, tuples, reverts, a contract that is no contract, an overloaded name', async () => {
    const [usd, tsr] = seeded.tokens
    const { ours, viems } = await both([
      { address: usd!.address, abi: erc20Abi, functionName: 'decimals' },
      { address: tsr!.address, abi: erc20Abi, functionName: 'symbol' },
      { address: usd!.address, abi: erc20Abi, functionName: 'balanceOf', args: [seeded.devAccounts[1]!] },
      { address: usd!.address.toLowerCase() as Address, abi: erc20Abi, functionName: 'totalSupply' },
      { address: seeded.devAccounts[0]!, abi: erc20Abi, functionName: 'decimals' },
      { address: usd!.address, abi: erc20Abi, functionName: 'transferFrom', args: [seeded.devAccounts[5]!, seeded.devAccounts[6]!, 1n] },
      { address: seeded.multicall3, abi: multicall3FullAbi, functionName: 'aggregate', args: [[{ target: usd!.address, callData: encodeFunctionData({ abi: erc20Abi, functionName: 'decimals' }) }]] },
      { address: seeded.multicall3, abi: multicall3FullAbi, functionName: 'getBlockNumber' },
      { address: usd!.address, abi: overloadedAbi, functionName: 'balanceOf', args: [seeded.devAccounts[1]!] },
      { address: usd!.address, abi: overloadedAbi, functionName: 'balanceOf', args: [seeded.devAccounts[1]!, 1n] },
    ])
    expect(ours).toEqual(viems)
    expect(ours.slice(0, 3)).toEqual([
      { status: 'success', result: 6 },
      { status: 'success', result: 'TSR' },
      { status: 'success', result: 1_000_000n * 10n ** 6n },
    ])
    expect(ours[5]).toMatchObject({ status: 'failure', message: expect.stringContaining('DemoToken: allowance exceeded') })
    expect(ours[6]).toEqual({ status: 'success', result: [expect.any(BigInt), [encodeAbiParameters([{ type: 'uint8' }], [6])]] })
    expect(ours[7]).toEqual({ status: 'success', result: expect.any(BigInt) })
    expect(ours[8]).toEqual({ status: 'success', result: 1_000_000n * 10n ** 6n })
    expect(ours[9]).toMatchObject({ status: 'failure' })
  })

  it('splits into the same aggregate3 calls: hundreds of reads at several batch sizes give what viem gives', async () => {
    const reads = Array.from({ length: 301 }, (_, i) => ({ address: seeded.tokens[i % 2]!.address, abi: erc20Abi, functionName: 'balanceOf', args: [i % 7 === 0 ? seeded.devAccounts[i % 10]! : holder(i)] }))
    for (const batchSize of [0, 1, 100, 1_024]) {
      const { ours, viems } = await both(reads, batchSize)
      expect(ours).toEqual(viems)
    }
  })

  it('fails a read that cannot be encoded alone, naming why, and sends the others', async () => {
    const token = seeded.tokens[0]!.address
    const results = comparable(
      await multicall(client, {
        multicallAddress: seeded.multicall3,
        batchSize: 1_024,
        contracts: [
          { address: token, abi: erc20Abi, functionName: 'balanceOf', args: ['nope'] },
          { address: token, abi: erc20Abi, functionName: 'noSuchFunction' },
          { address: 'nope' as Address, abi: erc20Abi, functionName: 'decimals' },
          { address: token, abi: erc20Abi, functionName: 'decimals' },
        ],
      }),
    )
    expect(results[0]).toMatchObject({ status: 'failure', message: expect.stringContaining('Address "nope" is invalid') })
    expect(results[1]).toMatchObject({ status: 'failure', message: expect.stringContaining('Function "noSuchFunction" not found on ABI') })
    expect(results[2]).toMatchObject({ status: 'failure', message: expect.stringContaining('Address "nope" is invalid') })
    expect(results[3]).toEqual({ status: 'success', result: 6 })
  })

  it('fails every read with the node’s error when the node cannot be reached, as viem does', async () => {
    const unreachable = createClient({ transport: http('http://127.0.0.1:9', { retryCount: 0 }) })
    const reads = [0, 1, 2].map((i) => ({ address: seeded.tokens[0]!.address, abi: erc20Abi, functionName: 'balanceOf', args: [holder(i)] }))
    const { ours, viems } = await both(reads, 1_024, unreachable)
    expect(ours.map((r) => [r.status, 'name' in r && r.name])).toEqual(viems.map((r) => [r.status, 'name' in r && r.name]))
    expect(ours[0]).toMatchObject({ status: 'failure', name: 'ContractFunctionExecutionError', message: expect.stringContaining('HTTP request failed') })
  })

  it('fails every read when Multicall3 is not at the address', async () => {
    const reads = [{ address: seeded.tokens[0]!.address, abi: erc20Abi, functionName: 'decimals' }]
    const ours = comparable(await multicall(client, { contracts: reads, multicallAddress: seeded.devAccounts[3]!, batchSize: 1_024 }))
    const viems = comparable(await viemMulticall(client, { contracts: reads, allowFailure: true, multicallAddress: seeded.devAccounts[3]! }))
    expect(ours).toEqual(viems)
    expect(ours[0]).toMatchObject({ status: 'failure', name: 'ContractFunctionExecutionError' })
  })
})

describe('the aggregate3 layout', () => {
  const calls = [
    { target: '0xcA11bde05977b3631167028862bE2a173976CA11' as Address, callData: '0x' as Hex },
    { target: '0x0000000000000000000000000000000000000001' as Address, callData: '0x313ce567' as Hex },
    { target: getAddress('0xabcdef0000000000000000000000000000000002'), callData: `0x70a08231${'ab'.repeat(32)}` as Hex },
    { target: '0x0000000000000000000000000000000000000003' as Address, callData: `0x${'cd'.repeat(65)}` as Hex },
  ]

  it('encodes calls as viem does', () => {
    for (const n of [0, 1, 4]) {
      const some = calls.slice(0, n)
      expect(encodeAggregate3(some)).toBe(encodeFunctionData({ abi: multicall3Abi, functionName: 'aggregate3', args: [some.map((c) => ({ ...c, allowFailure: true }))] }))
    }
  })

  it('decodes answers as viem does, and what is not laid out as expected with viem’s error', () => {
    const answers = [
      { success: true, returnData: '0x' as Hex },
      { success: false, returnData: '0x08c379a0' as Hex },
      { success: true, returnData: `0x${'11'.repeat(32)}` as Hex },
      { success: true, returnData: `0x${'22'.repeat(33)}` as Hex },
    ]
    for (const n of [0, 1, 4]) {
      const encoded = encodeAbiParameters(aggregate3Outputs, [answers.slice(0, n)])
      const decoded = decodeAggregate3(encoded).map(({ success, returnData }) => ({ success, returnData: `0x${Buffer.from(returnData).toString('hex')}` }))
      expect(decoded).toEqual(decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data: encoded }))
    }
    const encoded = encodeAbiParameters(aggregate3Outputs, [answers])
    for (const malformed of ['0x', encoded.slice(0, 200), `${encoded.slice(0, 2 + 64)}${'f'.repeat(64)}${encoded.slice(2 + 128)}`] as Hex[]) {
      let viems: unknown
      try {
        decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data: malformed })
      } catch (error) {
        viems = error
      }
      expect(viems).toBeInstanceOf(Error)
      expect(() => decodeAggregate3(malformed)).toThrow((viems as Error).message)
    }
  })

  it('decodes with the runtime’s Uint8Array.fromHex where there is one, and hex it refuses with viem’s decoder', async () => {
    // Node 20 has no Uint8Array.fromHex: a stand-in with the browser's contract (even-length hex, else a SyntaxError).
    const given: string[] = []
    const fromHex = (hex: string) => {
      given.push(hex)
      if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) throw new SyntaxError('Input string must contain hex characters in even length')
      return Uint8Array.from(Buffer.from(hex, 'hex'))
    }
    Object.defineProperty(Uint8Array, 'fromHex', { value: fromHex, configurable: true })
    try {
      vi.resetModules()
      const { decodeAggregate3: decode } = await import('./multicall')
      const encoded = encodeAbiParameters(aggregate3Outputs, [[{ success: true, returnData: `0x${'11'.repeat(32)}` }]])
      expect(decode(encoded)).toEqual([{ success: true, returnData: new Uint8Array(32).fill(0x11) }])
      expect(given).toEqual([encoded.slice(2)])
      // Odd length: refused by fromHex, padded by viem (a leading 0), the same answer.
      const odd = `0x${encoded.slice(3)}` as Hex
      expect(decode(odd)).toEqual(decode(encoded))
      expect(given).toContain(odd.slice(2))
    } finally {
      delete (Uint8Array as { fromHex?: unknown }).fromHex
      vi.resetModules()
    }
  })
})
