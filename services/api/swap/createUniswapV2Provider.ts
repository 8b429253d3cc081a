import {
  BaseError,
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  http,
  HttpRequestError,
  maxUint256,
  parseAbi,
  TimeoutError,
  zeroAddress,
  type Address,
  type Hex,
  type Transport,
} from 'viem'
import { NATIVE_TOKEN_ADDRESS } from '../../../src/shared/protocol/schemas/convert'
import { createLruCache } from '../../../src/shared/protocol/lruCache'
import type { ServiceChain, ServiceSwapConfig } from '../config'
import { SwapInputError, SwapUpstreamError, type SwapProvider, type SwapProviderQuote, type SwapProviderToken, type SwapProviderTransaction } from './swapProvider'
import { getAmountsOut, priceImpactPercent, type PoolReserves } from './uniswapV2Amounts'

export type CreateUniswapV2ProviderParameters = {
  chain: ServiceChain
  swap: ServiceSwapConfig
  /** Quotes kept, least recently used dropped first: each is for one block, so old ones are never asked again. */
  quoteCacheEntries?: number
  /** The pools' reserves kept per block and pair of tokens, least recently used dropped first. */
  reserveCacheEntries?: number
  /**
   * How the chain is reached; by default JSON-RPC over HTTP to `chain.rpcUrl`, each call given `rpcTimeoutMs` and
   * retried once, so a hanging node costs a request about twice that, not viem's 4 × 10 s.
   */
  transport?: Transport
  rpcTimeoutMs?: number
  now?: () => number
}

export type UniswapV2Provider = SwapProvider & {
  /** Entries in the caches now (for tests and benchmarks). */
  cacheSizes(): { quotes: number; reserves: number }
}

/** How long a built swap stays valid: the Uniswap interface's default deadline. */
export const SWAP_DEADLINE_S = 20 * 60
/** What any transaction costs at least. */
const INTRINSIC_GAS = 21_000n
/** Added to the node's estimates: what it estimates now can grow by the time the transaction is mined. */
const GAS_MARGIN_PERCENT = 20n
/** Gas of an approval when the node cannot estimate it (an ERC-20 approve of a fresh allowance takes about 46,000). */
const APPROVE_GAS = 60_000n
/**
 * Gas of a swap by its shape, an upper bound, since a swap built without an estimate (`disableEstimate`) is sent with
 * it as its gas limit. UniswapV2Router02 on anvil took at most 147,000 for one pool and 239,000 for two, on each pair's
 * first trade in a later second than its last (its price accumulators written from zero) and to a receiver new to the
 * token; these are about 15 % above. (A route through WETH never pays out or takes in the native currency: those are
 * one pool.) createUniswapV2Provider.test.ts sends each shape with them.
 */
const swapGas = (hops: number) => (hops === 1 ? 175_000n : 275_000n)

const factoryAbi = parseAbi(['function getPair(address tokenA, address tokenB) view returns (address pair)'])
const pairAbi = parseAbi(['function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)'])
const routerAbi = parseAbi([
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
])

/** A route through pools: its tokens as the router's path takes them (the wrapped native for the native currency). */
type Candidate = { path: Address[]; pools: PoolReserves[] }

const lower = (address: string) => address.toLowerCase()
const pairKey = (a: Address, b: Address) => [lower(a), lower(b)].sort().join(':')

/** The node could not be reached at all (refused, reset, timed out), as opposed to answering something unusable. */
const isUnreachable = (error: unknown) =>
  error instanceof BaseError &&
  error.walk((cause) => cause instanceof TimeoutError || (cause instanceof HttpRequestError && cause.status === undefined && !(cause.cause instanceof SyntaxError))) !== null

