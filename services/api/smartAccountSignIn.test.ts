import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createTestClient, createWalletClient, http, parseEther, publicActions, type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { SmartAccount } from 'viem/account-abstraction'
import { foundry } from 'viem/chains'
import { createSiweMessage } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tesseraAccountFactoryAbi, toTesseraAccount } from '../../src/frame/smartAccount/toTesseraAccount'
import { deployAccountAbstraction, tesseraAccountFactoryAddress } from '../chain/accountAbstraction'
import { startAnvil, type Anvil } from '../chain/anvil'
import { freePorts } from '../stack/ports'
import { createApiApp } from './app'
import type { ServiceChain } from './config'
import { openDatabase, type Database } from './db/createDatabase'
import { createEvmSignatureVerifier } from './routes/signInMessage'

// anvil's well-known dev key (account 1): a person with a key.
const alice = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
/** Whoever pays to deploy an account (anyone may): a key of its own, given ether in beforeAll. */
const deployer = privateKeyToAccount(generatePrivateKey())
const SITE = 'https://dapp.test'
/** The suffix of every ERC-6492 signature (its magic bytes). */
const ERC6492_SUFFIX = '6492'.repeat(16)
/** Chains the service knows besides the local one: a node nobody listens for, one that never answers, one that refuses. */
const DOWN = 31_338
const SILENT = 31_339
const LIMITED = 31_340
const BROKEN = 31_341
const RPC_TIMEOUT_MS = 300

const chain = (chainId: number, name: string, rpcUrl: string): ServiceChain => ({
  chainId,
  name,
  rpcUrl,
  multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  tokens: [],
})

/** A node that answers nothing (it holds every request), `limit exceeded` (JSON-RPC -32005), or HTTP 500, by path. */
const startFaultyNode = () =>
  new Promise<Server>((resolve) => {
    const server = createServer((request, response) => {
      request.resume()
      request.on('end', () => {
        if (request.url === '/silent') return
        if (request.url === '/broken') return void response.writeHead(500).end('upstream failed')
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: 0, error: { code: -32005, message: 'limit exceeded' } }))
      })
    })
    server.listen(0, '127.0.0.1', () => resolve(server))
  })

