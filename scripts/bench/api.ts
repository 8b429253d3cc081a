// `npm run bench:api`: load on the data service's balance and history endpoints, loopback only, bounded in time.
// Prints JSON { balance: { rps, p99Ms, errors }, history: { rps, p99Ms, errors } }.
import autocannon from 'autocannon'
import { createWalletClient, erc20Abi, http } from 'viem'
import { foundry } from 'viem/chains'
import { startAnvil } from '../../services/chain/anvil'
import { seedChain } from '../../services/chain/seedChain'
import { openDatabase } from '../../services/api/db/createDatabase'
import { startApiServer } from '../../services/api/server'
import { freePorts } from '../../services/stack/ports'

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5)
const CONNECTIONS = 10
const TRANSFERS = 300

async function load(url: string) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S })
  return { rps: Math.round(result.requests.average), p99Ms: result.latency.p99, errors: result.errors + result.non2xx }
}

async function main() {
  const ports = await freePorts()
  const anvil = await startAnvil({ port: ports.anvil, chainId: 31337 })
  const seeded = await seedChain({ rpcUrl: anvil.rpcUrl })
  const [sender, receiver] = seeded.devAccounts
  const wallet = createWalletClient({ chain: foundry, transport: http(anvil.rpcUrl) })
  for (let i = 0; i < TRANSFERS; i++) {
    await wallet.writeContract({ account: sender!, address: seeded.tokens[0]!.address, abi: erc20Abi, functionName: 'transfer', args: [receiver!, BigInt(i + 1)] })
  }
  const server = await startApiServer({
    port: ports.api,
    db: await openDatabase({}),
    projects: [{ id: 'bench', allowedOrigins: [] }],
    chains: [{ chainId: 31337, name: 'Local', rpcUrl: anvil.rpcUrl, multicall3: seeded.multicall3, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, tokens: seeded.tokens }],
    prices: { ETH: 3_000, TUSD: 1, TSR: 2.5 },
  })
  try {
    await server.indexers[0]!.catchUp()
    const query = 'projectId=bench&st=bench&sv=bench-x-1&chainId=eip155:31337'
    const balance = await load(`${server.url}/v1/account/${receiver}/balance?${query}`)
    const history = await load(`${server.url}/v1/account/${receiver}/history?${query}`)
    console.log(JSON.stringify({ balance, history, durationS: DURATION_S, connections: CONNECTIONS, transfersIndexed: TRANSFERS }, null, 2))
  } finally {
    await server.stop()
    await anvil.stop()
  }
}

await main()
