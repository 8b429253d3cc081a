import { polkadotNetworks, type PolkadotNetworkParameters } from '../families/polkadot/address'
import type { CaipNetworkId, ChainNamespace } from './caip'

/** A network as SPEC §3 describes it. */
export type CaipNetwork = {
  chainNamespace: ChainNamespace
  caipNetworkId: CaipNetworkId
  id: number | string
  name: string
  nativeCurrency: { name: string; symbol: string; decimals: number }
  rpcUrls: { default: { http: string[]; webSocket?: string[] }; chainDefault: { http: string[]; webSocket?: string[] } }
  blockExplorers?: { default: { name: string; url: string } }
  testnet: boolean
  assets?: { imageId?: string; imageUrl?: string }
}

type EvmRow = readonly [id: number, name: string, symbol: string, rpc: string, explorer: string, testnet?: boolean]

/** The 39 EVM networks the hosted RPC ranks (SPEC §7): Ethereum, its major L2s and sidechains, and their testnets. */
const evmRows: readonly EvmRow[] = [
  [1, 'Ethereum', 'ETH', 'https://eth.merkle.io', 'https://etherscan.io'],
  [10, 'OP Mainnet', 'ETH', 'https://mainnet.optimism.io', 'https://optimistic.etherscan.io'],
  [56, 'BNB Smart Chain', 'BNB', 'https://bsc-dataseed.bnbchain.org', 'https://bscscan.com'],
  [100, 'Gnosis', 'xDAI', 'https://rpc.gnosischain.com', 'https://gnosisscan.io'],
  [137, 'Polygon', 'POL', 'https://polygon-rpc.com', 'https://polygonscan.com'],
  [250, 'Fantom', 'FTM', 'https://rpc.ftm.tools', 'https://ftmscan.com'],
  [324, 'ZKsync Era', 'ETH', 'https://mainnet.era.zksync.io', 'https://explorer.zksync.io'],
  [1101, 'Polygon zkEVM', 'ETH', 'https://zkevm-rpc.com', 'https://zkevm.polygonscan.com'],
  [8453, 'Base', 'ETH', 'https://mainnet.base.org', 'https://basescan.org'],
  [42161, 'Arbitrum One', 'ETH', 'https://arb1.arbitrum.io/rpc', 'https://arbiscan.io'],
  [42170, 'Arbitrum Nova', 'ETH', 'https://nova.arbitrum.io/rpc', 'https://nova.arbiscan.io'],
  [42220, 'Celo', 'CELO', 'https://forno.celo.org', 'https://celoscan.io'],
  [43114, 'Avalanche', 'AVAX', 'https://api.avax.network/ext/bc/C/rpc', 'https://snowtrace.io'],
  [59144, 'Linea', 'ETH', 'https://rpc.linea.build', 'https://lineascan.build'],
  [534352, 'Scroll', 'ETH', 'https://rpc.scroll.io', 'https://scrollscan.com'],
  [7777777, 'Zora', 'ETH', 'https://rpc.zora.energy', 'https://explorer.zora.energy'],
  [5000, 'Mantle', 'MNT', 'https://rpc.mantle.xyz', 'https://mantlescan.xyz'],
  [81457, 'Blast', 'ETH', 'https://rpc.blast.io', 'https://blastscan.io'],
  [34443, 'Mode', 'ETH', 'https://mainnet.mode.network', 'https://explorer.mode.network'],
  [1284, 'Moonbeam', 'GLMR', 'https://rpc.api.moonbeam.network', 'https://moonscan.io'],
  [1313161554, 'Aurora', 'ETH', 'https://mainnet.aurora.dev', 'https://explorer.aurora.dev'],
  [25, 'Cronos', 'CRO', 'https://evm.cronos.org', 'https://explorer.cronos.org'],
  [8217, 'Kaia', 'KAIA', 'https://public-en.node.kaia.io', 'https://kaiascan.io'],
  [196, 'X Layer', 'OKB', 'https://rpc.xlayer.tech', 'https://www.oklink.com/xlayer'],
  [11155111, 'Sepolia', 'ETH', 'https://rpc.sepolia.org', 'https://sepolia.etherscan.io', true],
  [17000, 'Holesky', 'ETH', 'https://ethereum-holesky-rpc.publicnode.com', 'https://holesky.etherscan.io', true],
  [11155420, 'OP Sepolia', 'ETH', 'https://sepolia.optimism.io', 'https://sepolia-optimism.etherscan.io', true],
  [84532, 'Base Sepolia', 'ETH', 'https://sepolia.base.org', 'https://sepolia.basescan.org', true],
  [421614, 'Arbitrum Sepolia', 'ETH', 'https://sepolia-rollup.arbitrum.io/rpc', 'https://sepolia.arbiscan.io', true],
  [80002, 'Polygon Amoy', 'POL', 'https://rpc-amoy.polygon.technology', 'https://amoy.polygonscan.com', true],
  [97, 'BNB Smart Chain Testnet', 'tBNB', 'https://data-seed-prebsc-1-s1.bnbchain.org:8545', 'https://testnet.bscscan.com', true],
  [43113, 'Avalanche Fuji', 'AVAX', 'https://api.avax-test.network/ext/bc/C/rpc', 'https://testnet.snowtrace.io', true],
  [10200, 'Gnosis Chiado', 'xDAI', 'https://rpc.chiadochain.net', 'https://gnosis-chiado.blockscout.com', true],
  [300, 'ZKsync Sepolia', 'ETH', 'https://sepolia.era.zksync.dev', 'https://sepolia.explorer.zksync.io', true],
  [59141, 'Linea Sepolia', 'ETH', 'https://rpc.sepolia.linea.build', 'https://sepolia.lineascan.build', true],
  [534351, 'Scroll Sepolia', 'ETH', 'https://sepolia-rpc.scroll.io', 'https://sepolia.scrollscan.com', true],
  [44787, 'Celo Alfajores', 'CELO', 'https://alfajores-forno.celo-testnet.org', 'https://alfajores.celoscan.io', true],
  [999999999, 'Zora Sepolia', 'ETH', 'https://sepolia.rpc.zora.energy', 'https://sepolia.explorer.zora.energy', true],
  [5003, 'Mantle Sepolia', 'MNT', 'https://rpc.sepolia.mantle.xyz', 'https://sepolia.mantlescan.xyz', true],
]