describe('sign-in and name registration with a smart account (TesseraAccount: ERC-6492 before deployment, ERC-1271 after)', () => {
  let anvil: Anvil
  let faultyNode: Server
  let db: Database
  let app: ReturnType<typeof createApiApp>
  const logged: string[] = []
  const chainClient = () => createTestClient({ chain: foundry, mode: 'anvil', transport: http(anvil.rpcUrl) }).extend(publicActions)
  /** A new owner's TesseraAccount on the local chain, not deployed. */
  const newAccount = async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    return { owner, account: await toTesseraAccount({ client: chainClient(), owner, factoryAddress: tesseraAccountFactoryAddress }) }
  }
  /** What anyone may do: the factory's createAccount(owner, 0), paid by the deployer. */
  const deploy = async (owner: Address) => {
    const hash = await createWalletClient({ account: deployer, chain: foundry, transport: http(anvil.rpcUrl) }).writeContract({
      address: tesseraAccountFactoryAddress,
      abi: tesseraAccountFactoryAbi,
      functionName: 'createAccount',
      args: [owner, 0n],
    })
    await chainClient().waitForTransactionReceipt({ hash })
  }

  beforeAll(async () => {
    const ports = await freePorts()
    anvil = await startAnvil({ port: ports.anvil, chainId: 31337 })
    await deployAccountAbstraction({ rpcUrl: anvil.rpcUrl })
    await chainClient().setBalance({ address: deployer.address, value: parseEther('10') })
    faultyNode = await startFaultyNode()
    const faulty = `http://127.0.0.1:${(faultyNode.address() as AddressInfo).port}`
    // ports.anvil2 was free and nothing here starts on it: a node that is down.
    const chains = [
      chain(31337, 'Tessera Local', anvil.rpcUrl),
      chain(DOWN, 'Tessera Down', `http://127.0.0.1:${ports.anvil2}`),
      chain(SILENT, 'Tessera Silent', `${faulty}/silent`),
      chain(LIMITED, 'Tessera Limited', `${faulty}/limited`),
      chain(BROKEN, 'Tessera Broken', `${faulty}/broken`),
    ]
    db = await openDatabase({})
    app = createApiApp({
      db,
      chains,
      projects: [{ id: 'site', allowedOrigins: [SITE] }],
      evmSignatureVerifier: createEvmSignatureVerifier({ chains, rpcTimeoutMs: RPC_TIMEOUT_MS }),
      log: (line) => void logged.push(line),
    })
  })
  afterAll(async () => {
    faultyNode?.closeAllConnections()
    await new Promise((resolve) => faultyNode?.close(resolve))
    await db?.close()
    await anvil?.stop()
  })

  const call = (path: string, body?: unknown) =>
    app.request(`${path}?projectId=site`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', origin: SITE },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const answer = async (response: Response) => ({ status: response.status, body: (await response.json()) as { id: string; caipAddress: string; error: { code: string; message: string; field: string } } })
  const message = async (address: Address, chainId = 31337) =>
    createSiweMessage({
      address,
      chainId,
      domain: 'dapp.test',
      uri: SITE,
      version: '1',
      nonce: ((await (await call('/v1/sessions/nonce', {})).json()) as { nonce: string }).nonce,
      issuedAt: new Date(),
      expirationTime: new Date(Date.now() + 3_600_000),
    })
  const signIn = async (text: string, signature: Hex) => answer(await call('/v1/sessions', { message: text, signature }))
  const refusedSignature = { status: 401, body: { error: { code: 'INVALID_SIGNATURE', message: 'The signature was not made by the message’s address', field: 'signature' } } }

  describe('sessions (EIP-4361)', () => {
    it('makes a session from a TesseraAccount’s signature before it is deployed (ERC-6492) and after (ERC-1271), and revokes it with one', async () => {
      const { owner, account } = await newAccount()
      expect(await chainClient().getCode({ address: account.address })).toBeUndefined()
      const before = await message(account.address)
      const counterfactual = await account.signMessage({ message: before })
      expect(counterfactual.endsWith(ERC6492_SUFFIX)).toBe(true)
      expect(await signIn(before, counterfactual)).toMatchObject({ status: 201, body: { caipAddress: `eip155:31337:${account.address}` } })

      await deploy(owner.address)
      expect((await chainClient().getCode({ address: account.address }))?.length).toBeGreaterThan(2)
      const after = await message(account.address)
      const deployed = await account.signMessage({ message: after })
      // The owner's plain signature, which only the account's isValidSignature (ERC-1271) can vouch for.
      expect(deployed).toBe(await owner.signMessage({ message: after }))
      const created = await signIn(after, deployed)
      expect(created).toMatchObject({ status: 201, body: { caipAddress: `eip155:31337:${account.address}` } })

      const { id } = created.body
      expect((await call(`/v1/sessions/${id}/revoke`, { pci: id, signature: await alice.signMessage({ message: `revoke:${id}` }) })).status).toBe(401)
      expect((await call(`/v1/sessions/${id}/revoke`, { pci: id, signature: await account.signMessage({ message: `revoke:${id}` }) })).status).toBe(200)
      expect(await (await call(`/v1/sessions/${id}`)).json()).toMatchObject({ revoked: true })
    })

    it('refuses a signature by anyone but the account’s owner, before and after deployment, without spending the nonce', async () => {
      const { owner, account } = await newAccount()
      const { account: other } = await newAccount()
      const text = await message(account.address)
      // Another account's ERC-6492 signature, a stranger's key, the owner's signature over other text.
      for (const signature of [await other.signMessage({ message: text }), await alice.signMessage({ message: text }), await account.signMessage({ message: `${text} ` })]) {
        expect(await signIn(text, signature)).toMatchObject(refusedSignature)
      }
      await deploy(owner.address)
      expect(await signIn(text, await alice.signMessage({ message: text }))).toMatchObject(refusedSignature)
      expect(await signIn(text, await other.signMessage({ message: text }))).toMatchObject(refusedSignature)
      expect((await signIn(text, await account.signMessage({ message: text }))).status).toBe(201)
    })

    it('refuses a smart account’s signature for a chain the service does not know, as any wrong signature; a key’s signs in there offline', async () => {
      const { account } = await newAccount()
      const text = await message(account.address, 999)
      expect(await signIn(text, await account.signMessage({ message: text }))).toMatchObject(refusedSignature)
      const eoa = await message(alice.address, 999)
      expect(await signIn(eoa, await alice.signMessage({ message: eoa }))).toMatchObject({ status: 201, body: { caipAddress: `eip155:999:${alice.address}` } })
    })

    it.each([
      ['is down', DOWN, 'Tessera Down'],
      ['never answers', SILENT, 'Tessera Silent'],
    ])('answers 503 naming the chain when its node %s, makes no session and spends no nonce; a key’s signature needs no node', async (_name, chainId, chainName) => {
      const { account } = await newAccount()
      const text = await message(account.address, chainId)
      const started = performance.now()
      const refused = await signIn(text, await account.signMessage({ message: text }))
      expect(refused).toMatchObject({ status: 503, body: { error: { code: 'CHAIN_UNREACHABLE', field: 'signature' } } })
      expect(refused.body.error.message).toBe(
        `The node of ${chainName} (chain ${chainId}) could not be reached to check the signature: a smart account’s signature is checked on its chain. Try again in a moment.`,
      )
      // Bounded: one request of at most the timeout, no retries (and the margin of a loaded machine).
      expect(performance.now() - started).toBeLessThan(RPC_TIMEOUT_MS + 2_000)
      expect(logged.at(-1)).toMatch(new RegExp(`^data service: POST /v1/sessions: The node of ${chainName} \\(chain ${chainId}\\) could not be reached to check the signature: `))
      // Still the nonce's first use: a key's signature over the same message signs in without asking the node.
      const eoa = text.replace(account.address, alice.address)
      expect(await signIn(eoa, await alice.signMessage({ message: eoa }))).toMatchObject({ status: 201, body: { caipAddress: `eip155:${chainId}:${alice.address}` } })
    })

    it.each([
      ['answers limit exceeded (JSON-RPC -32005)', LIMITED, 'Tessera Limited'],
      ['answers HTTP 500', BROKEN, 'Tessera Broken'],
    ])('answers 502 naming the chain when its node %s', async (_name, chainId, chainName) => {
      const { account } = await newAccount()
      const text = await message(account.address, chainId)
      const refused = await signIn(text, await account.signMessage({ message: text }))
      expect(refused).toMatchObject({ status: 502, body: { error: { code: 'CHAIN_INVALID_ANSWER', field: 'signature' } } })
      expect(refused.body.error.message).toMatch(new RegExp(`^The node of ${chainName} \\(chain ${chainId}\\) gave an answer that could not be used to check the signature`))
    })
  })

  describe('name registration', () => {
    const register = async (account: SmartAccount | typeof alice, name: string, { chainId, coinType = 60 }: { chainId?: number; coinType?: number } = {}) => {
      const text = JSON.stringify({ name, attributes: {}, timestamp: Math.floor(Date.now() / 1_000), coinType, ...(chainId === undefined ? {} : { chainId }) })
      return answer(await call('/v1/profile/account', { coin_type: coinType, address: account.address, message: text, signature: await account.signMessage({ message: text }) }))
    }
    const refusedName = { status: 401, body: { error: { code: 'INVALID_SIGNATURE', message: 'The signature was not made by this address', field: 'signature' } } }

    it('registers a name signed by a TesseraAccount on the chain its message names, before deployment (ERC-6492) and after (ERC-1271)', async () => {
      const { owner, account } = await newAccount()
      expect(await register(account, 'smart-before', { chainId: 31337 })).toMatchObject({ status: 200, body: { success: true } })
      await deploy(owner.address)
      expect(await register(account, 'smart-after', { chainId: 31337 })).toMatchObject({ status: 200, body: { success: true } })
      const names = (await (await call(`/v1/profile/reverse/${account.address}`)).json()) as { name: string }[]
      expect(names.map((n) => n.name)).toEqual(['smart-before.tessera.id', 'smart-after.tessera.id'])
    })

    it('refuses a smart account’s name on a chain the service does not know (coin type 60 alone means Ethereum, chain 1), and a stranger’s signature', async () => {
      const { account } = await newAccount()
      expect(await register(account, 'smart-ethereum')).toMatchObject(refusedName)
      expect(await register(account, 'smart-unknown', { chainId: 999 })).toMatchObject(refusedName)
      const text = JSON.stringify({ name: 'smart-stranger', attributes: {}, timestamp: Math.floor(Date.now() / 1_000), coinType: 60, chainId: 31337 })
      const forged = await call('/v1/profile/account', { coin_type: 60, address: account.address, message: text, signature: await alice.signMessage({ message: text }) })
      expect(await answer(forged)).toMatchObject(refusedName)
      // A key's signature is checked offline, whatever chain its message names.
      expect(await register(alice, 'alice-anywhere', { chainId: DOWN })).toMatchObject({ status: 200 })
    })

    it('answers 503 naming the chain when its node is down, and registers nothing', async () => {
      const { account } = await newAccount()
      const refused = await register(account, 'smart-down', { chainId: DOWN })
      expect(refused).toMatchObject({ status: 503, body: { error: { code: 'CHAIN_UNREACHABLE', field: 'signature' } } })
      expect(refused.body.error.message).toMatch(/^The node of Tessera Down \(chain 31338\) could not be reached to check the signature/)
      expect((await call('/v1/profile/account/smart-down')).status).toBe(404)
    })
  })
})
