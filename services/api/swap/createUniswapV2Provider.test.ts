import { createTestClient, createWalletClient, erc20Abi, http, maxUint256, parseEther, parseUnits, publicActions, type Address } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NATIVE_TOKEN_ADDRESS } from '../../../src/shared/protocol/schemas/convert'
import { uniswapV2Artifacts } from '../../chain/uniswapV2'
import { createUniswapV2Provider } from './createUniswapV2Provider'
import type { SwapInputError } from './swapProvider'
import { startSwapChain, type SwapChain } from './testing/startSwapChain'

const ETH = NATIVE_TOKEN_ADDRESS

describe('Uniswap V2 swap provider on a seeded anvil chain', () => {
  let swapChain: SwapChain
  let tusd: Address
  let tsr: Address
  let txt: Address
  beforeAll(async () => {
    swapChain = await startSwapChain()
    ;[tusd, tsr] = swapChain.seeded.tokens.map((t) => t.address) as [Address, Address]
    txt = swapChain.extra.address
  })
  afterAll(() => swapChain?.stop())

  const chainClient = () => createTestClient({ chain: foundry, mode: 'anvil', transport: http(swapChain.anvil.rpcUrl) }).extend(publicActions)
  const provider = (options: Partial<Parameters<typeof createUniswapV2Provider>[0]> = {}) => createUniswapV2Provider({ chain: swapChain.chain, swap: swapChain.chain.swap!, ...options })
  const routerAmountsOut = async (amount: bigint, path: Address[]) =>
    (await chainClient().readContract({ address: swapChain.seeded.uniswapV2.router, abi: uniswapV2Artifacts.router02.abi, functionName: 'getAmountsOut', args: [amount, path] })) as bigint[]
  const weth = () => swapChain.seeded.uniswapV2.weth

  it('quotes exactly what the router’s getAmountsOut gives, on the route it picks', async () => {
    const swaps = provider()
    const cases: [Address, Address, bigint][] = [
      [ETH, tusd, parseEther('0.1')],
      [ETH, tusd, 10n ** 12n],
      [tusd, ETH, parseUnits('250', 6)],
      [tusd, tsr, parseUnits('1', 6)],
      [tusd, tsr, parseUnits('5000', 6)],
      [tsr, txt, parseEther('3')],
      [txt, ETH, parseEther('123.456')],
      [ETH, txt, 123_456_789_123_456_789n],
    ]
    for (const [from, to, amount] of cases) {
      const quote = await swaps.quote({ from, to, amount })
      const path = quote.route.map((address) => (address === ETH ? weth() : address))
      expect(quote.amountOut, `${from} → ${to}, ${amount}`).toBe((await routerAmountsOut(amount, path)).at(-1))
      expect(quote.blockNumber).toBe(await chainClient().getBlockNumber({ cacheTime: 0 }))
    }
  })

  it('goes direct when the pool is deep enough, through WETH when that pays more, and through WETH when there is no pool', async () => {
    const swaps = provider()
    const small = await swaps.quote({ from: tusd, to: tsr, amount: parseUnits('1', 6) })
    expect(small.route).toEqual([tusd, tsr])
    // The TUSD/TSR pool holds 5,000 TUSD: selling as much again goes where ETH/TUSD's depth is.
    const large = await swaps.quote({ from: tusd, to: tsr, amount: parseUnits('5000', 6) })
    expect(large.route).toEqual([tusd, weth(), tsr])
    const direct = (await routerAmountsOut(parseUnits('5000', 6), [tusd, tsr])).at(-1)!
    expect(large.amountOut).toBeGreaterThan(direct)
    expect((await swaps.quote({ from: tusd, to: txt, amount: parseUnits('10', 6) })).route).toEqual([tusd, weth(), txt])
    expect((await swaps.quote({ from: ETH, to: txt, amount: parseEther('1') })).route).toEqual([ETH, txt])
  })

  it('refuses unknown tokens, the same token twice, and amounts no pool can trade', async () => {
    const swaps = provider()
    const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (error: SwapInputError) => ({ field: error.field, code: error.code, message: error.message }))
    expect(await refusal(swaps.quote({ from: '0x0000000000000000000000000000000000000001', to: tusd, amount: 1n }))).toMatchObject({ field: 'from', code: 'SWAP_INVALID_INPUT' })
    expect(await refusal(swaps.quote({ from: tusd, to: tusd.toLowerCase() as Address, amount: 1n }))).toMatchObject({ field: 'to' })
    // 1 wei of ETH buys 0.000000003 TUSD: less than its smallest unit (the pair's swap() would revert).
    expect(await refusal(swaps.quote({ from: ETH, to: tusd, amount: 1n }))).toEqual({ field: 'amount', code: 'SWAP_INVALID_INPUT', message: 'is too small to buy any TUSD' })
    expect(await refusal(swaps.quote({ from: ETH, to: tusd, amount: maxUint256 }))).toMatchObject({ field: 'amount', message: 'is more than the pools of Uniswap V2 can trade' })
    expect(await refusal(swaps.buildApprove({ owner: tusd, token: ETH, amount: 1n }))).toMatchObject({ field: 'token' })
  })

  it('builds swaps that the router executes for at least the minimum, within the route’s gas without an estimate', async () => {
    const swaps = provider()
    const client = chainClient()
    const wallet = createWalletClient({ chain: foundry, transport: http(swapChain.anvil.rpcUrl) })
    // A dev account that never held TXT: its first TXT is the costliest transfer a swap makes.
    const owner = swapChain.seeded.devAccounts[6]!
    for (const token of [tusd, tsr]) {
      const tx = await swaps.buildApprove({ owner, token, amount: maxUint256 })
      await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ account: owner, to: tx.to, data: tx.data, gas: tx.gas }) })
    }
    const balanceOf = async (token: Address) => (token === ETH ? client.getBalance({ address: owner }) : client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] }))
    const shapes: [Address, Address, bigint][] = [
      [tusd, txt, parseUnits('50', 6)], // two pools never traded, to a token new to the owner
      [ETH, tusd, parseEther('0.2')],
      [tusd, ETH, parseUnits('300', 6)],
      [tusd, tsr, parseUnits('2', 6)],
      [tsr, ETH, parseEther('1')],
    ]
    for (const [from, to, amount] of shapes) {
      // Each the first trade of its pools in a later second: their price accumulators are written (from zero, the
      // first time), the costliest a swap gets.
      await client.increaseTime({ seconds: 15 })
      await client.mine({ blocks: 1 })
      const built = await swaps.buildSwap({ from, to, amount, owner, slippagePercent: 0.5, disableEstimate: true })
      expect(built.tx.gas).toBe(built.quote.gas)
      expect(built.minimumReceived).toBe((built.quote.amountOut * 995n) / 1_000n)
      const before = await balanceOf(to)
      const hash = await wallet.sendTransaction({ account: owner, to: built.tx.to, data: built.tx.data, value: built.tx.value, gas: built.tx.gas, gasPrice: built.tx.gasPrice })
      const receipt = await client.waitForTransactionReceipt({ hash })
      expect(receipt.status, `${from} → ${to}`).toBe('success')
      expect(receipt.gasUsed).toBeLessThan(built.tx.gas)
      const received = (await balanceOf(to)) - before + (to === ETH ? receipt.gasUsed * receipt.effectiveGasPrice : 0n)
      // Nothing else traded in between: exactly the quote.
      expect(received).toBe(built.quote.amountOut)
    }
  })

  it('keeps at most its bound of quotes under many distinct amounts, and answers a repeated one without reading the pools again', async () => {
    let requests = 0
    const swaps = provider({ quoteCacheEntries: 16, transport: http(swapChain.anvil.rpcUrl, { onFetchRequest: () => void requests++ }) })
    await Promise.all(Array.from({ length: 200 }, (_, i) => swaps.quote({ from: ETH, to: tusd, amount: 10n ** 15n + BigInt(i) })))
    expect(swaps.cacheSizes().quotes).toBe(16)
    const amount = 10n ** 15n + 199n
    requests = 0
    const again = await swaps.quote({ from: ETH, to: tusd, amount })
    // One request: the block number; the quote itself comes from the cache.
    expect(requests).toBe(1)
    expect(again.amountOut).toBe((await routerAmountsOut(amount, [weth(), tusd])).at(-1))
    // A new amount at the same block reads no pool either: their reserves are kept per block.
    requests = 0
    await swaps.quote({ from: ETH, to: tusd, amount: 7n * 10n ** 15n })
    expect(requests).toBe(1)
    // A new block: the reserves are read again, and the quote says which block.
    await chainClient().mine({ blocks: 1 })
    requests = 0
    const next = await swaps.quote({ from: ETH, to: tusd, amount })
    expect(requests).toBe(2)
    expect(next.blockNumber).toBe(again.blockNumber + 1n)
  })

  it('answers the chain’s gas price and two faster ones, and the router’s allowance (none needed for the native currency)', async () => {
    const swaps = provider()
    const gasPrice = await chainClient().getGasPrice()
    expect(await swaps.gasPrice()).toEqual({ standard: gasPrice, fast: (gasPrice * 110n) / 100n, instant: (gasPrice * 125n) / 100n })
    expect(await swaps.allowance({ token: ETH, owner: tusd })).toBe(maxUint256)
    expect(await swaps.allowance({ token: tsr, owner: swapChain.seeded.devAccounts[3]! })).toBe(0n)
  })
})