const evm = ([id, name, symbol, rpc, explorer, testnet = false]: EvmRow): CaipNetwork => ({
  chainNamespace: 'eip155',
  caipNetworkId: `eip155:${id}`,
  id,
  name,
  nativeCurrency: { name: symbol === 'ETH' ? 'Ether' : name, symbol, decimals: 18 },
  rpcUrls: { default: { http: [rpc] }, chainDefault: { http: [rpc] } },
  blockExplorers: { default: { name: new URL(explorer).hostname, url: explorer } },
  testnet,
})

const other = (
  chainNamespace: ChainNamespace,
  reference: string,
  name: string,
  nativeCurrency: CaipNetwork['nativeCurrency'],
  rpc: string[],
  testnet: boolean,
  explorer?: string,
): CaipNetwork => ({
  chainNamespace,
  caipNetworkId: `${chainNamespace}:${reference}`,
  id: reference,
  name,
  nativeCurrency,
  rpcUrls: { default: { http: rpc }, chainDefault: { http: rpc } },
  blockExplorers: explorer ? { default: { name: new URL(explorer).hostname, url: explorer } } : undefined,
  testnet,
})

const sol = { name: 'Solana', symbol: 'SOL', decimals: 9 }
const btc = { name: 'Bitcoin', symbol: 'BTC', decimals: 8 }

/**
 * The local stack's Solana chain (services/stack, `npm start`). Its genesis hash is LiteSVM's first blockhash,
 * sha256("genesis") = CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3PECGUCAEMbky on every start, so its CAIP-2 id is fixed.
 * The URLs are the stack's default ports; the stack manifest has the ones it chose.
 */
const solanaLocal: CaipNetwork = {
  ...other('solana', 'CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3', 'Solana Local', sol, ['http://127.0.0.1:8899'], true),
  rpcUrls: {
    default: { http: ['http://127.0.0.1:8899'], webSocket: ['ws://127.0.0.1:8900'] },
    chainDefault: { http: ['http://127.0.0.1:8899'], webSocket: ['ws://127.0.0.1:8900'] },
  },
}

