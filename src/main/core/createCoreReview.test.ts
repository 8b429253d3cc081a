import { expose } from 'comlink'
import { encodeFunctionData, erc20Abi, maxUint256, parseUnits, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '../../../services/chain/anvil'
import { seedChain, type SeededChain } from '../../../services/chain/seedChain'
import { freePorts } from '../../../services/stack/ports'
import { createWorkerApi } from '../../worker/api'
import { createCore } from './createCore'

// Not 31337: should a concurrent test run's anvil hold the same port, this file's fails to start rather than share it.
const CHAIN_ID = 36_037
const caipNetworkId = `eip155:${CHAIN_ID}`
/** Where the page's bundler put the review engine's module; here, its source. */
const reviewModule = new URL('../../worker/review/reviewModule.ts', import.meta.url).href

/** The real worker API behind a MessageChannel, comlink both ways, as the page's core reaches it in a browser. */
function channelWorker() {
  const { port1, port2 } = new MessageChannel()
  expose(createWorkerApi(), port2)
  return Object.assign(port1, { terminate: () => (port1.close(), port2.close()) }) as unknown as Worker
}

describe('core.review* through the worker, on anvil', () => {
  let anvil: Anvil
  let seeded: SeededChain
  let core: ReturnType<typeof createCore>
  beforeAll(async () => {
    anvil = await startAnvil({ port: (await freePorts()).anvil, chainId: CHAIN_ID })
    seeded = await seedChain({ rpcUrl: anvil.rpcUrl })
    core = createCore({ chains: [{ chainId: CHAIN_ID, rpcUrls: [anvil.rpcUrl], multicall3: seeded.multicall3 }], reviewModule, createWorker: channelWorker })
  })
  afterAll(async () => {
    core?.destroy()
    await anvil.stop()
  })
  const tusd = () => ({ address: seeded.tokens[0]!.address, symbol: 'TUSD', decimals: 6 })
  const erc20Call = (functionName: 'approve' | 'transfer', address: Address, amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName, args: [address, amount] })

  it('warns of an unlimited ERC-20 approval, naming token and spender', async () => {
    const [from] = seeded.devAccounts
    const spender = seeded.uniswapV2.router
    const review = await core.reviewTransaction({ caipNetworkId, request: { from: from!, to: tusd().address, data: erc20Call('approve', spender, maxUint256) } })
    expect(review).toMatchObject({ kind: 'transaction', network: caipNetworkId, call: { functionName: 'approve', standard: 'erc20' } })
    expect(review.warnings).toEqual([{ kind: 'unlimitedApproval', via: 'erc20', token: tusd(), spender, amount: maxUint256 }])
  })

  it('says a transfer of more than the balance would revert, and why', async () => {
    const [, from, to] = seeded.devAccounts
    const review = await core.reviewTransaction({ chainId: CHAIN_ID, request: { from: from!, to: tusd().address, data: erc20Call('transfer', to!, parseUnits('2000000', 6)) } })
    expect(review.warnings).toEqual([{ kind: 'wouldRevert', callIndex: 0, reason: { kind: 'error', message: 'DemoToken: transfer amount exceeds balance' } }])
  })

  it('reviews a batch call by call, and typed data for another chain than the connected one', async () => {
    const [, , from, to] = seeded.devAccounts
    const batch = await core.reviewCalls({ caipNetworkId, from: from!, calls: [{ to: tusd().address, data: erc20Call('transfer', to!, 5n) }, { to: to!, value: 7n }] })
    expect(batch.balanceChanges).toEqual([{ asset: { kind: 'erc20', ...tusd() }, amount: -5n }, { asset: { kind: 'native' }, amount: -7n }])

    const typedData = { domain: { name: 'Mail', chainId: 1 }, types: { Mail: [{ name: 'contents', type: 'string' }] }, primaryType: 'Mail', message: { contents: 'hi' } }
    expect(await core.reviewTypedData({ caipNetworkId, typedData })).toMatchObject({
      network: 'eip155:1',
      message: [{ path: 'contents', value: { kind: 'text', value: 'hi' } }],
      warnings: [{ kind: 'chainMismatch', chainId: CHAIN_ID, domainChainId: 1 }],
    })
    await expect(core.reviewTypedData({ caipNetworkId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', typedData })).rejects.toMatchObject({ code: 'NETWORK_NOT_FOUND' })
  })
})
