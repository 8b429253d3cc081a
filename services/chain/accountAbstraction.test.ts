import { createConnection } from 'node:net'
import { createTestClient, encodeFunctionData, http, parseEther, publicActions, type Address, type Chain, type Client, type Hex, type JsonRpcAccount, type LocalAccount, type Transport } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createBundlerClient, entryPoint08Abi, entryPoint08Address, getUserOperationHash, toSmartAccount } from 'viem/account-abstraction'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountAbstractionArtifacts, canonicalAccountAbstractionAddresses, deployAccountAbstraction } from './accountAbstraction'
import { startAnvil, type Anvil } from './anvil'
import { startBundler } from './bundler'
import { freePorts } from '../stack/ports'

const { simpleAccount08, simpleAccountFactory08 } = accountAbstractionArtifacts

/**
 * A SimpleAccount (v0.8) from the factory we deploy, as viem's toSmartAccount sees it. (viem ships no SimpleAccount of
 * its own; permissionless's toSimpleSmartAccount would pull in a second `ox`.) v0.8's account checks a plain ECDSA
 * signature over the EIP-712 userOpHash, and its executeBatch takes (target, value, data) tuples.
 */
function toSimpleAccount08({ client, owner }: { client: Client<Transport, Chain, JsonRpcAccount | LocalAccount | undefined>; owner: LocalAccount }) {
  const factory = canonicalAccountAbstractionAddresses.simpleAccountFactory08
  let address: Address | undefined
  return toSmartAccount({
    client,
    entryPoint: { abi: entryPoint08Abi, address: entryPoint08Address, version: '0.8' },
    async getAddress() {
      address ??= (await publicActions(client).readContract({ address: factory, abi: simpleAccountFactory08.abi, functionName: 'getAddress', args: [owner.address, 0n] })) as Address
      return address
    },
    async getFactoryArgs() {
      return { factory, factoryData: encodeFunctionData({ abi: simpleAccountFactory08.abi, functionName: 'createAccount', args: [owner.address, 0n] }) }
    },
    async encodeCalls(calls) {
      return encodeFunctionData({
        abi: simpleAccount08.abi,
        functionName: 'executeBatch',
        args: [calls.map(({ to, value = 0n, data = '0x' }) => ({ target: to, value, data }))],
      })
    },
    async getStubSignature() {
      return '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c'
    },
    async signUserOperation({ chainId = client.chain.id, ...userOperation }) {
      const hash = getUserOperationHash({ chainId, entryPointAddress: entryPoint08Address, entryPointVersion: '0.8', userOperation: { ...userOperation, sender: await this.getAddress() } })
      return owner.sign!({ hash })
    },
    async signMessage() {
      throw new Error('not needed here')
    },
    async signTypedData() {
      throw new Error('not needed here')
    },
  })
}

const isListening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' })
    socket.once('connect', () => resolve(true)).once('error', () => resolve(false))
    socket.once('connect', () => socket.destroy())
  })

describe('ERC-4337 on a local anvil chain', () => {
  let anvil: Anvil
  let bundlerPort: number
  beforeAll(async () => {
    const ports = await freePorts()
    // (The stack has no bundler port yet: borrow the second anvil's, which this test does not start.)
    bundlerPort = ports.anvil2
    anvil = await startAnvil({ port: ports.anvil, chainId: 31337 })
  })
  afterAll(() => anvil.stop())
  const client = () => createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl), pollingInterval: 50 }).extend(publicActions)

  it('puts the EntryPoints, factories and Simple7702Account at their canonical addresses, once', async () => {
    const started = performance.now()
    const deployed = await deployAccountAbstraction({ rpcUrl: anvil.rpcUrl })
    console.info(`deployAccountAbstraction: ${Math.round(performance.now() - started)} ms`)
    const { deployedNow, ...addresses } = deployed
    expect(addresses).toEqual(canonicalAccountAbstractionAddresses)
    expect(deployedNow).toHaveLength(5)
    for (const address of Object.values(addresses)) expect((await client().getCode({ address }))?.length).toBeGreaterThan(2)

    const blockNumber = await client().getBlockNumber()
    expect(await deployAccountAbstraction({ rpcUrl: anvil.rpcUrl })).toEqual({ ...addresses, deployedNow: [] })
    expect(await client().getBlockNumber()).toBe(blockNumber)
  })

  it('bundles a two-call UserOperation from a new SimpleAccount (v0.8) through Alto, then stops Alto', async () => {
    await deployAccountAbstraction({ rpcUrl: anvil.rpcUrl })
    let started = performance.now()
    const bundler = await startBundler({ rpcUrl: anvil.rpcUrl, port: bundlerPort, entryPoints: [canonicalAccountAbstractionAddresses.entryPoint08, canonicalAccountAbstractionAddresses.entryPoint07] })
    console.info(`startBundler ready: ${Math.round(performance.now() - started)} ms`)
    try {
      const chainClient = createTestClient({ mode: 'anvil', chain: { id: 31337, name: 'anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [anvil.rpcUrl] } } }, transport: http(anvil.rpcUrl), pollingInterval: 50 })
      const account = await toSimpleAccount08({ client: chainClient, owner: privateKeyToAccount(generatePrivateKey()) })
      await chainClient.setBalance({ address: account.address, value: parseEther('1') })
      expect(await client().getCode({ address: account.address })).toBeUndefined()
      const [alice, bob] = [privateKeyToAccount(generatePrivateKey()).address, privateKeyToAccount(generatePrivateKey()).address]

      const bundlerClient = createBundlerClient({ account, client: chainClient, transport: http(bundler.url), pollingInterval: 50 })
      started = performance.now()
      const hash: Hex = await bundlerClient.sendUserOperation({ calls: [{ to: alice, value: parseEther('0.01') }, { to: bob, value: parseEther('0.02') }] })
      const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, pollingInterval: 50, timeout: 10_000 })
      console.info(`UserOperation round trip: ${Math.round(performance.now() - started)} ms`)

      expect(receipt.success).toBe(true)
      expect(await client().getBalance({ address: alice })).toBe(parseEther('0.01'))
      expect(await client().getBalance({ address: bob })).toBe(parseEther('0.02'))
      expect((await client().getCode({ address: account.address }))?.length).toBeGreaterThan(2)
    } finally {
      await bundler.stop()
    }
    expect(await isListening(bundlerPort)).toBe(false)
  }, 30_000)
})
