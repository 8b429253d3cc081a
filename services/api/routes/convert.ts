import { readdirSync } from 'node:fs'
import { Hono, type Context } from 'hono'
import { BaseError, isAddress, maxUint256, type Address } from 'viem'
import * as z from 'zod/mini'
import {
  DEFAULT_SWAP_SLIPPAGE_PERCENT,
  MAX_SWAP_SLIPPAGE_PERCENT,
  MIN_SWAP_SLIPPAGE_PERCENT,
  NATIVE_TOKEN_ADDRESS,
  type SwapApproveTransaction,
  type SwapQuote,
  type SwapToken,
  type SwapTransaction,
} from '../../../src/shared/protocol/schemas/convert'
import { errorBody, escapeForLog, type ApiConfig, type ServiceChain } from '../config'
import { createUniswapV2Provider } from '../swap/createUniswapV2Provider'
import { SwapInputError, SwapUpstreamError, type SwapInputField, type SwapProvider, type SwapProviderQuote, type SwapProviderTransaction } from '../swap/swapProvider'
import { text, validate } from './validate'

const assetsDir = new URL('../assets/', import.meta.url)

/** A field every request must carry: its absence is said so, with what it should hold. */
const required = (schema: z.ZodMiniString<string>, what: string) =>
  z.pipe(z.string({ error: (issue) => (issue.input === undefined ? `is required: ${what}` : `must be a string: ${what}`) }), schema)

const isDigits = (value: string) => /^\d{1,78}$/.test(value)
/** An amount in base units: 1 to 2^256-1, digits only. */
const units = text({ max: 78, pattern: /^\d+$/, patternMessage: 'Expected a whole number of base units: digits only, no sign, decimal point or exponent' }).check(
  z.refine((value) => !isDigits(value) || BigInt(value) > 0n, 'must be greater than 0'),
  z.refine((value) => !isDigits(value) || BigInt(value) <= maxUint256, 'must be at most 2^256-1'),
)
/** A 0x address; a mixed-case one must carry a valid EIP-55 checksum (a typo in it would send funds astray). */
const userAddress = text({ max: 42, pattern: /^0x[0-9a-fA-F]{40}$/, patternMessage: 'Expected a 0x address of 40 hex digits' }).check(
  z.refine((value) => !/^0x[0-9a-fA-F]{40}$/.test(value) || isAddress(value, { strict: true }), 'has an invalid EIP-55 checksum: check it, or send it in lower case'),
)
/** A CAIP-10 id of a token; its network and address are checked against the configured chains afterwards. */
const tokenId = text({ max: 175, pattern: /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}:[-.%a-zA-Z0-9]{1,128}$/, patternMessage: 'Expected a CAIP-10 token id: eip155:{chainId}:0x… (the native currency as 0xeeee…eeee)' })
/** A network: CAIP-2 (eip155:31337) or the bare EVM chain id (31337). */
const networkId = text({ max: 41, pattern: /^(?:[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}|\d{1,16})$/, patternMessage: 'Expected a CAIP-2 network id such as eip155:31337, or a chain id' })
const slippagePercent = z.pipe(
  z.union([z.number(), text({ max: 32, pattern: /^\d{1,16}(?:\.\d{1,15})?$/ })], { error: `Expected a percent from ${MIN_SWAP_SLIPPAGE_PERCENT} to ${MAX_SWAP_SLIPPAGE_PERCENT}, as a number or a numeric string` }),
  z.pipe(
    z.transform(Number),
    z.number().check(z.gte(MIN_SWAP_SLIPPAGE_PERCENT, `must be at least ${MIN_SWAP_SLIPPAGE_PERCENT} (percent)`), z.lte(MAX_SWAP_SLIPPAGE_PERCENT, `must be at most ${MAX_SWAP_SLIPPAGE_PERCENT} (percent)`)),
  ),
)

