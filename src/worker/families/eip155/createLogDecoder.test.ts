import { decodeEventLog, encodeAbiParameters, encodeEventTopics, erc20Abi, parseAbi, toEventSelector, type Abi, type Hex, type RpcLog } from 'viem'
import { describe, expect, it } from 'vitest'
import { createLogDecoder, toDecodedLog } from './createLogDecoder'

const alice = '0x00000000000000000000000000000000000A11cE'
const bob = '0x0000000000000000000000000000000000000B0b'
const word = (value: bigint) => encodeAbiParameters([{ type: 'uint256' }], [value])

/** A log as the node sends it, at block 0x10, index 0x2. */
const rpcLog = (topics: Hex[], data: Hex): RpcLog => ({
  address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  blockHash: `0x${'1'.repeat(64)}`,
  blockNumber: '0x10',
  data,
  logIndex: '0x2',
  transactionHash: `0x${'2'.repeat(64)}`,
  transactionIndex: '0x0',
  removed: false,
  topics: topics as RpcLog['topics'],
})

const abi = [
  ...parseAbi([
    'event Transfer(address indexed from, address indexed to, uint256 value)',
    'event Named(string indexed label, bytes data, uint8 small)',
    'event Unnamed(address indexed, uint256)',
  ]),
  {
    type: 'event',
    name: 'Anon',
    anonymous: true,
    inputs: [
      { name: 'a', type: 'uint256', indexed: true },
      { name: 'b', type: 'uint256', indexed: true },
    ],
  },
] as const satisfies Abi
const erc721Transfer = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)'])
const transferTopics = encodeEventTopics({ abi: erc20Abi, eventName: 'Transfer', args: { from: alice, to: bob } }) as Hex[]

/** Logs and what viem's strict decodeEventLog makes of them against `abi` (undefined: it throws). */
/** `isShaped`: what `matches` answers (it does not decode: a log can have the shape and still fail, like short data). */
const cases: { name: string; log: RpcLog; eventName?: string; isShaped: boolean }[] = [
  { name: 'an ERC-20 Transfer', log: rpcLog(transferTopics, word(5n)), isShaped: true },
  { name: 'an event with an indexed string (its hash) and dynamic data', log: rpcLog(encodeEventTopics({ abi, eventName: 'Named', args: { label: 'hello' } }) as Hex[], encodeAbiParameters([{ type: 'bytes' }, { type: 'uint8' }], ['0xbeef', 7])), isShaped: true },
  { name: 'an event with unnamed inputs (args as an array)', log: rpcLog([toEventSelector(abi[2]), `0x${alice.slice(2).toLowerCase().padStart(64, '0')}`], word(9n)), isShaped: true },
  { name: 'an anonymous event asked for by name', eventName: 'Anon', log: rpcLog([word(1n), word(2n)], '0x'), isShaped: true },
  { name: 'an anonymous event not asked for', log: rpcLog([word(1n), word(2n)], '0x'), isShaped: false },
  { name: 'an ERC-721 Transfer (same selector, no data)', log: rpcLog(encodeEventTopics({ abi: erc721Transfer, eventName: 'Transfer', args: { from: alice, to: bob, tokenId: 3n } }) as Hex[], '0x'), isShaped: false },
  { name: 'a Transfer missing its `to` topic', log: rpcLog(transferTopics.slice(0, 2), word(5n)), isShaped: false },
  { name: 'a Transfer with data too short for its value', log: rpcLog(transferTopics, '0x01'), isShaped: true },
  { name: 'an event the ABI does not have', log: rpcLog([`0x${'f'.repeat(64)}`], word(1n)), isShaped: false },
  { name: 'a log without topics', log: rpcLog([], word(1n)), isShaped: false },
]

const viemDecode = (log: RpcLog, eventName?: string) => {
  try {
    return decodeEventLog({ abi: abi as Abi, data: log.data, topics: log.topics, eventName, strict: true })
  } catch {
    return undefined
  }
}

describe('createLogDecoder', () => {
  it.each(cases)('decodes $name as viem’s strict decodeEventLog does', ({ log, eventName }) => {
    const decoder = createLogDecoder({ abi, eventName })
    const expected = viemDecode(log, eventName)
    expect(decoder.decode(log)).toEqual(expected && toDecodedLog(log, expected))
  })

  it('matches, without decoding, every log strict decoding accepts and none without an event’s shape', () => {
    for (const { name, log, eventName, isShaped } of cases) {
      expect({ name, isShaped: createLogDecoder({ abi, eventName }).matches(log) }).toEqual({ name, isShaped })
      if (viemDecode(log, eventName)) expect(isShaped).toBe(true)
    }
    expect(cases.filter(({ log, eventName }) => viemDecode(log, eventName)).map((c) => c.name)).toEqual(cases.slice(0, 4).map((c) => c.name))
  })

  it('gives the page bigint blocks and number indexes, from the node’s hex or viem’s formatted logs', () => {
    const log = rpcLog(transferTopics, word(5n))
    const expected = {
      eventName: 'Transfer',
      args: { from: alice, to: bob, value: 5n },
      address: log.address,
      blockNumber: 16n,
      transactionHash: log.transactionHash,
      logIndex: 2,
    }
    const decoder = createLogDecoder({ abi: erc20Abi, eventName: 'Transfer' })
    expect(decoder.decode(log)).toEqual(expected)
    expect(decoder.decode({ ...log, blockNumber: 16n, logIndex: 2 })).toEqual(expected)
    expect(toDecodedLog({ ...log, blockNumber: null, logIndex: null, transactionHash: null })).toMatchObject({ eventName: undefined, args: undefined, blockNumber: null, logIndex: null })
  })
})
