import { createTestClient, createWalletClient, erc20Abi, getAddress, http, maxUint256, parseEther, publicActions, type Abi, type Hex } from 'viem'
import { foundry } from 'viem/chains'
import { startAnvil, type Anvil } from '../../../chain/anvil'
import artifacts from '../../../chain/contracts.generated.json' with { type: 'json' }
import { seedChain, type SeededChain, type SeededToken } from '../../../chain/seedChain'
import { uniswapV2Artifacts } from '../../../chain/uniswapV2'
import { freePorts } from '../../../stack/ports'
import type { ServiceChain } from '../../config'

export type SwapChain = {
  anvil: Anvil
  seeded: SeededChain
  /** A third token whose only pool is against ETH: TUSD or TSR to it goes through WETH. */
  extra: SeededToken
  /** The chain as the data service is configured with it: TUSD, TSR and TXT, and Uniswap V2 as its swap provider. */
  chain: ServiceChain
  stop: () => Promise<void>
}

/** The pool of the third token: 10 ETH against 20,000 TXT (1 TXT = 0.0005 ETH). */
export const EXTRA_POOL = { eth: parseEther('10'), extra: parseEther('20000') }

/**
 * For tests and benchmarks: anvil (automine) seeded as the local stack seeds it (Multicall3, TUSD, TSR, Uniswap V2 with
 * ETH/TUSD, ETH/TSR and TUSD/TSR), plus a token "Tessera Extra" (TXT) with a pool against ETH only, its liquidity from
 * the last dev account.
 * @example const swapChain = await startSwapChain(); … await swapChain.stop()
 */
export async function startSwapChain({ chainId = 31337, port }: { chainId?: number; port?: number } = {}): Promise<SwapChain> {
  const anvil = await startAnvil({ port: port ?? (await freePorts()).anvil, chainId })
  try {
    const seeded = await seedChain({ rpcUrl: anvil.rpcUrl })
    const client = createTestClient({ chain: { ...foundry, id: chainId }, mode: 'anvil', transport: http(anvil.rpcUrl) }).extend(publicActions)
    const wallet = createWalletClient({ chain: { ...foundry, id: chainId }, transport: http(anvil.rpcUrl) })
    const provider = seeded.devAccounts.at(-1)!
    const mined = async (hash: Hex) => {
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
      if (receipt.status !== 'success') throw new Error(`startSwapChain: transaction ${hash} reverted`)
      return receipt
    }
    const deployed = await mined(
      await wallet.deployContract({
        account: provider,
        abi: artifacts.DemoToken.abi as Abi,
        bytecode: artifacts.DemoToken.bytecode as Hex,
        args: ['Tessera Extra', 'TXT', 18, [provider], EXTRA_POOL.extra * 2n],
      }),
    )
    const extra: SeededToken = { address: getAddress(deployed.contractAddress!), name: 'Tessera Extra', symbol: 'TXT', decimals: 18 }
    const { router, factory, weth } = seeded.uniswapV2
    await mined(await wallet.writeContract({ account: provider, address: extra.address, abi: erc20Abi, functionName: 'approve', args: [router, maxUint256] }))
    const deadline = BigInt(Math.floor(Date.now() / 1_000) + 600)
    await mined(
      await wallet.writeContract({
        account: provider,
        address: router,
        abi: uniswapV2Artifacts.router02.abi,
        functionName: 'addLiquidityETH',
        args: [extra.address, EXTRA_POOL.extra, EXTRA_POOL.extra, EXTRA_POOL.eth, provider, deadline],
        value: EXTRA_POOL.eth,
      }),
    )
    const chain: ServiceChain = {
      chainId,
      name: 'Tessera Local',
      rpcUrl: anvil.rpcUrl,
      multicall3: seeded.multicall3,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      tokens: [...seeded.tokens, extra],
      swap: { kind: 'uniswapV2', name: 'Uniswap V2', router, factory, wrappedNative: weth },
    }
    return { anvil, seeded, extra, chain, stop: () => anvil.stop() }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}