const quoteQuery = z.object({
  from: required(tokenId, 'the CAIP-10 id of the token sold'),
  to: required(tokenId, 'the CAIP-10 id of the token bought'),
  amount: required(units, 'the amount sold, in base units'),
  userAddress: z.optional(userAddress),
  gasPrice: z.optional(units),
})
const allowanceQuery = z.object({
  tokenAddress: required(tokenId, 'the CAIP-10 id of the token'),
  userAddress: required(userAddress, "the owner's 0x address"),
})
const approveQuery = z.object({
  userAddress: required(userAddress, "the owner's 0x address"),
  from: required(tokenId, 'the CAIP-10 id of the token to approve'),
  to: required(tokenId, 'the CAIP-10 id of the token bought'),
  amount: required(units, 'the amount to approve, in base units (exactly the amount to swap)'),
})
const swapBody = z.object({
  amount: required(units, 'the amount sold, in base units'),
  from: required(tokenId, 'the CAIP-10 id of the token sold'),
  to: required(tokenId, 'the CAIP-10 id of the token bought'),
  userAddress: required(userAddress, "the owner's 0x address"),
  eip155: z.optional(z.object({ slippage: z.optional(slippagePercent) })),
  disableEstimate: z.optional(z.boolean()),
  projectId: z.optional(text({ max: 128 })),
})
const networkQuery = z.object({ chainId: required(networkId, 'the CAIP-2 network id') })

const networkOf = (caipId: string) => caipId.split(':').slice(0, 2).join(':')
const addressOf = (caipId: string) => caipId.split(':')[2]!
const toNetworkId = (id: string) => (/^\d+$/.test(id) ? `eip155:${Number(id)}` : id)

type ChainSwaps = { chain: ServiceChain; network: string; provider: SwapProvider }
type FieldNames = Partial<Record<SwapInputField, string>>

const unsupportedSwaps = (c: Context, field: string) => c.json(errorBody('SWAP_NETWORK_UNSUPPORTED', 'Network not supported for Swaps', field), 400)
const unsupportedGasPrice = (c: Context) => c.json(errorBody('GAS_PRICE_NETWORK_UNSUPPORTED', 'Network not supported for Gas Price', 'chainId'), 400)

const caip = (network: string, address: Address) => `${network}:${address}`
const transaction = ({ from, to, data, gas, gasPrice }: SwapProviderTransaction) => ({ from, to, data, eip155: { gas: String(gas), gasPrice: String(gasPrice) } })

/**
 * The swap routes (SPEC §7 `/v1/convert/*`): tokens, quotes, allowance, gas price, and the approval and swap
 * transactions to sign, from each chain's swap provider (`ServiceChain.swap`; a Uniswap-V2-compatible router for now),
 * made up front, one per chain. The chain of a call is read from its CAIP-10 token ids (or `chainId`); a chain without
 * a provider answers 'Network not supported for Swaps' ('... for Gas Price' for gas-price), as does every call when no
 * chain has one. Bad input answers 400 naming the field; a node that fails, 503 (unreachable) or 502 (unusable answer)
 * with a sentence, its own text only in the log.
 * @example app.route('/', convertRoutes(config))
 */
