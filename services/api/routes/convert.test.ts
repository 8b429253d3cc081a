import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createTestClient, createWalletClient, erc20Abi, getAddress, http, maxUint256, parseEther, parseUnits, publicActions, type Address, type Hex } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type * as z from 'zod/mini'
import {
  NATIVE_TOKEN_ADDRESS,
  swapAllowanceResponseSchema,
  swapApproveResponseSchema,
  swapGasPriceResponseSchema,
  swapQuotesResponseSchema,
  swapTokensResponseSchema,
  swapTransactionResponseSchema,
} from '../../../src/shared/protocol/schemas/convert'
import { createDataServiceClient } from '../../../src/worker/services/createDataServiceClient'
import { uniswapV2Artifacts } from '../../chain/uniswapV2'
import { freePorts } from '../../stack/ports'
import { createApiApp } from '../app'
import type { ServiceChain } from '../config'
import { openDatabase, type Database } from '../db/createDatabase'
import { startSwapChain, type SwapChain } from '../swap/testing/startSwapChain'

const PROJECT = 'convert-project'
const BASE = 'http://data.test'
const NATIVE = `eip155:31337:${NATIVE_TOKEN_ADDRESS}`
/** Chains beside the swap chain: one without a swap provider, one whose node answers garbage, one whose node is down. */
const NO_SWAPS = 31338
const GARBAGE = 31339
const DOWN = 31340

type App = ReturnType<typeof createApiApp>

/** Parses an answer with its schema and checks nothing was dropped: the answer is exactly the schema's shape. */
const exactly = <S extends z.ZodMiniType>(schema: S, json: unknown) => {
  const parsed = schema.safeParse(json)
  expect(parsed.error?.issues).toBeUndefined()
  expect(parsed.data).toEqual(json)
  return parsed.data as z.infer<S>
}

