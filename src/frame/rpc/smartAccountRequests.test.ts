import { createPublicClient, createTestClient, encodeFunctionData, erc20Abi, http, parseEther, publicActions, walletActions, type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deployAccountAbstraction, tesseraAccountFactoryAddress } from '../../../services/chain/accountAbstraction'
import { startAnvil, type Anvil } from '../../../services/chain/anvil'
import { startBundler, type Bundler } from '../../../services/chain/bundler'
import { seedChain, type SeededChain } from '../../../services/chain/seedChain'
import { freePorts } from '../../../services/stack/ports'
import type { FrameEvmNetwork } from '../config/frameConfig'
import type { KeyVault } from '../keys/createKeyVault'
import { uniswapV2Artifacts } from '../../../services/chain/uniswapV2'
import { createSmartAccounts } from '../smartAccount/createSmartAccounts'
import { openTestWallet } from '../testing/openTestWallet'
import type { ApprovalRequest } from './approvalRequest'
import { createRpcHandler, type ResolvedNetwork } from './createRpcHandler'
import { createEvmClient, withGasRoom } from './evmRequests'

let anvil: Anvil
let bundler: Bundler
let seeded: SeededChain
let network: FrameEvmNetwork
let vault: KeyVault
const chain = () => createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl), pollingInterval: 50 }).extend(publicActions).extend(walletActions)

beforeAll(async () => {
  const ports = await freePorts()
  anvil = await startAnvil({ port: ports.anvil, chainId: 31337 })
  seeded = await seedChain({ rpcUrl: anvil.rpcUrl })
  const { entryPoint08 } = await deployAccountAbstraction({ rpcUrl: anvil.rpcUrl })
  bundler = await startBundler({ rpcUrl: anvil.rpcUrl, port: ports.bundler, entryPoints: [entryPoint08] })
  network = {
    chainId: 31337,
    name: 'Tessera Local',
    rpcUrl: anvil.rpcUrl,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    smartAccount: { bundlerUrl: bundler.url, factoryAddress: tesseraAccountFactoryAddress },
  }
  vault = await openTestWallet('smart-account-user')
}, 60_000)
afterAll(async () => {
  await bundler?.stop()
  await anvil?.stop()
})

/** The frame's RPC on a network with a smart account, the person approving (or not) every screen, which is recorded. */
function setup({ isApproved = true }: { isApproved?: boolean } = {}) {
  const shown: ApprovalRequest[] = []
  const client = createEvmClient(network)
  const smartAccounts = createSmartAccounts({ vault, projectId: 'test-project' })
  const handle = createRpcHandler({
    vault,
    evmNetworks: () => [network],
    resolveNetwork: (): ResolvedNetwork => ({ namespace: 'eip155', network, client }),
    approve: async (request) => {
      shown.push(request)
      if (!isApproved) throw Object.assign(new Error('rejected'), { code: 'USER_REJECTED' })
    },
    smartAccounts,
  })
  return { handle, shown, smartAccounts, client }
}

