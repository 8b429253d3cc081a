import { encodeAbiParameters, encodeEventTopics, erc20Abi, type Hex, type RpcLog } from 'viem'
import { describe, expect, it } from 'vitest'
import { createLogDecoder } from './createLogDecoder'
import { createLogSets } from './createLogSets'

const holder = (i: number) => `0x${(0x1000 + i).toString(16).padStart(40, '0')}` as const
const word = (value: bigint) => encodeAbiParameters([{ type: 'uint256' }], [value])

/** Transfer `i` of `value` i, at log index i, as the node sends it. */
const transfer = (i: number, data: Hex = word(BigInt(i))): RpcLog => ({
  address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  blockHash: `0x${'1'.repeat(64)}`,
  blockNumber: '0x7',
  data,
  logIndex: `0x${i.toString(16)}`,
  transactionHash: `0x${'2'.repeat(64)}`,
  transactionIndex: '0x0',
  removed: false,
  topics: encodeEventTopics({ abi: erc20Abi, eventName: 'Transfer', args: { from: holder(0), to: holder(i) } }) as RpcLog['topics'],
})
const transfers = (count: number) => Array.from({ length: count }, (_, i) => transfer(i))
const decoder = createLogDecoder({ abi: erc20Abi, eventName: 'Transfer' })

describe('createLogSets', () => {
  it('answers a count, then decodes the slices asked for, in order', () => {
    const sets = createLogSets()
    const set = sets.add({ chainId: 1, logs: transfers(250), decoder })
    expect(set).toEqual({ id: expect.any(String), chainId: 1, count: 250 })
    const slice = sets.read({ id: set.id, offset: 100, limit: 3 })
    expect(slice.map((log) => [log.logIndex, (log.args as { value: bigint }).value, (log.args as { to: string }).to.toLowerCase()])).toEqual([
      [100, 100n, holder(100)],
      [101, 101n, holder(101)],
      [102, 102n, holder(102)],
    ])
    expect(sets.read({ id: set.id, offset: 248, limit: 10 }).map((log) => log.logIndex)).toEqual([248, 249])
    expect(sets.read({ id: set.id, offset: 250, limit: 10 })).toEqual([])
  })

  it('keeps only the logs of the ABI’s events; one that matched but will not decode keeps its place', () => {
    const sets = createLogSets()
    const other = { ...transfer(1), topics: [`0x${'f'.repeat(64)}`] as RpcLog['topics'] }
    // One byte of data: the shape of a Transfer (three topics, some data), but too short for its value.
    const stray = transfer(2, '0x01')
    const set = sets.add({ chainId: 1, logs: [transfer(0), other, stray, transfer(3)], decoder })
    expect(set.count).toBe(3)
    const read = sets.read({ id: set.id, offset: 0, limit: 3 })
    expect(read.map((log) => [log.eventName, log.logIndex])).toEqual([
      ['Transfer', 0],
      [undefined, 2],
      ['Transfer', 3],
    ])
  })

  it.each([
    { offset: -1, limit: 10, field: 'offset' },
    { offset: 1.5, limit: 10, field: 'offset' },
    { offset: 0, limit: -1, field: 'limit' },
    { offset: 0, limit: 10_001, field: 'limit' },
    { offset: 0, limit: Number.NaN, field: 'limit' },
  ])('refuses offset $offset and limit $limit', ({ offset, limit, field }) => {
    const sets = createLogSets()
    const { id } = sets.add({ chainId: 1, logs: transfers(3), decoder })
    expect(() => sets.read({ id, offset, limit })).toThrow(expect.objectContaining({ code: 'INVALID_MESSAGE', field }))
  })

  it('forgets a released set: reading it says so with a code', () => {
    const sets = createLogSets()
    const { id } = sets.add({ chainId: 1, logs: transfers(3), decoder })
    expect(sets.release({ id })).toBe(true)
    expect(sets.release({ id })).toBe(false)
    expect(() => sets.read({ id, offset: 0, limit: 1 })).toThrow(expect.objectContaining({ code: 'RESOURCE_NOT_FOUND' }))
  })

  it('holds at most maxSets, dropping the one read least recently', () => {
    const sets = createLogSets({ maxSets: 2 })
    const first = sets.add({ chainId: 1, logs: transfers(1), decoder })
    const second = sets.add({ chainId: 1, logs: transfers(1), decoder })
    sets.read({ id: first.id, offset: 0, limit: 1 })
    sets.add({ chainId: 1, logs: transfers(1), decoder })
    expect(sets.size).toBe(2)
    expect(sets.read({ id: first.id, offset: 0, limit: 1 })).toHaveLength(1)
    expect(() => sets.read({ id: second.id, offset: 0, limit: 1 })).toThrow(expect.objectContaining({ code: 'RESOURCE_NOT_FOUND' }))
  })

  it('never gives two workers’ sets the same id, so an id from before a restart names nothing', () => {
    const before = createLogSets().add({ chainId: 1, logs: transfers(1), decoder })
    const after = createLogSets()
    after.add({ chainId: 1, logs: transfers(1), decoder })
    expect(() => after.read({ id: before.id, offset: 0, limit: 1 })).toThrow(expect.objectContaining({ code: 'RESOURCE_NOT_FOUND' }))
  })
})