/**
 * A swap provider for a Uniswap-V2-compatible router (UniswapV2Router02 and its forks): quotes computed from the pools'
 * reserves at the latest block (the router's own getAmountsOut formula), direct or through the wrapped native currency,
 * whichever pays more; swaps and approvals encoded for the router. Reads go through the chain's Multicall3.
 * Quotes are cached per block in an LRU of `quoteCacheEntries`, reserves per block and token pair in one of
 * `reserveCacheEntries`; the latest block number is read once per request (concurrent requests share one read).
 * @example const provider = createUniswapV2Provider({ chain, swap: chain.swap! })
 */
export function createUniswapV2Provider({
  chain,
  swap,
  quoteCacheEntries = 10_000,
  reserveCacheEntries = 1_024,
  rpcTimeoutMs = 5_000,
  transport = http(chain.rpcUrl, { timeout: rpcTimeoutMs, retryCount: 1 }),
  now = Date.now,
}: CreateUniswapV2ProviderParameters): UniswapV2Provider {
  const client = createPublicClient({ transport })
  const weth = getAddress(swap.wrappedNative)
  const router = getAddress(swap.router)
  const source = { name: swap.name, router }
  const native: SwapProviderToken = { address: NATIVE_TOKEN_ADDRESS, ...chain.nativeCurrency }
  const tokenList: SwapProviderToken[] = [native, ...chain.tokens.filter((t) => lower(t.address) !== NATIVE_TOKEN_ADDRESS).map((t) => ({ ...t, address: getAddress(t.address) }))]
  const tokensByAddress = new Map(tokenList.map((t) => [lower(t.address), t]))
  // Pairs exist for good once created: found ones are kept (at most one per two configured tokens), missing ones asked again.
  const pairs = new Map<string, Address>()
  const quotes = createLruCache<string, SwapProviderQuote>(quoteCacheEntries)
  const reserves = createLruCache<string, Candidate[]>(reserveCacheEntries)
  const reservesInFlight = new Map<string, Promise<Candidate[]>>()
  let blockNumberInFlight: Promise<bigint> | undefined

  /** Runs a read of the chain; any failure becomes a SwapUpstreamError naming the chain (the node's text stays in cause). */
  const upstream = async <T>(read: () => Promise<T>): Promise<T> => {
    try {
      return await read()
    } catch (cause) {
      throw new SwapUpstreamError(isUnreachable(cause) ? 'unreachable' : 'invalid', chain.name, { cause })
    }
  }

  const tokenOf = (address: Address, field: 'from' | 'to' | 'token') => {
    const token = tokensByAddress.get(lower(address))
    if (!token) throw new SwapInputError(field, `is not a token ${swap.name} trades on ${chain.name}`)
    return token
  }
  const pathToken = (address: Address) => (lower(address) === NATIVE_TOKEN_ADDRESS ? weth : getAddress(address))
  const isNative = (address: Address) => lower(address) === NATIVE_TOKEN_ADDRESS

  const latestBlockNumber = () =>
    (blockNumberInFlight ??= upstream(() => client.getBlockNumber({ cacheTime: 0 })).finally(() => {
      blockNumberInFlight = undefined
    }))

  /** The routes from `a` to `b` whose pools all exist, with their reserves at `blockNumber`: direct, and through WETH. */
  const readCandidates = async (a: Address, b: Address, blockNumber: bigint): Promise<Candidate[]> => {
    const paths: Address[][] = [[a, b], ...(a !== weth && b !== weth ? [[a, weth, b]] : [])]
    const hops = [...new Map(paths.flatMap((path) => path.slice(1).map((to, i) => [pairKey(path[i]!, to), [path[i]!, to] as const]))).values()]
    const unknown = hops.filter(([x, y]) => !pairs.has(pairKey(x, y)))
    if (unknown.length > 0) {
      const found = await upstream(() =>
        client.multicall({
          multicallAddress: chain.multicall3,
          allowFailure: false,
          contracts: unknown.map(([x, y]) => ({ address: swap.factory, abi: factoryAbi, functionName: 'getPair', args: [x, y] }) as const),
        }),
      )
      found.forEach((pair, i) => {
        if (pair !== zeroAddress) pairs.set(pairKey(...unknown[i]!), getAddress(pair))
      })
    }
    const known = hops.filter(([x, y]) => pairs.has(pairKey(x, y)))
    const read = known.length === 0 ? [] : await upstream(() =>
      client.multicall({
        multicallAddress: chain.multicall3,
        allowFailure: false,
        blockNumber,
        contracts: known.map(([x, y]) => ({ address: pairs.get(pairKey(x, y))!, abi: pairAbi, functionName: 'getReserves' }) as const),
      }),
    )
    // Reserves by pair, in the pair's token order (token0 is the lower address).
    const byPair = new Map(known.map(([x, y], i) => [pairKey(x, y), read[i]!]))
    return paths.flatMap((path) => {
      const pools: PoolReserves[] = []
      for (let i = 0; i + 1 < path.length; i++) {
        const [tokenIn, tokenOut] = [path[i]!, path[i + 1]!]
        const pair = byPair.get(pairKey(tokenIn, tokenOut))
        if (!pair) return []
        const [reserve0, reserve1] = pair
        pools.push(lower(tokenIn) < lower(tokenOut) ? { reserveIn: reserve0, reserveOut: reserve1 } : { reserveIn: reserve1, reserveOut: reserve0 })
      }
      return [{ path, pools }]
    })
  }

  const candidatesAt = async (a: Address, b: Address, blockNumber: bigint) => {
    const key = `${blockNumber}:${lower(a)}:${lower(b)}`
    const cached = reserves.get(key)
    if (cached) return cached
    let pending = reservesInFlight.get(key)
    if (!pending) {
      pending = readCandidates(a, b, blockNumber)
        .then((candidates) => {
          reserves.set(key, candidates)
          return candidates
        })
        .finally(() => reservesInFlight.delete(key))
      reservesInFlight.set(key, pending)
    }
    return pending
  }

  const quote: SwapProvider['quote'] = async ({ from, to, amount }) => {
    const [fromToken, toToken] = [tokenOf(from, 'from'), tokenOf(to, 'to')]
    const [a, b] = [pathToken(from), pathToken(to)]
    if (a === b) throw new SwapInputError('to', `must be another token than from (${fromToken.symbol})`)
    if (amount <= 0n || amount > maxUint256) throw new SwapInputError('amount', 'must be from 1 to 2^256-1')
    const blockNumber = await latestBlockNumber()
    const key = `${blockNumber}:${lower(from)}:${lower(to)}:${amount}`
    const cached = quotes.get(key)
    if (cached) return cached

    const candidates = await candidatesAt(a, b, blockNumber)
    const results = candidates.map((candidate) => ({ candidate, result: getAmountsOut(amount, candidate.pools) }))
    // The route paying most; on a tie, the shorter one (listed first).
    let best: { candidate: Candidate; amounts: bigint[] } | undefined
    for (const { candidate, result } of results) {
      if (result.ok && (!best || result.amounts.at(-1)! > best.amounts.at(-1)!)) best = { candidate, amounts: result.amounts }
    }
    if (!best) {
      const reasons = new Set(results.map(({ result }) => (result.ok ? undefined : result.reason)))
      if (reasons.has('tooSmall')) throw new SwapInputError('amount', `is too small to buy any ${toToken.symbol}`)
      if (reasons.has('tooLarge')) throw new SwapInputError('amount', `is more than the pools of ${swap.name} can trade`)
      throw new SwapInputError('to', `no pool of ${swap.name} on ${chain.name} trades ${fromToken.symbol} for ${toToken.symbol}, directly or through ${chain.nativeCurrency.symbol}`, { code: 'SWAP_NO_ROUTE' })
    }
    const { candidate, amounts } = best
    const result: SwapProviderQuote = {
      from: fromToken.address,
      to: toToken.address,
      amountIn: amount,
      amountOut: amounts.at(-1)!,
      route: [fromToken.address, ...candidate.path.slice(1, -1), toToken.address],
      priceImpactPercent: priceImpactPercent(amount, amounts.at(-1)!, candidate.pools),
      source,
      blockNumber,
      gas: swapGas(candidate.pools.length),
    }
    quotes.set(key, result)
    return result
  }

  const gasPriceNow = () => upstream(() => client.getGasPrice())
  /**
   * The node's estimate for `owner` plus {@link GAS_MARGIN_PERCENT}, or undefined when it has none (the swap would
   * revert now: no allowance or balance yet) or one below a transaction's intrinsic 21,000 (a node answering another
   * request's result).
   */
  const estimate = (owner: Address, to: Address, data: Hex, value: bigint) =>
    client.estimateGas({ account: owner, to, data, value }).then(
      (gas) => (gas >= INTRINSIC_GAS ? (gas * (100n + GAS_MARGIN_PERCENT)) / 100n : undefined),
      () => undefined,
    )

  return {
    tokens: () => tokenList,
    quote,

    async allowance({ token, owner }) {
      if (isNative(tokenOf(token, 'token').address)) return maxUint256
      return upstream(() => client.readContract({ address: getAddress(token), abi: erc20Abi, functionName: 'allowance', args: [owner, router] }))
    },

    async buildApprove({ owner, token, amount }) {
      const { address, symbol } = tokenOf(token, 'token')
      if (isNative(address)) throw new SwapInputError('token', `is ${symbol}, the native currency: it is swapped without an approval`)
      if (amount <= 0n || amount > maxUint256) throw new SwapInputError('amount', 'must be from 1 to 2^256-1')
      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, amount] })
      const [gasPrice, estimated] = await Promise.all([gasPriceNow(), estimate(owner, address, data, 0n)])
      const gas = estimated ?? APPROVE_GAS
      return { from: owner, to: address, data, value: 0n, gas, gasPrice }
    },

    async buildSwap({ from, to, amount, owner, slippagePercent, disableEstimate = false }) {
      const found = await quote({ from, to, amount })
      // Slippage to a millionth of the amount: 1 % is 10,000 millionths.
      const slippageMillionths = BigInt(Math.round(slippagePercent * 10_000))
      const minimumReceived = (found.amountOut * (1_000_000n - slippageMillionths)) / 1_000_000n
      const deadline = Math.floor(now() / 1_000) + SWAP_DEADLINE_S
      const path = [pathToken(from), ...found.route.slice(1, -1), pathToken(to)]
      const args = [minimumReceived, path, owner, BigInt(deadline)] as const
      const data: Hex = isNative(from)
        ? encodeFunctionData({ abi: routerAbi, functionName: 'swapExactETHForTokens', args })
        : encodeFunctionData({ abi: routerAbi, functionName: isNative(to) ? 'swapExactTokensForETH' : 'swapExactTokensForTokens', args: [amount, ...args] })
      const value = isNative(from) ? amount : 0n
      const [gasPrice, estimated] = await Promise.all([gasPriceNow(), disableEstimate ? undefined : estimate(owner, router, data, value)])
      // Never below the route's bound: an estimate made in the same second as the last block misses the price
      // accumulators' writes that the swap, mined a second later, makes (up to 44,000 gas a pool on a pair's first).
      const gas = estimated !== undefined && estimated > found.gas ? estimated : found.gas
      const tx: SwapProviderTransaction = { from: owner, to: router, data, value, gas, gasPrice }
      return { tx, quote: found, minimumReceived, deadline }
    },

    async gasPrice() {
      const standard = await gasPriceNow()
      return { standard, fast: (standard * 110n) / 100n, instant: (standard * 125n) / 100n }
    },

    cacheSizes: () => ({ quotes: quotes.size, reserves: reserves.size }),
  }
}