describe('convert routes on a seeded anvil chain with Uniswap V2', () => {
  let swapChain: SwapChain
  let app: App
  let db: Database
  let garbageNode: Server
  const logLines: string[] = []
  let TUSD: string
  let TSR: string
  let TXT: string

  const get = async (path: string) => {
    const response = await app.request(`${BASE}${path}${path.includes('?') ? '&' : '?'}projectId=${PROJECT}`)
    return { status: response.status, json: (await response.json()) as Record<string, unknown> & { error: { code: string; message: string; field?: string } } }
  }
  const post = async (path: string, body: unknown) => {
    const response = await app.request(`${BASE}${path}?projectId=${PROJECT}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) })
    return { status: response.status, json: (await response.json()) as Record<string, unknown> & { error: { code: string; message: string; field?: string } } }
  }
  const query = (params: Record<string, string>) => new URLSearchParams(params).toString()
  const chainClient = () => createTestClient({ chain: foundry, mode: 'anvil', transport: http(swapChain.anvil.rpcUrl) }).extend(publicActions)
  const wallet = () => createWalletClient({ chain: foundry, transport: http(swapChain.anvil.rpcUrl) })
  const routerAmountOut = async (amount: bigint, path: Address[]) =>
    ((await chainClient().readContract({ address: swapChain.seeded.uniswapV2.router, abi: uniswapV2Artifacts.router02.abi, functionName: 'getAmountsOut', args: [amount, path] })) as bigint[]).at(-1)!
  const addressOf = (caipId: string) => caipId.split(':')[2] as Address
  const weth = () => swapChain.seeded.uniswapV2.weth
  const balanceOf = (token: string, owner: Address) => chainClient().readContract({ address: addressOf(token), abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
  const send = async (tx: { from: string; to: string; data: string; eip155: { gas: string; gasPrice: string } }, value = 0n) => {
    const hash = await wallet().sendTransaction({ account: tx.from as Address, to: tx.to as Address, data: tx.data as Hex, value, gas: BigInt(tx.eip155.gas), gasPrice: BigInt(tx.eip155.gasPrice) })
    return chainClient().waitForTransactionReceipt({ hash })
  }

  beforeAll(async () => {
    swapChain = await startSwapChain()
    ;[TUSD, TSR] = swapChain.seeded.tokens.map((t) => `eip155:31337:${t.address}`) as [string, string]
    TXT = `eip155:31337:${swapChain.extra.address}`
    // A node that answers every call, but not with JSON-RPC: an HTML page on /html, a result that is not hex on /hex.
    garbageNode = createServer((req, res) => {
      if (req.url === '/html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>proxy error</html>')
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: 0, result: 'not hex at all' }))
    })
    await new Promise<void>((resolve) => garbageNode.listen(0, '127.0.0.1', resolve))
    const garbageUrl = `http://127.0.0.1:${(garbageNode.address() as AddressInfo).port}`
    // Nothing listens there: a node that was stopped.
    const downUrl = `http://127.0.0.1:${(await freePorts()).anvil2}`
    const like = (chainId: number, rpcUrl: string, name: string): ServiceChain => ({ ...swapChain.chain, chainId, rpcUrl, name })
    const { swap: _none, ...withoutSwaps } = like(NO_SWAPS, swapChain.anvil.rpcUrl, 'No Swaps')
    db = await openDatabase({})
    app = createApiApp({
      db,
      projects: [{ id: PROJECT, allowedOrigins: [] }],
      chains: [swapChain.chain, withoutSwaps, like(GARBAGE, `${garbageUrl}/html`, 'Garbage'), like(GARBAGE + 100, `${garbageUrl}/hex`, 'Unreadable'), like(DOWN, downUrl, 'Stopped')],
      log: (line) => logLines.push(line),
    })
  })
  afterAll(async () => {
    await swapChain?.stop()
    await new Promise((resolve) => garbageNode?.close(resolve))
    await db?.close()
  })

  it('lists the native currency first, then the chain’s tokens, with decimals and our images', async () => {
    const { status, json } = await get('/v1/convert/tokens?chainId=eip155:31337')
    expect(status).toBe(200)
    const { tokens } = exactly(swapTokensResponseSchema, json)
    const image = (asset: string) => `${BASE}/v1/assets/tokens/eip155:31337/${asset}?projectId=${PROJECT}`
    expect(tokens).toEqual([
      { name: 'Ether', symbol: 'ETH', address: NATIVE, decimals: 18, logoUri: image('slip44:60') },
      { name: 'Tessera Dollar', symbol: 'TUSD', address: TUSD, decimals: 6, logoUri: image(`erc20:${addressOf(TUSD)}`) },
      { name: 'Tessera Token', symbol: 'TSR', address: TSR, decimals: 18, logoUri: image(`erc20:${addressOf(TSR)}`) },
      // We have no image of TXT.
      { name: 'Tessera Extra', symbol: 'TXT', address: TXT, decimals: 18, logoUri: '' },
    ])
    // The images are there to be had.
    expect((await app.request(tokens[1]!.logoUri)).headers.get('content-type')).toBe('image/svg+xml')
    // The bare chain id is the same network.
    expect((await get('/v1/convert/tokens?chainId=31337')).json).toEqual(json)
  })

  it('quotes ETH for TUSD exactly as the router’s getAmountsOut, at the latest block, with its source, impact and gas', async () => {
    const amount = parseEther('0.1')
    const { status, json } = await get(`/v1/convert/quotes?${query({ from: NATIVE, to: TUSD, amount: String(amount), userAddress: swapChain.seeded.devAccounts[1]!, gasPrice: '1000000000' })}`)
    expect(status).toBe(200)
    const [quote] = exactly(swapQuotesResponseSchema, json).quotes
    expect(quote).toEqual({
      id: null,
      fromAmount: String(amount),
      fromAccount: NATIVE,
      toAmount: String(await routerAmountOut(amount, [weth(), addressOf(TUSD)])),
      toAccount: TUSD,
      route: [NATIVE, TUSD],
      priceImpact: expect.closeTo(0.0993, 3),
      source: { name: 'Uniswap V2', router: swapChain.seeded.uniswapV2.router },
      blockNumber: String(await chainClient().getBlockNumber({ cacheTime: 0 })),
      gas: '175000',
    })
  })

  it('routes TUSD to TSR through their own pool, and TUSD to TXT (no pool of its own) through WETH', async () => {
    const direct = exactly(swapQuotesResponseSchema, (await get(`/v1/convert/quotes?${query({ from: TUSD, to: TSR, amount: '1000000' })}`)).json).quotes[0]!
    expect(direct.route).toEqual([TUSD, TSR])
    expect(direct.toAmount).toBe(String(await routerAmountOut(1_000_000n, [addressOf(TUSD), addressOf(TSR)])))
    const through = exactly(swapQuotesResponseSchema, (await get(`/v1/convert/quotes?${query({ from: TUSD, to: TXT, amount: '25000000' })}`)).json).quotes[0]!
    expect(through.route).toEqual([TUSD, `eip155:31337:${weth()}`, TXT])
    expect(through.toAmount).toBe(String(await routerAmountOut(25_000_000n, [addressOf(TUSD), weth(), addressOf(TXT)])))
    expect(through.gas).toBe('275000')
  })

  it('builds a swap of ETH that, sent from a dev account, pays at least the minimum received before its deadline', async () => {
    const owner = swapChain.seeded.devAccounts[2]!
    const amount = parseEther('0.25')
    const quoted = exactly(swapQuotesResponseSchema, (await get(`/v1/convert/quotes?${query({ from: NATIVE, to: TUSD, amount: String(amount) })}`)).json).quotes[0]!
    const { status, json } = await post('/v1/convert/build-transaction', { amount: String(amount), from: NATIVE, to: TUSD, userAddress: owner, eip155: { slippage: '0.5' }, projectId: PROJECT })
    expect(status).toBe(200)
    const built = exactly(swapTransactionResponseSchema, json)
    expect(built.tx).toMatchObject({ from: owner, to: swapChain.seeded.uniswapV2.router, amount: String(amount) })
    expect(built.minimumReceived).toBe(String((BigInt(quoted.toAmount) * 995n) / 1_000n))
    expect(built.deadline).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1_000) + 20 * 60 - 5)
    expect(built.deadline).toBeLessThanOrEqual(Math.floor(Date.now() / 1_000) + 20 * 60)
    // Gas as the node estimates it for this owner plus 20 %, never below the route's bound; the chain's gas price.
    const estimate = ((await chainClient().estimateGas({ account: owner, to: built.tx.to as Address, data: built.tx.data as Hex, value: amount })) * 120n) / 100n
    const gas = estimate > BigInt(quoted.gas) ? estimate : BigInt(quoted.gas)
    expect(built.tx.eip155).toEqual({ gas: String(gas), gasPrice: String(await chainClient().getGasPrice()) })

    const before = await balanceOf(TUSD, owner)
    const receipt = await send(built.tx, BigInt(built.tx.amount))
    expect(receipt.status).toBe('success')
    const received = (await balanceOf(TUSD, owner)) - before
    expect(received).toBeGreaterThanOrEqual(BigInt(built.minimumReceived))
    expect(received).toBe(BigInt(quoted.toAmount))
  })

  it('builds an approval of the exact amount, which the allowance then reads, and a token swap that spends it', async () => {
    const owner = swapChain.seeded.devAccounts[3]!
    const amount = parseUnits('12.5', 6)
    const before = exactly(swapAllowanceResponseSchema, (await get(`/v1/convert/allowance?${query({ tokenAddress: TUSD, userAddress: owner })}`)).json)
    expect(before).toEqual({ allowance: '0' })
    // Without the approval the node cannot estimate the swap (it would revert): the route's gas stands in.
    const unapproved = exactly(swapTransactionResponseSchema, (await post('/v1/convert/build-transaction', { amount: String(amount), from: TUSD, to: TSR, userAddress: owner })).json)
    const quotedGas = exactly(swapQuotesResponseSchema, (await get(`/v1/convert/quotes?${query({ from: TUSD, to: TSR, amount: String(amount) })}`)).json).quotes[0]!.gas
    expect(unapproved.tx.eip155.gas).toBe(quotedGas)

    const { status, json } = await get(`/v1/convert/build-approve?${query({ userAddress: owner, from: TUSD, to: TSR, amount: String(amount) })}`)
    expect(status).toBe(200)
    const approval = exactly(swapApproveResponseSchema, json)
    expect(approval.tx).toMatchObject({ from: owner, to: addressOf(TUSD), value: '0' })
    const estimate = await chainClient().estimateGas({ account: owner, to: addressOf(TUSD), data: approval.tx.data as Hex })
    expect(approval.tx.eip155.gas).toBe(String((estimate * 120n) / 100n))
    expect((await send(approval.tx)).status).toBe('success')
    expect((await get(`/v1/convert/allowance?${query({ tokenAddress: TUSD, userAddress: owner })}`)).json).toEqual({ allowance: String(amount) })
    expect((await get(`/v1/convert/allowance?${query({ tokenAddress: NATIVE, userAddress: owner })}`)).json).toEqual({ allowance: String(maxUint256) })

    // Default slippage: 1 %.
    const built = exactly(swapTransactionResponseSchema, (await post('/v1/convert/build-transaction', { amount: String(amount), from: TUSD, to: TSR, userAddress: owner })).json)
    const tsrBefore = await balanceOf(TSR, owner)
    expect((await send(built.tx)).status).toBe('success')
    expect((await balanceOf(TSR, owner)) - tsrBefore).toBeGreaterThanOrEqual(BigInt(built.minimumReceived))
    expect((await get(`/v1/convert/allowance?${query({ tokenAddress: TUSD, userAddress: owner })}`)).json).toEqual({ allowance: '0' })
  })

  it('answers the chain’s gas price, and two faster ones, for the CAIP-2 id or the bare chain id', async () => {
    const gasPrice = await chainClient().getGasPrice()
    const expected = { standard: String(gasPrice), fast: String((gasPrice * 110n) / 100n), instant: String((gasPrice * 125n) / 100n) }
    expect(exactly(swapGasPriceResponseSchema, (await get('/v1/convert/gas-price?chainId=eip155:31337')).json)).toEqual(expected)
    expect((await get('/v1/convert/gas-price?chainId=31337')).json).toEqual(expected)
  })

  describe('slippage', () => {
    const amount = '1000000000000000'
    const build = (slippage: unknown) => post('/v1/convert/build-transaction', { amount, from: NATIVE, to: TUSD, userAddress: swapChain.seeded.devAccounts[4], eip155: { slippage }, disableEstimate: true })

    it.each([
      [undefined, 990_000n], // none: 1 %
      [1, 990_000n],
      ['1', 990_000n],
      [0.05, 999_500n],
      ['0.05', 999_500n],
      [50, 500_000n],
      [12.3456, 876_544n],
    ])('takes %j percent off the quote', async (slippage, keptMillionths) => {
      const { status, json } = await build(slippage)
      expect(status).toBe(200)
      const built = exactly(swapTransactionResponseSchema, json)
      const quoted = exactly(swapQuotesResponseSchema, (await get(`/v1/convert/quotes?${query({ from: NATIVE, to: TUSD, amount })}`)).json).quotes[0]!
      expect(built.minimumReceived).toBe(String((BigInt(quoted.toAmount) * keptMillionths) / 1_000_000n))
      expect(built.tx.eip155.gas).toBe(quoted.gas)
    })

    it.each([0.04, 0, 50.01, 100, -1, '0.049', '51', '-1', '1e1', 'one', '', true, null, [1], { percent: 1 }])('refuses %j, naming eip155.slippage', async (slippage) => {
      const { status, json } = await build(slippage)
      expect(status).toBe(400)
      expect(json.error).toMatchObject({ code: 'INVALID_INPUT', field: 'eip155.slippage' })
      expect(json.error.message).toMatch(/^eip155\.slippage: /)
    })
  })

  describe('bad input answers 400 naming the field', () => {
    const owner = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const unknownToken = 'eip155:31337:0x000000000000000000000000000000000000dEaD'
    const quote = (params: Record<string, string>) => get(`/v1/convert/quotes?${query(params)}`)
    const valid = () => ({ from: NATIVE, to: TUSD, amount: '1000000000000000' })
    const approve = (params: Record<string, string>) => get(`/v1/convert/build-approve?${query({ userAddress: owner, from: TUSD, to: TSR, amount: '1000', ...params })}`)
    const omit = (params: Record<string, string>, key: string) => Object.fromEntries(Object.entries(params).filter(([name]) => name !== key))

    it.each([
      ['an unknown from token', () => quote({ ...valid(), from: unknownToken }), 'from', 'from: is not a token Uniswap V2 trades on Tessera Local'],
      ['an unknown to token', () => quote({ ...valid(), to: unknownToken }), 'to', 'to: is not a token Uniswap V2 trades on Tessera Local'],
      ['the same token on both sides', () => quote({ ...valid(), to: NATIVE }), 'to', 'to: must be another token than from (ETH)'],
      ['the same token in another case', () => quote({ ...valid(), from: TUSD, to: TUSD.toLowerCase().replace('eip155:31337:', 'eip155:31337:') }), 'to', undefined],
      ['a zero amount', () => quote({ ...valid(), amount: '0' }), 'amount', 'amount: must be greater than 0'],
      ['a negative amount', () => quote({ ...valid(), amount: '-5' }), 'amount', undefined],
      ['a fractional amount', () => quote({ ...valid(), amount: '1.5' }), 'amount', undefined],
      ['an exponent', () => quote({ ...valid(), amount: '1e18' }), 'amount', undefined],
      ['an empty amount', () => quote({ ...valid(), amount: '' }), 'amount', undefined],
      ['no amount', () => quote(omit(valid(), 'amount')), 'amount', 'amount: is required: the amount sold, in base units'],
      ['79 digits', () => quote({ ...valid(), amount: '1'.repeat(79) }), 'amount', 'amount: must be at most 78 characters'],
      ['2^256', () => quote({ ...valid(), amount: String(2n ** 256n) }), 'amount', 'amount: must be at most 2^256-1'],
      ['an amount too small to buy anything', () => quote({ ...valid(), amount: '1' }), 'amount', 'amount: is too small to buy any TUSD'],
      ['an amount the pools cannot trade', () => quote({ ...valid(), amount: String(maxUint256) }), 'amount', undefined],
      ['a from that is not a CAIP-10 id', () => quote({ ...valid(), from: 'ETH' }), 'from', undefined],
      ['a malformed token address', () => quote({ ...valid(), to: 'eip155:31337:0x1234' }), 'to', 'to: Expected a 0x address of 40 hex digits after the network id'],
      ['a to on another network', () => quote({ ...valid(), to: `eip155:1:${addressOf(TUSD)}` }), 'to', 'to: must be on the same network as from (eip155:31337)'],
      ['a userAddress that is not an address', () => quote({ ...valid(), userAddress: 'alice.eth' }), 'userAddress', undefined],
      ['a userAddress with a wrong checksum', () => quote({ ...valid(), userAddress: owner.replace('C5', 'c5') }), 'userAddress', undefined],
      ['a gasPrice that is not a number', () => quote({ ...valid(), gasPrice: 'fast' }), 'gasPrice', undefined],
      ['an approval without amount', () => get(`/v1/convert/build-approve?${query({ userAddress: owner, from: TUSD, to: TSR })}`), 'amount', 'amount: is required: the amount to approve, in base units (exactly the amount to swap)'],
      ['an approval of zero', () => approve({ amount: '0' }), 'amount', undefined],
      ['an approval of the native currency', () => approve({ from: NATIVE }), 'from', 'from: is ETH, the native currency: it is swapped without an approval'],
      ['an approval of an unknown token', () => approve({ from: unknownToken }), 'from', undefined],
      ['an approval for an unknown token', () => approve({ to: unknownToken }), 'to', undefined],
      ['an approval for the same token', () => approve({ to: TUSD }), 'to', undefined],
      ['an approval without userAddress', () => get(`/v1/convert/build-approve?${query({ from: TUSD, to: TSR, amount: '1' })}`), 'userAddress', undefined],
      ['an allowance of a malformed token', () => get(`/v1/convert/allowance?${query({ tokenAddress: 'eip155:31337:xyz', userAddress: owner })}`), 'tokenAddress', undefined],
      ['an allowance of an unknown token', () => get(`/v1/convert/allowance?${query({ tokenAddress: unknownToken, userAddress: owner })}`), 'tokenAddress', undefined],
      ['an allowance for a bad owner', () => get(`/v1/convert/allowance?${query({ tokenAddress: TUSD, userAddress: '0x0' })}`), 'userAddress', undefined],
      ['tokens of a malformed network', () => get('/v1/convert/tokens?chainId=eip155'), 'chainId', undefined],
      ['gas price without a network', () => get('/v1/convert/gas-price'), 'chainId', undefined],
      ['a swap body that is not JSON', () => post('/v1/convert/build-transaction', '{"amount":'), 'body', 'The request body is not valid JSON'],
      ['a swap amount sent as a number', () => post('/v1/convert/build-transaction', { ...valid(), amount: 1000, userAddress: owner }), 'amount', 'amount: must be a string: the amount sold, in base units'],
      ['a swap without userAddress', () => post('/v1/convert/build-transaction', valid()), 'userAddress', undefined],
      ['a swap of an unknown token', () => post('/v1/convert/build-transaction', { ...valid(), to: unknownToken, userAddress: owner }), 'to', undefined],
      ['a swap with disableEstimate as text', () => post('/v1/convert/build-transaction', { ...valid(), userAddress: owner, disableEstimate: 'yes' }), 'disableEstimate', undefined],
      ['a swap amount beyond 2^256-1', () => post('/v1/convert/build-transaction', { ...valid(), userAddress: owner, amount: String(2n ** 256n + 1n) }), 'amount', undefined],
    ])('%s', async (_name, request, field, message) => {
      const { status, json } = await request()
      expect(status).toBe(400)
      expect(json.error.field).toBe(field)
      if (field !== 'body') expect(json.error.message).toMatch(new RegExp(`^${field}: `))
      if (message) expect(json.error.message).toBe(message)
    })
  })

  it("answers 'Network not supported for Swaps' for a chain without a swap provider or unknown, and '… for Gas Price' for its gas price", async () => {
    const swapsRefused = { code: 'SWAP_NETWORK_UNSUPPORTED', message: 'Network not supported for Swaps' }
    const otherNative = `eip155:${NO_SWAPS}:${NATIVE_TOKEN_ADDRESS}`
    const otherToken = `eip155:${NO_SWAPS}:${addressOf(TUSD)}`
    for (const network of [`eip155:${NO_SWAPS}`, 'eip155:999', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp']) {
      expect(await get(`/v1/convert/tokens?chainId=${network}`)).toMatchObject({ status: 400, json: { error: swapsRefused } })
      expect(await get(`/v1/convert/gas-price?chainId=${network}`)).toMatchObject({ status: 400, json: { error: { code: 'GAS_PRICE_NETWORK_UNSUPPORTED', message: 'Network not supported for Gas Price' } } })
    }
    for (const response of [
      await get(`/v1/convert/quotes?${query({ from: otherNative, to: otherToken, amount: '1000' })}`),
      await get(`/v1/convert/allowance?${query({ tokenAddress: otherToken, userAddress: swapChain.seeded.devAccounts[0]! })}`),
      await get(`/v1/convert/build-approve?${query({ from: otherToken, to: otherNative, amount: '1', userAddress: swapChain.seeded.devAccounts[0]! })}`),
      await post('/v1/convert/build-transaction', { from: otherNative, to: otherToken, amount: '1000', userAddress: swapChain.seeded.devAccounts[0] }),
      await get(`/v1/convert/quotes?${query({ from: `eip155:999:${NATIVE_TOKEN_ADDRESS}`, to: TUSD, amount: '1000' })}`),
    ]) {
      expect(response).toMatchObject({ status: 400, json: { error: swapsRefused } })
    }
  })

  it('refuses every swap call when no chain has a swap provider, whatever the query', async () => {
    const { swap: _none, ...withoutSwaps } = swapChain.chain
    const bare = createApiApp({ db, projects: [{ id: PROJECT, allowedOrigins: [] }], chains: [withoutSwaps] })
    const answer = async (path: string, init?: RequestInit) => (await bare.request(`${BASE}${path}${path.includes('?') ? '&' : '?'}projectId=${PROJECT}`, init)).json()
    expect(await answer('/v1/convert/quotes?chainId=eip155:31337')).toMatchObject({ error: { code: 'SWAP_NETWORK_UNSUPPORTED' } })
    expect(await answer('/v1/convert/build-transaction', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).toMatchObject({ error: { code: 'SWAP_NETWORK_UNSUPPORTED' } })
    expect(await answer('/v1/convert/gas-price?chainId=eip155:31337')).toMatchObject({ error: { message: 'Network not supported for Gas Price' } })
  })

  it.each([
    ['stopped', DOWN, 503, 'SWAP_NODE_UNREACHABLE', 'The node of Stopped could not be reached'],
    ['answering HTML', GARBAGE, 502, 'SWAP_NODE_INVALID_ANSWER', 'The node of Garbage gave an answer that could not be used'],
    ['answering a result that is not hex', GARBAGE + 100, 502, 'SWAP_NODE_INVALID_ANSWER', 'The node of Unreadable gave an answer that could not be used'],
  ])('answers with a sentence, never 500 nor the node’s text, when the node is %s', async (_name, chainId, status, code, sentence) => {
    const native = `eip155:${chainId}:${NATIVE_TOKEN_ADDRESS}`
    const token = `eip155:${chainId}:${addressOf(TUSD)}`
    const owner = swapChain.seeded.devAccounts[0]!
    logLines.length = 0
    const responses = await Promise.all([
      get(`/v1/convert/quotes?${query({ from: native, to: token, amount: '1000' })}`),
      get(`/v1/convert/gas-price?chainId=eip155:${chainId}`),
      get(`/v1/convert/allowance?${query({ tokenAddress: token, userAddress: owner })}`),
      get(`/v1/convert/build-approve?${query({ from: token, to: native, amount: '1', userAddress: owner })}`),
      post('/v1/convert/build-transaction', { from: native, to: token, amount: '1000', userAddress: owner }),
    ])
    for (const response of responses) {
      expect(response.status).toBe(status)
      expect(response.json.error.code).toBe(code)
      expect(response.json.error.message).toMatch(new RegExp(`^${sentence}, so .+\\. Try again in a moment\\.$`))
      expect(response.json.error.message).not.toMatch(/127\.0\.0\.1|fetch failed|html|hex/i)
    }
    // The operator learns what the node did, one line per failure.
    expect(logLines).toHaveLength(5)
  })

  it('keeps the project check of every route', async () => {
    const response = await app.request(`${BASE}/v1/convert/tokens?chainId=eip155:31337`)
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: { code: 'PROJECT_ID_MISSING' } })
  })

  it('answers the worker’s client, which validates every answer with the convert schemas', async () => {
    const client = createDataServiceClient({ baseUrl: BASE, projectId: PROJECT, sdkVersion: 'test-x-1', fetch: (url, init) => Promise.resolve(app.request(String(url), init)) })
    const owner = getAddress(swapChain.seeded.devAccounts[5]!)
    expect((await client.getSwapTokens({ chainId: 'eip155:31337' })).tokens.map((t) => t.symbol)).toEqual(['ETH', 'TUSD', 'TSR', 'TXT'])
    const { quotes } = await client.getSwapQuote({ chainId: 'eip155:31337', amount: '1000000', userAddress: owner, from: TUSD, to: TXT, gasPrice: '1' })
    expect(quotes[0]!.route).toHaveLength(3)
    expect((await client.getAllowance({ chainId: 'eip155:31337', tokenAddress: TUSD, userAddress: owner })).allowance).toBe('0')
    expect(Object.keys(await client.getGasPrice({ chainId: 'eip155:31337' }))).toEqual(['standard', 'fast', 'instant'])
    expect((await client.buildApproveTransaction({ chainId: 'eip155:31337', userAddress: owner, from: TUSD, to: TXT, amount: '1000000' })).tx.to).toBe(addressOf(TUSD))
    const swap = await client.buildSwapTransaction({ chainId: 'eip155:31337', amount: '1000000000000000', from: NATIVE, to: TXT, userAddress: owner, slippage: 2 })
    expect(swap.tx.amount).toBe('1000000000000000')
    await expect(client.buildSwapTransaction({ chainId: 'eip155:31337', amount: '1000', from: NATIVE, to: TXT, userAddress: owner, slippage: 60 })).rejects.toMatchObject({
      code: 'SERVICE_BAD_RESPONSE',
      status: 400,
      field: 'eip155.slippage',
    })
  })
})
