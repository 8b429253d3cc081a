import { readFileSync } from 'node:fs'
import { createPublicClient, erc20Abi, http, parseAbi } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from './anvil'
import { artifactsPath, compileContracts } from './compileContracts'
import { demoTokens, MULTICALL3_ADDRESS, seedChain, type SeededChain } from './seedChain'
import { freePorts } from '../stack/ports'

describe('contract artifacts', () => {
  it('match the Solidity sources (run `npm run build:contracts` after editing them)', () => {
    expect(JSON.parse(readFileSync(artifactsPath, 'utf8'))).toEqual(compileContracts())
  })
})

describe('a seeded anvil chain', () => {
  let anvil: Anvil
  let seeded: SeededChain
  beforeAll(async () => {
    anvil = await startAnvil({ port: (await freePorts()).anvil, chainId: 31337 })
    seeded = await seedChain({ rpcUrl: anvil.rpcUrl })
  })
  afterAll(() => anvil.stop())

  it('has Multicall3 at its canonical address', async () => {
    const client = createPublicClient({ transport: http(anvil.rpcUrl) })
    const chainId = await client.readContract({
      address: MULTICALL3_ADDRESS,
      abi: parseAbi(['function getChainId() view returns (uint256)']),
      functionName: 'getChainId',
    })
    expect(chainId).toBe(31337n)
  })

  it('has the two demo tokens, 6 and 18 decimals, minted to every dev account', async () => {
    const client = createPublicClient({ transport: http(anvil.rpcUrl) })
    expect(seeded.devAccounts).toHaveLength(10)
    expect(seeded.tokens.map((t) => t.decimals)).toEqual([6, 18])
    for (const [i, token] of seeded.tokens.entries()) {
      const contract = { address: token.address, abi: erc20Abi } as const
      const decimals = await client.readContract({ ...contract, functionName: 'decimals' })
      const balances = await client.multicall({
        multicallAddress: MULTICALL3_ADDRESS,
        allowFailure: false,
        contracts: seeded.devAccounts.map((account) => ({ ...contract, functionName: 'balanceOf', args: [account] }) as const),
      })
      expect(decimals).toBe(token.decimals)
      expect(balances).toEqual(seeded.devAccounts.map(() => demoTokens[i]!.amountEach))
    }
  })

  it('stops: the process exits and the port no longer answers', async () => {
    const other = await startAnvil({ port: (await freePorts()).anvil, chainId: 1 })
    await other.stop()
    expect(other.process.exitCode !== null || other.process.signalCode !== null).toBe(true)
    await expect(fetch(other.rpcUrl, { method: 'POST' })).rejects.toThrow()
  })
})