export function convertRoutes({ chains, now = Date.now, log = console.error }: ApiConfig) {
  const app = new Hono()
  const swapChains = new Map<string, ChainSwaps>(
    chains.flatMap((chain) =>
      chain.swap?.kind === 'uniswapV2' ? [[`eip155:${chain.chainId}`, { chain, network: `eip155:${chain.chainId}`, provider: createUniswapV2Provider({ chain, swap: chain.swap, now }) }] as const] : [],
    ),
  )
  const hasSwaps = swapChains.size > 0
  const iconFiles = (() => {
    try {
      return new Set(readdirSync(assetsDir))
    } catch {
      return new Set<string>()
    }
  })()

  /**
   * The swap chain of the first token id, every other on the same network, each an 0x address: else the answer that
   * says what is wrong.
   */
  const resolveTokens = (c: Context, [first, ...rest]: [string, string][]): ChainSwaps | Response => {
    const [firstField, firstId] = first!
    const chainSwaps = swapChains.get(networkOf(firstId))
    if (!chainSwaps) return unsupportedSwaps(c, firstField)
    for (const [field, id] of rest) {
      if (networkOf(id) !== chainSwaps.network) return c.json(errorBody('INVALID_INPUT', `${field}: must be on the same network as ${firstField} (${chainSwaps.network})`, field), 400)
    }
    for (const [field, id] of [first!, ...rest]) {
      if (!/^0x[0-9a-fA-F]{40}$/.test(addressOf(id))) return c.json(errorBody('INVALID_INPUT', `${field}: Expected a 0x address of 40 hex digits after the network id`, field), 400)
    }
    return chainSwaps
  }

  /** Runs a provider call; its refusals answer 400 naming the request's field, a failing node 503 or 502. */
  const answer = async (c: Context, failure: string, fields: FieldNames, run: () => Promise<Response>) => {
    try {
      return await run()
    } catch (error) {
      if (error instanceof SwapInputError) {
        const field = fields[error.field] ?? error.field
        return c.json(errorBody(error.code, `${field}: ${error.message}`, field), 400)
      }
      if (error instanceof SwapUpstreamError) {
        const cause = error.cause instanceof BaseError ? error.cause.shortMessage : error.cause instanceof Error ? error.cause.message : String(error.cause)
        log(escapeForLog(`data service: ${c.req.method} ${c.req.path}: ${error.message}: ${cause.slice(0, 500)}`))
        const [status, code] = error.kind === 'unreachable' ? ([503, 'SWAP_NODE_UNREACHABLE'] as const) : ([502, 'SWAP_NODE_INVALID_ANSWER'] as const)
        return c.json(errorBody(code, `${error.message}, so ${failure}. Try again in a moment.`), status)
      }
      throw error
    }
  }

  app.get('/v1/convert/tokens', async (c) => {
    if (!hasSwaps) return unsupportedSwaps(c, 'chainId')
    const query = await validate(c, 'query', networkQuery)
    if (!query.ok) return query.response
    const chainSwaps = swapChains.get(toNetworkId(query.data.chainId))
    if (!chainSwaps) return unsupportedSwaps(c, 'chainId')
    const { network, provider } = chainSwaps
    // Our own images (the assets route) for tokens configured without one; the URL is the one this request came to.
    const assetUrl = (asset: string) => `${new URL(c.req.url).origin}/v1/assets/tokens/${network}/${asset}?projectId=${encodeURIComponent(c.req.query('projectId') ?? '')}`
    const tokens: SwapToken[] = provider.tokens().map(({ address, name, symbol, decimals, iconUrl }) => {
      const isNative = address === NATIVE_TOKEN_ADDRESS
      const ownImage = isNative ? (symbol === 'ETH' && iconFiles.has('ethereum.svg') ? assetUrl('slip44:60') : '') : iconFiles.has(`token-${symbol.toLowerCase()}.svg`) ? assetUrl(`erc20:${address}`) : ''
      return { name, symbol, address: caip(network, address), decimals, logoUri: iconUrl ?? ownImage }
    })
    return c.json({ tokens })
  })

  app.get('/v1/convert/quotes', async (c) => {
    if (!hasSwaps) return unsupportedSwaps(c, 'chainId')
    const query = await validate(c, 'query', quoteQuery)
    if (!query.ok) return query.response
    const { from, to, amount } = query.data
    const chainSwaps = resolveTokens(c, [['from', from], ['to', to]])
    if (chainSwaps instanceof Response) return chainSwaps
    return answer(c, 'no quote could be read', { from: 'from', to: 'to', amount: 'amount' }, async () => {
      const quote = await chainSwaps.provider.quote({ from: addressOf(from) as Address, to: addressOf(to) as Address, amount: BigInt(amount) })
      return c.json({ quotes: [quoteAnswer(chainSwaps.network, quote)] })
    })
  })

  app.get('/v1/convert/allowance', async (c) => {
    if (!hasSwaps) return unsupportedSwaps(c, 'tokenAddress')
    const query = await validate(c, 'query', allowanceQuery)
    if (!query.ok) return query.response
    const { tokenAddress, userAddress: owner } = query.data
    const chainSwaps = resolveTokens(c, [['tokenAddress', tokenAddress]])
    if (chainSwaps instanceof Response) return chainSwaps
    return answer(c, 'the allowance could not be read', { token: 'tokenAddress' }, async () => {
      const allowance = await chainSwaps.provider.allowance({ token: addressOf(tokenAddress) as Address, owner: owner as Address })
      return c.json({ allowance: String(allowance) })
    })
  })

  app.get('/v1/convert/gas-price', async (c) => {
    if (!hasSwaps) return unsupportedGasPrice(c)
    const query = await validate(c, 'query', networkQuery)
    if (!query.ok) return query.response
    const chainSwaps = swapChains.get(toNetworkId(query.data.chainId))
    if (!chainSwaps) return unsupportedGasPrice(c)
    return answer(c, 'the gas price could not be read', {}, async () => {
      const { standard, fast, instant } = await chainSwaps.provider.gasPrice()
      return c.json({ standard: String(standard), fast: String(fast), instant: String(instant) })
    })
  })

  app.get('/v1/convert/build-approve', async (c) => {
    if (!hasSwaps) return unsupportedSwaps(c, 'from')
    const query = await validate(c, 'query', approveQuery)
    if (!query.ok) return query.response
    const { userAddress: owner, from, to, amount } = query.data
    const chainSwaps = resolveTokens(c, [['from', from], ['to', to]])
    if (chainSwaps instanceof Response) return chainSwaps
    // The approval is of `from` alone; `to` is checked as a quote would check it, so the approval is for a swap that can be.
    const traded = new Set(chainSwaps.provider.tokens().map((token) => token.address.toLowerCase()))
    if (!traded.has(addressOf(to).toLowerCase())) return c.json(errorBody('INVALID_INPUT', `to: is not a token ${chainSwaps.chain.swap!.name} trades on ${chainSwaps.chain.name}`, 'to'), 400)
    if (from.toLowerCase() === to.toLowerCase()) return c.json(errorBody('INVALID_INPUT', 'to: must be another token than from', 'to'), 400)
    return answer(c, 'the approval could not be built', { token: 'from', amount: 'amount' }, async () => {
      const tx = await chainSwaps.provider.buildApprove({ owner: owner as Address, token: addressOf(from) as Address, amount: BigInt(amount) })
      const approval: SwapApproveTransaction = { tx: { ...transaction(tx), value: String(tx.value) } }
      return c.json(approval)
    })
  })

  app.post('/v1/convert/build-transaction', async (c) => {
    if (!hasSwaps) return unsupportedSwaps(c, 'from')
    const body = await validate(c, 'json', swapBody)
    if (!body.ok) return body.response
    const { amount, from, to, userAddress: owner, eip155, disableEstimate } = body.data
    const chainSwaps = resolveTokens(c, [['from', from], ['to', to]])
    if (chainSwaps instanceof Response) return chainSwaps
    return answer(c, 'the swap transaction could not be built', { from: 'from', to: 'to', amount: 'amount' }, async () => {
      const built = await chainSwaps.provider.buildSwap({
        from: addressOf(from) as Address,
        to: addressOf(to) as Address,
        amount: BigInt(amount),
        owner: owner as Address,
        slippagePercent: eip155?.slippage ?? DEFAULT_SWAP_SLIPPAGE_PERCENT,
        disableEstimate,
      })
      const swap: SwapTransaction = { tx: { ...transaction(built.tx), amount: String(built.tx.value) }, minimumReceived: String(built.minimumReceived), deadline: built.deadline }
      return c.json(swap)
    })
  })
  return app
}

/** A provider's quote as the quotes route answers it (swapQuoteSchema). */
const quoteAnswer = (network: string, quote: SwapProviderQuote): SwapQuote => ({
  id: null,
  fromAmount: String(quote.amountIn),
  fromAccount: caip(network, quote.from),
  toAmount: String(quote.amountOut),
  toAccount: caip(network, quote.to),
  route: quote.route.map((address) => caip(network, address)),
  priceImpact: quote.priceImpactPercent,
  source: quote.source,
  blockNumber: String(quote.blockNumber),
  gas: String(quote.gas),
})