/**
 * The local stack's Bitcoin chain: bcoin regtest (Bitcoin Core's regtest genesis, so the usual regtest CAIP-2 id) behind
 * an Esplora-style API on the stack's default port (services/chain/bitcoin); the stack manifest has the port it chose.
 */
const bitcoinLocal: CaipNetwork = other('bip122', '0f9188f13cb7b2c71f2a335e3a4fc328', 'Bitcoin Regtest', btc, ['http://127.0.0.1:3002'], true)

/**
 * A Polkadot-SDK network: RPC over WebSocket (what @polkadot/api and extensions speak); the same host answers HTTP POST.
 * Name, token and CAIP-2 id come from the one table the worker's client checks addresses against (addresses/polkadot.ts).
 */
const polkadotNetwork = ({ caipNetworkId, name, symbol, decimals }: PolkadotNetworkParameters, host: string, testnet: boolean, explorer?: string): CaipNetwork => {
  const [http, ws] = host.startsWith('127.0.0.1') ? [`http://${host}`, `ws://${host}`] : [`https://${host}`, `wss://${host}`]
  const rpc = { http: [http], webSocket: [ws] }
  return {
    ...other('polkadot', caipNetworkId.slice('polkadot:'.length), name, { name, symbol, decimals }, [http], testnet, explorer),
    rpcUrls: { default: rpc, chainDefault: rpc },
  }
}

/**
 * The local stack's Polkadot chain: chopsticks building the Rococo Asset Hub runtime (ROC, 12 decimals, SS58 prefix 2)
 * on the stack's default port (services/chain/polkadot); the stack manifest has the port it chose.
 */
const polkadotLocal: CaipNetwork = polkadotNetwork(polkadotNetworks.local, '127.0.0.1:9944', true)

/** Every known network: the 39 ranked EVM networks, Solana, Bitcoin, Polkadot and the local dev chains. */
export const knownNetworks: readonly CaipNetwork[] = [
  ...evmRows.map(evm),
  other('solana', '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'Solana', sol, ['https://api.mainnet-beta.solana.com'], false, 'https://solscan.io'),
  other('solana', 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1', 'Solana Devnet', sol, ['https://api.devnet.solana.com'], true, 'https://solscan.io'),
  other('solana', '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z', 'Solana Testnet', sol, ['https://api.testnet.solana.com'], true, 'https://solscan.io'),
  other('bip122', '000000000019d6689c085ae165831e93', 'Bitcoin', btc, [], false, 'https://mempool.space'),
  other('bip122', '000000000933ea01ad0ee984209779ba', 'Bitcoin Testnet', btc, [], true, 'https://mempool.space/testnet'),
  other('bip122', '00000008819873e925422c1ff0f99f7c', 'Bitcoin Signet', btc, [], true, 'https://mempool.space/signet'),
  polkadotNetwork(polkadotNetworks.polkadot, 'rpc.polkadot.io', false, 'https://polkadot.subscan.io'),
  polkadotNetwork(polkadotNetworks.kusama, 'kusama-rpc.polkadot.io', false, 'https://kusama.subscan.io'),
  polkadotNetwork(polkadotNetworks.westend, 'westend-rpc.polkadot.io', true, 'https://westend.subscan.io'),
  { ...evm([31337, 'Tessera Local', 'ETH', 'http://127.0.0.1:8545', 'http://127.0.0.1:8545', true]), blockExplorers: undefined },
  { ...evm([31338, 'Tessera Local 2', 'ETH', 'http://127.0.0.1:8546', 'http://127.0.0.1:8546', true]), blockExplorers: undefined },
  solanaLocal,
  bitcoinLocal,
  polkadotLocal,
]

/** The 39 EVM networks of the hosted RPC's ranked list. */
export const rankedEvmNetworkIds: readonly CaipNetworkId[] = evmRows.map(([id]) => `eip155:${id}` as CaipNetworkId)

const byId = new Map(knownNetworks.map((n) => [n.caipNetworkId, n]))

/** A known network by CAIP-2 id. */
export const getKnownNetwork = (caipNetworkId: string): CaipNetwork | undefined => byId.get(caipNetworkId as CaipNetworkId)

