import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createTestClient, createWalletClient, erc20Abi, formatUnits, http, parseEther, publicActions, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from './anvil'
import { seedChain, type SeededChain } from './seedChain'
import { liquidityProvider, uniswapV2Artifacts } from './uniswapV2'
import { freePorts } from '../stack/ports'

const require = createRequire(import.meta.url)
const pairAbi = uniswapV2Artifacts.pair.abi
const routerAbi = uniswapV2Artifacts.router02.abi

describe('Uniswap V2 on a seeded anvil chain', () => {
  let anvil: Anvil
  let seeded: SeededChain
  beforeAll(async () => {
    anvil = await startAnvil({ port: (await freePorts()).anvil, chainId: 31337 })
    seeded = await seedChain({ rpcUrl: anvil.rpcUrl })
  })
  afterAll(() => anvil.stop())
  const client = () => createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) }).extend(publicActions)
  const token = (symbol: string) => seeded.tokens.find((t) => t.symbol === symbol)!

  it('runs the published artifacts, bytecode unmodified', async () => {
    const published = (path: string) => (require(path) as { evm: { deployedBytecode: { object: string } } }).evm.deployedBytecode.object
    const deployed = async (address: Address) => (await client().getCode({ address }))!.slice(2)
    // (The router's code holds the factory's and WETH's addresses as immutables, which differ per deploy.)
    expect(await deployed(seeded.uniswapV2.factory)).toBe(published('@uniswap/v2-core/build/UniswapV2Factory.json'))
    expect(await deployed(seeded.uniswapV2.weth)).toBe(published('@uniswap/v2-periphery/build/WETH9.json'))
    expect(JSON.parse(readFileSync(require.resolve('@uniswap/v2-core/package.json'), 'utf8')).version).toBe('1.0.1')
  })

  it('has the three pools at the demo prices (ETH $3,000, TUSD $1, TSR $2.50)', async () => {
    const reservesOf = async (symbols: [string, string]) => {
      const pair = seeded.uniswapV2.pairs.find((p) => p.symbols.join('/') === symbols.join('/'))!
      const [reserve0, reserve1] = (await client().readContract({ address: pair.address, abi: pairAbi, functionName: 'getReserves' })) as [bigint, bigint, number]
      const decimalsOf = (address: Address) => (address === seeded.uniswapV2.weth ? 18 : seeded.tokens.find((t) => t.address === address)!.decimals)
      const amounts = { [pair.token0]: formatUnits(reserve0, decimalsOf(pair.token0)), [pair.token1]: formatUnits(reserve1, decimalsOf(pair.token1)) }
      const addressOf = (symbol: string) => (symbol === 'ETH' ? seeded.uniswapV2.weth : token(symbol).address)
      return [amounts[addressOf(symbols[0])], amounts[addressOf(symbols[1])]]
    }
    expect(await reservesOf(['ETH', 'TUSD'])).toEqual(['100', '300000'])
    expect(await reservesOf(['ETH', 'TSR'])).toEqual(['5', '6000'])
    expect(await reservesOf(['TUSD', 'TSR'])).toEqual(['5000', '2000'])
  })

  it('swaps 0.1 ETH for exactly the TUSD the router quoted, without touching a dev account but the trader', async () => {
    const trader = seeded.devAccounts[8]!
    const path = [seeded.uniswapV2.weth, token('TUSD').address]
    const [, quoted] = (await client().readContract({ address: seeded.uniswapV2.router, abi: routerAbi, functionName: 'getAmountsOut', args: [parseEther('0.1'), path] })) as bigint[]
    // 0.3 % fee and 0.1 % price impact off $300.
    expect(Number(formatUnits(quoted!, 6))).toBeCloseTo(298.8, 1)
    const balance = () => client().readContract({ address: token('TUSD').address, abi: erc20Abi, functionName: 'balanceOf', args: [trader] })
    const before = await balance()
    const wallet = createWalletClient({ account: trader, transport: http(anvil.rpcUrl) })
    // Mined seconds after the pools' last block, so the swap writes the price accumulators for the first time. An
    // estimate made in the pools' last second leaves those writes out and runs out of gas: the gas is the bound the
    // swap service gives a one-pool route.
    await client().setNextBlockTimestamp({ timestamp: (await client().getBlock()).timestamp + 5n })
    const hash = await wallet.writeContract({ chain: null, address: seeded.uniswapV2.router, abi: routerAbi, functionName: 'swapExactETHForTokens', args: [quoted, path, trader, BigInt(Math.floor(Date.now() / 1_000) + 60)], value: parseEther('0.1'), gas: 175_000n })
    const receipt = await client().waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect((await balance()) - before).toBe(quoted)
    expect(seeded.devAccounts).not.toContain(liquidityProvider)
  })
})
