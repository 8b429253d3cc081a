import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { encodeAbiParameters, encodeEventTopics, parseAbiItem, type Address, type Hex } from 'viem'

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')
const hex = (n: number | bigint) => `0x${n.toString(16)}` as Hex
const word = (prefix: string, n: number) => `0x${prefix}${n.toString(16).padStart(64 - prefix.length, '0')}` as Hex
const blockHash = (n: number) => word('b1', n)
const txHash = (block: number, i: number) => word('7a', block * 1_000 + i)
const party = (n: number) => `0x${(0x1000 + (n % 10_000)).toString(16).padStart(40, '0')}` as Address

export type SyntheticChainParameters = {
  /** The head: blocks 0 to `blocks` exist. */
  blocks: number
  /** ERC-20 Transfer logs of `token` in every block but the genesis. */
  logsPerBlock: number
  token: Address
  chainId?: number
}

/**
 * A JSON-RPC node serving a fixed chain made up on the fly (no state, no mining), for timing the indexer where anvil
 * is too slow to make the chain: anvil_mine of 5,000 blocks takes 3 s on a new chain and a minute past 15,000. Answers
 * what the indexer asks (eth_chainId, eth_blockNumber, eth_getBlockByNumber, eth_getLogs, eth_getBlockReceipts), in
 * batches too, on 127.0.0.1.
 * @example const chain = await startSyntheticChain({ blocks: 100_000, logsPerBlock: 2, token }); … await chain.stop()
 */
export async function startSyntheticChain({ blocks, logsPerBlock, token, chainId = 31337 }: SyntheticChainParameters) {
  const block = (n: number, withTransactions: boolean) => ({
    number: hex(n),
    hash: blockHash(n),
    parentHash: n === 0 ? word('', 0) : blockHash(n - 1),
    timestamp: hex(1_700_000_000 + n),
    nonce: '0x0000000000000000',
    difficulty: '0x0',
    gasLimit: hex(30_000_000),
    gasUsed: '0x0',
    miner: word('', 0).slice(0, 42),
    extraData: '0x',
    logsBloom: `0x${'0'.repeat(512)}`,
    transactionsRoot: word('', 0),
    stateRoot: word('', 0),
    receiptsRoot: word('', 0),
    sha3Uncles: word('', 0),
    size: '0x200',
    baseFeePerGas: '0x1',
    uncles: [],
    // The logs' transactions carry no value: only their logs are transfers.
    transactions: n === 0 ? [] : Array.from({ length: logsPerBlock }, (_, i) => (withTransactions ? transaction(n, i) : txHash(n, i))),
  })
  const transaction = (n: number, i: number) => ({
    hash: txHash(n, i),
    blockHash: blockHash(n),
    blockNumber: hex(n),
    transactionIndex: hex(i),
    from: party(n + i),
    to: token,
    value: '0x0',
    gas: '0x186a0',
    gasPrice: '0x1',
    maxFeePerGas: '0x1',
    maxPriorityFeePerGas: '0x0',
    input: '0x',
    nonce: hex(n),
    type: '0x2',
    chainId: hex(chainId),
    accessList: [],
    v: '0x0',
    r: word('', 1),
    s: word('', 1),
    yParity: '0x0',
  })
  const log = (n: number, i: number) => ({
    address: token,
    topics: encodeEventTopics({ abi: [transferEvent], eventName: 'Transfer', args: { from: party(n + i), to: party(n * 7 + i) } }),
    data: encodeAbiParameters([{ type: 'uint256' }], [BigInt(n * 1_000 + i + 1)]),
    blockNumber: hex(n),
    blockHash: blockHash(n),
    transactionHash: txHash(n, i),
    transactionIndex: hex(i),
    logIndex: hex(i),
    removed: false,
  })
  const toNumber = (tag: string) => (tag === 'latest' ? blocks : Number(BigInt(tag)))

  const answer = ({ id, method, params = [] }: { id: number; method: string; params?: unknown[] }) => {
    const result = (() => {
      switch (method) {
        case 'eth_chainId':
          return hex(chainId)
        case 'eth_blockNumber':
          return hex(blocks)
        case 'eth_getBlockByNumber': {
          const n = toNumber(params[0] as string)
          return n > blocks ? null : block(n, params[1] === true)
        }
        case 'eth_getLogs': {
          const { fromBlock, toBlock } = params[0] as { fromBlock: string; toBlock: string }
          const logs = []
          for (let n = Math.max(1, toNumber(fromBlock)); n <= Math.min(blocks, toNumber(toBlock)); n++) for (let i = 0; i < logsPerBlock; i++) logs.push(log(n, i))
          return logs
        }
        case 'eth_getBlockReceipts':
          return []
        default:
          return undefined
      }
    })()
    return result === undefined ? { jsonrpc: '2.0', id, error: { code: -32601, message: `${method} is not served` } } : { jsonrpc: '2.0', id, result }
  }

  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      const parsed = JSON.parse(body) as Parameters<typeof answer>[0] | Parameters<typeof answer>[0][]
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    rpcUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Transfers the chain holds: what a full catch-up indexes. */
    transfers: blocks * logsPerBlock,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
