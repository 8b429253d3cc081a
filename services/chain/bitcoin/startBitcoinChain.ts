import { createServer, type Server } from 'node:http'
import { createBcoinNode, type BcoinNode } from './createBcoinNode'
import { createEsploraHandler } from './createEsploraHandler'

export type BitcoinChainParameters = {
  host?: string
  port: number
  /** Mine a block every so often (anvil's habit), so sends confirm; 0 mines only on `mine()`. */
  blockIntervalMs?: number
  /** Where timer blocks and `mine()` pay their coinbase. */
  coinbaseAddress: string
  /** Blocks mined before the API opens, paid round-robin to these addresses. */
  premine?: { blocks: number; addresses: readonly string[] }
  maxBodyBytes?: number
  /** Where failures nobody asked about are reported (a timer block, a 500); console.error by default. */
  log?: (line: string) => void
}

export type BitcoinChain = {
  /** The Esplora-style REST API (GET /blocks/tip/height, /address/:a/utxo, POST /tx, …). */
  apiUrl: string
  /** `bip122:` + the first 32 hex characters of the genesis block hash (CAIP-2). */
  caipNetworkId: `bip122:${string}`
  /** Mines blocks now (mempool transactions included) and answers their hashes. */
  mine: (blocks?: number, payTo?: string) => Promise<string[]>
  /** The node behind the API, for tests that need to look inside. */
  node: BcoinNode
  stop: () => Promise<void>
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen({ port, host, exclusive: true }, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })
}

/**
 * Starts a local Bitcoin chain: a bcoin regtest full node in memory behind an Esplora-style REST API, in this
 * process. Ready (premined, listening) when the promise resolves.
 * @example const bitcoin = await startBitcoinChain({ port: 3002, coinbaseAddress, premine: { blocks: 450, addresses } })
 */
export async function startBitcoinChain({
  host = '127.0.0.1',
  port,
  blockIntervalMs = 2_000,
  coinbaseAddress,
  premine,
  maxBodyBytes,
  log,
}: BitcoinChainParameters): Promise<BitcoinChain> {
  const node = await createBcoinNode({ blockIntervalMs, coinbaseAddress, ...(premine ? { premine } : {}), ...(log ? { log } : {}) })
  const server = createServer(createEsploraHandler({ node, maxBodyBytes, log }))
  server.requestTimeout = 30_000
  server.maxConnections = 1_024
  const stop = async () => {
    await close(server)
    await node.stop()
  }
  try {
    await listen(server, port, host)
  } catch (error) {
    await stop()
    throw error
  }
  return {
    apiUrl: `http://${host}:${port}`,
    caipNetworkId: `bip122:${node.genesisHash.slice(0, 32)}`,
    mine: (blocks = 1, payTo) => node.mine(blocks, payTo),
    node,
    stop,
  }
}
