import { readFileSync } from 'node:fs'
import { createConnection } from 'node:net'
import { createTestClient, http, parseEther, publicActions, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createBundlerClient } from 'viem/account-abstraction'
import { toTesseraAccount } from '../../src/frame/smartAccount/toTesseraAccount'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { canonicalAccountAbstractionAddresses, deployAccountAbstraction, tesseraAccountFactoryAddress } from './accountAbstraction'
import { startAnvil, type Anvil } from './anvil'
import { startBundler } from './bundler'
import { freePorts } from '../stack/ports'

/** The local addresses listening on `port` over IPv4 and IPv6 (Linux's /proc/net tables), e.g. ['127.0.0.1']. */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0')
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
    readFileSync(table, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A')
      .map(([, local]) => {
        const address = local!.split(':')[0]!
        if (address.length !== 8) return address === '00000000000000000000000000000000' ? '::' : address
        return (address.match(/../g) ?? []).reverse().map((byte) => parseInt(byte, 16)).join('.')
      }),
  )
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
    expect(addresses).toEqual({ ...canonicalAccountAbstractionAddresses, tesseraAccountFactory: tesseraAccountFactoryAddress })
    expect(deployedNow).toHaveLength(6)
    for (const address of Object.values(addresses)) expect((await client().getCode({ address }))?.length).toBeGreaterThan(2)

    const blockNumber = await client().getBlockNumber()
    expect(await deployAccountAbstraction({ rpcUrl: anvil.rpcUrl })).toEqual({ ...addresses, deployedNow: [] })
    expect(await client().getBlockNumber()).toBe(blockNumber)
  })

  it('bundles a two-call UserOperation from a new TesseraAccount through Alto, whose signatures verify before (ERC-6492) and after (ERC-1271) it is deployed; then stops Alto', async () => {
    await deployAccountAbstraction({ rpcUrl: anvil.rpcUrl })
    let started = performance.now()
    const bundler = await startBundler({ rpcUrl: anvil.rpcUrl, port: bundlerPort, entryPoints: [canonicalAccountAbstractionAddresses.entryPoint08, canonicalAccountAbstractionAddresses.entryPoint07] })
    console.info(`startBundler ready: ${Math.round(performance.now() - started)} ms`)
    expect(listeningAddresses(bundlerPort)).toEqual(['127.0.0.1'])
    try {
      const chainClient = createTestClient({ mode: 'anvil', chain: { id: 31337, name: 'anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [anvil.rpcUrl] } } }, transport: http(anvil.rpcUrl), pollingInterval: 50 })
      const owner = privateKeyToAccount(generatePrivateKey())
      const account = await toTesseraAccount({ client: chainClient, owner, factoryAddress: tesseraAccountFactoryAddress })
      await chainClient.setBalance({ address: account.address, value: parseEther('1') })
      expect(await client().getCode({ address: account.address })).toBeUndefined()
      const counterfactual = await account.signMessage({ message: 'before' })
      expect(await client().verifyMessage({ address: account.address, message: 'before', signature: counterfactual })).toBe(true)
      expect(await client().verifyMessage({ address: account.address, message: 'other', signature: counterfactual })).toBe(false)
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
      const deployed = await account.signMessage({ message: 'after' })
      expect(deployed).toBe(await owner.signMessage({ message: 'after' }))
      expect(await client().verifyMessage({ address: account.address, message: 'after', signature: deployed })).toBe(true)
      const stranger = await privateKeyToAccount(generatePrivateKey()).signMessage({ message: 'after' })
      expect(await client().verifyMessage({ address: account.address, message: 'after', signature: stranger })).toBe(false)
    } finally {
      await bundler.stop()
    }
    expect(await isListening(bundlerPort)).toBe(false)
  }, 30_000)
})
