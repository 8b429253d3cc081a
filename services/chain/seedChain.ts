import {
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
  publicActions,
  type Abi,
  type Address,
  type Hex,
} from 'viem'
import artifacts from './contracts.generated.json' with { type: 'json' }
import { deployUniswapV2, liquidityProvider, type UniswapV2Deployment } from './uniswapV2'

/** Multicall3's canonical address on every public EVM chain; we put a compatible contract there. */
export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11'

export type DemoTokenSpec = { name: string; symbol: string; decimals: number; amountEach: bigint }

export const demoTokens: readonly DemoTokenSpec[] = [
  { name: 'Tessera Dollar', symbol: 'TUSD', decimals: 6, amountEach: 1_000_000n * 10n ** 6n },
  { name: 'Tessera Token', symbol: 'TSR', decimals: 18, amountEach: 10_000n * 10n ** 18n },
]

export type SeededToken = { address: Address; name: string; symbol: string; decimals: number }
export type SeededChain = { multicall3: Address; tokens: SeededToken[]; devAccounts: Address[]; uniswapV2: UniswapV2Deployment }

/** The liquidity provider's ether: the pools' and the gas of seeding them. */
const LIQUIDITY_PROVIDER_WEI = 1_000n * 10n ** 18n

/**
 * Puts Multicall3 at its canonical address, deploys the demo tokens (minted to every dev account and to the liquidity
 * provider), and Uniswap V2 with pools between ETH and the tokens and between the tokens, at the demo prices.
 * Deploys with automine, then switches to interval mining when a block time is given.
 */
export async function seedChain({ rpcUrl, blockTimeSeconds }: { rpcUrl: string; blockTimeSeconds?: number }): Promise<SeededChain> {
  const transport = http(rpcUrl)
  const testClient = createTestClient({ mode: 'anvil', transport }).extend(publicActions)
  await testClient.setAutomine(true)
  await testClient.setCode({ address: MULTICALL3_ADDRESS, bytecode: artifacts.Multicall3.deployedBytecode as Hex })

  const devAccounts = await createWalletClient({ transport }).getAddresses()
  const deployer = devAccounts[0]
  if (!deployer) throw new Error(`anvil at ${rpcUrl} has no dev accounts`)
  const chainId = await testClient.getChainId()
  const chain = defineChain({ id: chainId, name: `anvil-${chainId}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } })
  const wallet = createWalletClient({ chain, transport })

  const tokens: SeededToken[] = []
  for (const token of demoTokens) {
    const hash = await wallet.deployContract({
      account: deployer,
      abi: artifacts.DemoToken.abi as Abi,
      bytecode: artifacts.DemoToken.bytecode as Hex,
      args: [token.name, token.symbol, token.decimals, [...devAccounts, liquidityProvider], token.amountEach],
    })
    const receipt = await testClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    if (!receipt.contractAddress) throw new Error(`${token.symbol} deployment on ${rpcUrl} created no contract`)
    tokens.push({ address: getAddress(receipt.contractAddress), name: token.name, symbol: token.symbol, decimals: token.decimals })
  }

  await testClient.setBalance({ address: liquidityProvider, value: LIQUIDITY_PROVIDER_WEI })
  const uniswapV2 = await deployUniswapV2({ rpcUrl, chain, tokens })

  if (blockTimeSeconds !== undefined) {
    await testClient.setAutomine(false)
    await testClient.setIntervalMining({ interval: blockTimeSeconds })
  }
  return { multicall3: MULTICALL3_ADDRESS, tokens, devAccounts: [...devAccounts], uniswapV2 }
}