describe('the embedded wallet as a smart account (ERC-4337, Alto on anvil)', () => {
  it('answers its counterfactual address, not deployed, and the EOA once eoa is preferred', async () => {
    const { handle, smartAccounts, client } = setup()
    const [address] = (await handle({ method: 'eth_accounts' })) as Address[]
    expect(address).not.toBe(vault.keys().eip155.address)
    expect(await smartAccounts.describe(network, client)).toEqual({ address, isDeployed: false })
    smartAccounts.setPreferredType('eoa')
    expect(await handle({ method: 'eth_accounts' })).toEqual([vault.keys().eip155.address])
    expect(await handle({ method: 'wallet_getCapabilities' })).toEqual({ '0x7a69': { atomic: { status: 'unsupported' } } })
    smartAccounts.setPreferredType('smartAccount')
    expect(await handle({ method: 'wallet_getCapabilities' })).toEqual({ '0x7a69': { atomic: { status: 'supported' }, paymasterService: { supported: false } } })
  })

  it('signs a message before deployment (ERC-6492) that the chain verifies for the smart account', async () => {
    const { handle, shown } = setup()
    const [address] = (await handle({ method: 'eth_accounts' })) as Address[]
    const signature = (await handle({ method: 'personal_sign', params: ['0x68656c6c6f', address] })) as Hex
    expect(shown[0]).toMatchObject({ kind: 'signMessage', account: address, accountType: 'smartAccount', text: 'hello' })
    expect(await chain().verifyMessage({ address: address!, message: 'hello', signature })).toBe(true)
    expect(await chain().verifyMessage({ address: address!, message: 'other', signature })).toBe(false)
  })

  it('refuses a send the account cannot pay before anyone is asked', async () => {
    const { handle, shown } = setup()
    const [address] = (await handle({ method: 'eth_accounts' })) as Address[]
    const error = await handle({ method: 'eth_sendTransaction', params: [{ from: address, to: seeded.devAccounts[1], value: `0x${parseEther('1').toString(16)}` }] }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'INSUFFICIENT_FUNDS' })
    expect(shown).toEqual([])
  })

  it('sends eth_sendTransaction as one UserOperation that deploys the account; the answer is the transaction hash', async () => {
    const { handle, shown, smartAccounts, client } = setup()
    const [address] = (await handle({ method: 'eth_accounts' })) as Address[]
    await chain().setBalance({ address: address!, value: parseEther('1') })
    const receiver = privateKeyToAccount(generatePrivateKey()).address
    const hash = (await handle({ method: 'eth_sendTransaction', params: [{ from: address, to: receiver, value: `0x${parseEther('0.1').toString(16)}` }] })) as Hex
    expect(shown[0]).toMatchObject({ kind: 'sendTransaction', account: address, accountType: 'smartAccount', to: receiver, amount: '0.1', fee: { payer: 'account', sponsorRefused: undefined, sponsorUnreachable: false } })
    expect(Number((shown[0] as { maxFee: string }).maxFee)).toBeGreaterThan(0)
    const receipt = await chain().getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(await chain().getBalance({ address: receiver })).toBe(parseEther('0.1'))
    expect((await smartAccounts.describe(network, client)).isDeployed).toBe(true)
  })

  it('sends wallet_sendCalls as one atomic operation, shown call by call; a batch whose second call reverts changes nothing', async () => {
    const { handle, shown } = setup()
    const [address] = (await handle({ method: 'eth_accounts' })) as Address[]
    const token = seeded.tokens[0]!.address
    await chain().setBalance({ address: address!, value: parseEther('1') })
    const funder = seeded.devAccounts[0]!
    await chain().impersonateAccount({ address: funder })
    await chain().waitForTransactionReceipt({ hash: await chain().writeContract({ account: funder, chain: null, address: token, abi: erc20Abi, functionName: 'transfer', args: [address!, 10_000_000n] }) })
    const [alice, bob] = [privateKeyToAccount(generatePrivateKey()).address, privateKeyToAccount(generatePrivateKey()).address]
    const transfer = (to: Address, amount: bigint) => ({ to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }) })

    const { id } = (await handle({ method: 'wallet_sendCalls', params: [{ version: '2.0.0', chainId: '0x7a69', from: address, atomicRequired: true, calls: [transfer(alice, 1_000_000n), transfer(bob, 2_000_000n)] }] })) as { id: Hex }
    expect(shown[0]).toMatchObject({ kind: 'sendCalls', atomic: true, accountType: 'smartAccount', calls: [{ to: token, token: { action: 'transfer', counterparty: alice } }, { to: token, token: { action: 'transfer', counterparty: bob } }] })
    let status: { status: number; atomic: boolean; receipts?: { transactionHash: Hex }[] }
    for (;;) {
      status = (await handle({ method: 'wallet_getCallsStatus', params: [id] })) as typeof status
      if (status.status !== 100) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(status).toMatchObject({ status: 200, atomic: true })
    expect(status.receipts).toHaveLength(1)
    const read = (who: Address) => createPublicClient({ transport: http(anvil.rpcUrl) }).readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] })
    expect([await read(alice), await read(bob)]).toEqual([1_000_000n, 2_000_000n])

    const before = await read(address!)
    const error = await handle({ method: 'wallet_sendCalls', params: [{ version: '2.0.0', chainId: '0x7a69', calls: [transfer(alice, 1n), transfer(bob, 10n ** 30n)] }] }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'CALL_WOULD_FAIL', params: { index: 2, count: 2, reason: 'DemoToken: transfer amount exceeds balance' } })
    expect((error as Error).message).toBe('Call 2 of 2 would fail (DemoToken: transfer amount exceeds balance): nothing was sent')
    expect(shown).toHaveLength(1)
    expect([await read(address!), await read(alice)]).toEqual([before, 1_000_000n])
  }, 30_000)

  describe('an operation mined seconds after the block its gas was estimated on', () => {
    const routerAbi = uniswapV2Artifacts.router02.abi
    const tusd = () => seeded.tokens.find((t) => t.symbol === 'TUSD')!.address
    const tusdOf = (who: Address) => chain().readContract({ address: tusd(), abi: erc20Abi, functionName: 'balanceOf', args: [who] })
    /** A dev account trades ETH for TUSD in the latest block; the next block comes 5 s after it. */
    const tradeThenWait = async () => {
      const trader = seeded.devAccounts[7]!
      const deadline = BigInt(Math.floor(Date.now() / 1_000) + 600)
      const args = [0n, [seeded.uniswapV2.weth, tusd()], trader, deadline] as const
      const hash = await chain().writeContract({ account: trader, chain: null, address: seeded.uniswapV2.router, abi: routerAbi, functionName: 'swapExactETHForTokens', args, value: parseEther('0.01'), gas: 175_000n })
      const { timestamp } = await chain().getBlock({ blockNumber: (await chain().waitForTransactionReceipt({ hash })).blockNumber })
      await chain().setNextBlockTimestamp({ timestamp: timestamp + 5n })
      return timestamp
    }
    const swapFrom = (address: Address, deadline: bigint) => ({
      from: address,
      to: seeded.uniswapV2.router,
      data: encodeFunctionData({ abi: routerAbi, functionName: 'swapExactETHForTokens', args: [0n, [seeded.uniswapV2.weth, tusd()], address, deadline] }),
      value: `0x${parseEther('0.01').toString(16)}`,
    })

    it('swaps in a pool the latest block traded in: the gas has room for the writes a later second makes in it', async () => {
      const { handle } = setup()
      const [address] = (await handle({ method: 'eth_accounts' })) as Address[]
      await chain().setBalance({ address: address!, value: parseEther('1') })
      for (let round = 0; round < 2; round++) {
        const before = await tusdOf(address!)
        await tradeThenWait()
        const hash = (await handle({ method: 'eth_sendTransaction', params: [swapFrom(address!, BigInt(Math.floor(Date.now() / 1_000) + 600))] })) as Hex
        expect((await chain().getTransactionReceipt({ hash })).status).toBe('success')
        expect(await tusdOf(address!)).toBeGreaterThan(before)
      }
    }, 30_000)

    it('the account of the key itself (eoa) gives a contract call the site gave no gas for the same room over the node\'s estimate, and a plain transfer none', async () => {
      const { handle, smartAccounts } = setup()
      smartAccounts.setPreferredType('eoa')
      const { address } = vault.keys().eip155
      await chain().setBalance({ address, value: parseEther('1') })
      const swap = swapFrom(address, BigInt(Math.floor(Date.now() / 1_000) + 600))
      const estimated = await chain().estimateGas({ account: address, to: swap.to, data: swap.data, value: parseEther('0.01') })
      const swapped = (await handle({ method: 'eth_sendTransaction', params: [swap] })) as Hex
      expect((await chain().getTransaction({ hash: swapped })).gas).toBe(withGasRoom(estimated))
      expect(withGasRoom(estimated) - estimated).toBeGreaterThan(44_200n)
      const sent = (await handle({ method: 'eth_sendTransaction', params: [{ from: address, to: seeded.devAccounts[1], value: '0x1' }] })) as Hex
      expect((await chain().getTransaction({ hash: sent })).gas).toBe(21_000n)
    }, 30_000)

    it('answers a call that reverts in the block it lands in with EXECUTION_REVERTED, not with the hash of the bundle', async () => {
      const { handle } = setup()
      const [address] = (await handle({ method: 'eth_accounts' })) as Address[]
      await chain().setBalance({ address: address!, value: parseEther('1') })
      const before = await tusdOf(address!)
      // The swap's deadline has passed by the block it lands in, not on the block its gas was estimated on.
      const estimatedAt = await tradeThenWait()
      const error = await handle({ method: 'eth_sendTransaction', params: [swapFrom(address!, estimatedAt + 2n)] }).catch((e: unknown) => e)
      expect(error).toMatchObject({ code: 'EXECUTION_REVERTED', shortMessage: 'Execution reverted for an unknown reason.' })
      expect((error as Error).message).toMatch(/Details: the operation landed in transaction 0x[0-9a-f]{64} and reverted: nothing of it was applied$/)
      expect(await tusdOf(address!)).toBe(before)
    }, 30_000)
  })

  it('asks nothing of the bundler when the person declines', async () => {
    const { handle, shown } = setup({ isApproved: false })
    const [address] = (await handle({ method: 'eth_accounts' })) as Address[]
    const nonce = await chain().readContract({ address: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108', abi: [{ type: 'function', name: 'getNonce', stateMutability: 'view', inputs: [{ type: 'address' }, { type: 'uint192' }], outputs: [{ type: 'uint256' }] }], functionName: 'getNonce', args: [address!, 0n] })
    const error = await handle({ method: 'eth_sendTransaction', params: [{ from: address, to: seeded.devAccounts[1], value: '0x1' }] }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'USER_REJECTED' })
    expect(shown).toHaveLength(1)
    expect(await chain().readContract({ address: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108', abi: [{ type: 'function', name: 'getNonce', stateMutability: 'view', inputs: [{ type: 'address' }, { type: 'uint192' }], outputs: [{ type: 'uint256' }] }], functionName: 'getNonce', args: [address!, 0n] })).toBe(nonce)
  })
})
