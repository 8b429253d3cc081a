import { Hono } from 'hono'
import { createPublicClient, erc20Abi, http, parseAbi, type Address, type PublicClient } from 'viem'
import * as z from 'zod/mini'
import { formatUnits } from '../../../src/shared/protocol/display'
import { createLruCache } from '../../../src/shared/protocol/lruCache'
import { resolveLimits, type ApiConfig, type ServiceChain } from '../config'
import { eip155ChainId, evmAddress, text, validate } from './validate'

const BALANCE_CACHE_MS = 30_000
const multicallAbi = parseAbi(['function getEthBalance(address) view returns (uint256)'])

type TokenBalance = {
  name: string
  symbol: string
  chainId: string
  address?: string
  value: number
  price: number
  iconUrl: string
  quantity: { decimals: string; numeric: string }
}

/** USD value of a decimal quantity at a price, in cents precision, without binary-float token maths. */
const usdValue = (numeric: string, price: number) => {
  const [whole = '0', fraction = ''] = numeric.split('.')
  const cents = BigInt(Math.round(price * 100))
  const scaled = (BigInt(`${whole}${fraction.padEnd(18, '0').slice(0, 18)}`) * cents) / 10n ** 18n
  return Number(scaled) / 100
}

const addressParam = z.object({ address: evmAddress })
const balanceQuery = z.object({ chainId: eip155ChainId, currency: z.optional(z.literal('usd')), forceUpdate: z.optional(z.enum(['true', 'false'])) })
const priceBody = z.object({
  currency: z.literal('usd'),
  addresses: z.array(text({ max: 128 })).check(z.maxLength(100, 'must have at most 100 addresses')),
  projectId: text({ max: 128 }),
})

/**
 * Native and token balances read with one multicall from each chain's RPC; USD from the configured prices. Answers are
 * cached 30 s in an LRU of `limits.balanceCacheEntries`; there is one RPC client per configured chain, made up front, so
 * no request can add one.
 */
export function balanceRoutes({ chains, prices = {}, now = Date.now, limits }: ApiConfig) {
  const app = new Hono()
  const clients = new Map<number, PublicClient>(chains.map((chain) => [chain.chainId, createPublicClient({ transport: http(chain.rpcUrl) })]))
  const cache = createLruCache<string, { at: number; balances: TokenBalance[] }>(resolveLimits(limits).balanceCacheEntries)

  const readBalances = async (chain: ServiceChain, owner: Address): Promise<TokenBalance[]> => {
    const client = clients.get(chain.chainId)!
    const results = await client.multicall({
      multicallAddress: chain.multicall3,
      allowFailure: false,
      contracts: [
        { address: chain.multicall3, abi: multicallAbi, functionName: 'getEthBalance', args: [owner] } as const,
        ...chain.tokens.map((t) => ({ address: t.address, abi: erc20Abi, functionName: 'balanceOf', args: [owner] }) as const),
      ] as never,
    })
    const caip = `eip155:${chain.chainId}`
    const entry = (name: string, symbol: string, decimals: number, raw: bigint, address?: string, iconUrl = ''): TokenBalance => {
      const numeric = formatUnits(raw, decimals)
      const price = prices[symbol] ?? 0
      return { name, symbol, chainId: caip, ...(address ? { address: `${caip}:${address}` } : {}), value: usdValue(numeric, price), price, iconUrl, quantity: { decimals: String(decimals), numeric } }
    }
    const [native, ...tokens] = results as bigint[]
    return [
      entry(chain.nativeCurrency.name, chain.nativeCurrency.symbol, chain.nativeCurrency.decimals, native!),
      ...chain.tokens.map((t, i) => entry(t.name, t.symbol, t.decimals, tokens[i]!, t.address, t.iconUrl)),
    ]
  }

  app.get('/v1/account/:address/balance', async (c) => {
    const params = await validate(c, 'param', addressParam)
    if (!params.ok) return params.response
    const query = await validate(c, 'query', balanceQuery)
    if (!query.ok) return query.response
    const chain = chains.find((ch) => `eip155:${ch.chainId}` === query.data.chainId)
    if (!chain) return c.json({ balances: [] })
    const key = `${chain.chainId}:${params.data.address.toLowerCase()}`
    const cached = cache.get(key)
    if (cached && query.data.forceUpdate !== 'true' && now() - cached.at < BALANCE_CACHE_MS) return c.json({ balances: cached.balances })
    const balances = await readBalances(chain, params.data.address as Address)
    cache.set(key, { at: now(), balances })
    return c.json({ balances })
  })

  app.post('/v1/fungible/price', async (c) => {
    const body = await validate(c, 'json', priceBody)
    if (!body.ok) return body.response
    const fungibles = body.data.addresses.flatMap((caipAddress) => {
      const [namespace, reference, address] = caipAddress.split(':')
      const chain = chains.find((ch) => namespace === 'eip155' && String(ch.chainId) === reference)
      const token = chain?.tokens.find((t) => t.address.toLowerCase() === address?.toLowerCase())
      return token ? [{ name: token.name, symbol: token.symbol, iconUrl: token.iconUrl ?? '', price: prices[token.symbol] ?? 0 }] : []
    })
    return c.json({ fungibles })
  })
  return app
}
