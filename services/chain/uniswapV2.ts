import { createRequire } from 'node:module'
import { createWalletClient, erc20Abi, getAddress, http, keccak256, maxUint256, parseUnits, publicActions, stringToHex, type Abi, type Address, type Chain, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

const require = createRequire(import.meta.url)
type Artifact = { abi: Abi; bytecode: string }
/** The published build artifacts, bytecode unmodified (it comes without its 0x). */
const artifact = (path: string) => {
  const { abi, bytecode } = require(path) as Artifact
  return { abi, bytecode: `0x${bytecode.replace(/^0x/, '')}` as Hex }
}
export const uniswapV2Artifacts = {
  weth9: artifact('@uniswap/v2-periphery/build/WETH9.json'),
  factory: artifact('@uniswap/v2-core/build/UniswapV2Factory.json'),
  router02: artifact('@uniswap/v2-periphery/build/UniswapV2Router02.json'),
  pair: artifact('@uniswap/v2-core/build/UniswapV2Pair.json'),
}

/**
 * The local chains' liquidity provider: a key of its own (not a dev account, whose balances and nonces the tests read),
 * funded by anvil at seeding. TEST-ONLY, derivable by anyone: never send real funds to it.
 */
export const liquidityProviderKey: Hex = keccak256(stringToHex('tessera local liquidity provider'))
export const liquidityProvider: Address = privateKeyToAccount(liquidityProviderKey).address

/** A pool as seeded: its two sides by symbol ('ETH' is the wrapped native currency) and how much of each. */
export type PoolSeed = { a: string; amountA: string; b: string; amountB: string }

/**
 * The demo pools at the demo prices (ETH $3,000, TUSD $1, TSR $2.50): deep enough that a demo swap moves the price
 * little, shallow enough that a trade of a few ETH moves it past the slippage tolerance.
 */
export const demoPools: readonly PoolSeed[] = [
  { a: 'ETH', amountA: '100', b: 'TUSD', amountB: '300000' },
  { a: 'ETH', amountA: '5', b: 'TSR', amountB: '6000' },
  { a: 'TUSD', amountA: '5000', b: 'TSR', amountB: '2000' },
]

export type UniswapV2Deployment = {
  weth: Address
  factory: Address
  router: Address
  /** Each seeded pool: its pair contract and its two tokens (the wrapped native for ETH). */
  pairs: { address: Address; token0: Address; token1: Address; symbols: [string, string] }[]
}

export type DeployUniswapV2Parameters = {
  rpcUrl: string
  chain: Chain
  /** The chain's tokens by symbol (the liquidity provider must hold them). */
  tokens: readonly { address: Address; symbol: string; decimals: number }[]
  pools?: readonly PoolSeed[]
}

/**
 * Deploys WETH9, UniswapV2Factory and UniswapV2Router02 from the published npm artifacts, signed by the liquidity
 * provider (who needs ETH and the tokens), then adds each pool's liquidity through the router. Needs automine.
 * @example const uniswap = await deployUniswapV2({ rpcUrl, chain, tokens })
 */
export async function deployUniswapV2({ rpcUrl, chain, tokens, pools = demoPools }: DeployUniswapV2Parameters): Promise<UniswapV2Deployment> {
  const account = privateKeyToAccount(liquidityProviderKey)
  const client = createWalletClient({ account, chain, transport: http(rpcUrl) }).extend(publicActions)
  const mined = async (hash: Hex, what: string) => {
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    if (receipt.status !== 'success') throw new Error(`${what} failed on ${rpcUrl}`)
    return receipt
  }
  const deploy = async (name: string, { abi, bytecode }: { abi: Abi; bytecode: Hex }, args: unknown[]) => {
    const receipt = await mined(await client.deployContract({ abi, bytecode, args }), `deploying ${name}`)
    if (!receipt.contractAddress) throw new Error(`deploying ${name} on ${rpcUrl} created no contract`)
    return getAddress(receipt.contractAddress)
  }

  const weth = await deploy('WETH9', uniswapV2Artifacts.weth9, [])
  const factory = await deploy('UniswapV2Factory', uniswapV2Artifacts.factory, [account.address])
  const router = await deploy('UniswapV2Router02', uniswapV2Artifacts.router02, [factory, weth])

  const bySymbol = new Map(tokens.map((token) => [token.symbol, token]))
  const tokenOf = (symbol: string) => {
    const token = bySymbol.get(symbol)
    if (!token) throw new Error(`no token ${symbol} on ${rpcUrl} for a Uniswap V2 pool`)
    return token
  }
  for (const token of tokens) {
    await mined(await client.writeContract({ address: token.address, abi: erc20Abi, functionName: 'approve', args: [router, maxUint256] }), `approving ${token.symbol}`)
  }

  const deadline = () => BigInt(Math.floor(Date.now() / 1_000) + 600)
  const pairs: UniswapV2Deployment['pairs'] = []
  for (const pool of pools) {
    const { abi } = uniswapV2Artifacts.router02
    if (pool.a === 'ETH' || pool.b === 'ETH') {
      const [native, token] = pool.a === 'ETH' ? [pool.amountA, tokenOf(pool.b)] : [pool.amountB, tokenOf(pool.a)]
      const amount = parseUnits(pool.a === 'ETH' ? pool.amountB : pool.amountA, token.decimals)
      const hash = await client.writeContract({ address: router, abi, functionName: 'addLiquidityETH', args: [token.address, amount, amount, parseUnits(native, 18), account.address, deadline()], value: parseUnits(native, 18) })
      await mined(hash, `adding ETH/${token.symbol} liquidity`)
    } else {
      const [a, b] = [tokenOf(pool.a), tokenOf(pool.b)]
      const [amountA, amountB] = [parseUnits(pool.amountA, a.decimals), parseUnits(pool.amountB, b.decimals)]
      const hash = await client.writeContract({ address: router, abi, functionName: 'addLiquidity', args: [a.address, b.address, amountA, amountB, amountA, amountB, account.address, deadline()] })
      await mined(hash, `adding ${a.symbol}/${b.symbol} liquidity`)
    }
    const addressOf = (symbol: string) => (symbol === 'ETH' ? weth : tokenOf(symbol).address)
    const pair = (await client.readContract({ address: factory, abi: uniswapV2Artifacts.factory.abi, functionName: 'getPair', args: [addressOf(pool.a), addressOf(pool.b)] })) as Address
    const [token0, token1] = [addressOf(pool.a), addressOf(pool.b)].sort((x, y) => (x.toLowerCase() < y.toLowerCase() ? -1 : 1)) as [Address, Address]
    pairs.push({ address: getAddress(pair), token0, token1, symbols: [pool.a, pool.b] })
  }
  return { weth, factory, router, pairs }
}
