import { ParsedMessage } from '@spruceid/siwe-parser'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createApiApp } from '../../../services/api/app'
import { openDatabase, type Database } from '../../../services/api/db/createDatabase'
import { createWidgetError } from '../../shared/protocol/errors'
import { createDataServiceClient } from '../../worker/services/createDataServiceClient'
import type { CoreDataService } from '../core/createCore'
import { createMemoryStorage, createWidgetStorage, type WidgetStorage } from '../storage/createWidgetStorage'
import { parseCaipNetworkId } from '../../shared/protocol/caip'
import { loadAdapter } from '../families/loadAdapter'
import { parseSolanaSignInMessage } from '../../shared/families/solana/signInMessage'
import { createDefaultSiwx } from './siwx'

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const
const other = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const
const NOW = Date.parse('2026-11-22T12:00:00Z')

describe('default SIWX', () => {
  const setup = (dataService: Partial<CoreDataService> = {}, storage: WidgetStorage = createWidgetStorage({ storage: createMemoryStorage() })) =>
    createDefaultSiwx({
      dataService: dataService as CoreDataService,
      // Each family's format, from its adapter as the widget loads it.
      createSignInMessage: async (fields) => (await (await loadAdapter(parseCaipNetworkId(fields.caipNetworkId)!.namespace)).loadSignInMessage())(fields),
      storage,
      location: { host: 'dapp.test', origin: 'https://dapp.test' },
      now: () => NOW,
    })
  /** A data service that makes session sN for each sign-in, and says every one it made is valid until revoked. */
  const memoryService = () => {
    const revoked = new Set<string>()
    let made = 0
    return {
      revoked,
      createSession: vi.fn(async ({ message }: { message: string; signature: string }) => ({ id: `s${++made}`, caipAddress: message, expiresAt: null, revoked: false })),
      getSession: vi.fn(async ({ id }: { id: string }) => ({ id, caipAddress: '', expiresAt: null, revoked: revoked.has(id) })),
      revokeSession: vi.fn(async ({ id }: { id: string; pci: string; signature: string }) => void revoked.add(id)),
    }
  }
  const on = (accountAddress: string, caipNetworkId: string) => ({ accountAddress: accountAddress as typeof address, caipNetworkId, chainId: Number(caipNetworkId.split(':')[1]) || 0 })

  it('writes EIP-4361 messages that the siwe package’s parser accepts, with the nonce the data service issued', async () => {
    const nonce = 'f00d'.repeat(19)
    const message = await setup({ createSessionNonce: async () => ({ nonce, expiresAt: 0 }) }).createMessage({ accountAddress: address, chainId: 31337, caipNetworkId: 'eip155:31337' })
    const parsed = new ParsedMessage(message)
    expect(parsed).toMatchObject({ domain: 'dapp.test', address, uri: 'https://dapp.test', version: '1', chainId: 31337, statement: 'Sign in with your wallet.', nonce })
    expect(parsed.expirationTime).toBe('2026-11-23T12:00:00.000Z')
  })

  it('writes a Sign In With Solana message for a Solana account, naming the cluster as SIWS does', async () => {
    const nonce = 'beef'.repeat(19)
    const solanaAddress = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin'
    const siwx = setup({ createSessionNonce: async () => ({ nonce, expiresAt: 0 }) })
    const devnet = await siwx.createMessage({ accountAddress: solanaAddress as never, chainId: 0, caipNetworkId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' })
    expect(parseSolanaSignInMessage(devnet)).toMatchObject({ ok: true, fields: { domain: 'dapp.test', address: solanaAddress, uri: 'https://dapp.test', chainId: 'devnet', nonce } })
    const local = await siwx.createMessage({ accountAddress: solanaAddress as never, chainId: 0, caipNetworkId: 'solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3' })
    expect(parseSolanaSignInMessage(local)).toMatchObject({ ok: true, fields: { chainId: 'localnet' } })
  })

  it('stores sessions through the data service and trusts only those it still knows', async () => {
    const createSession = vi.fn().mockResolvedValue({ id: 's1', caipAddress: `eip155:31337:${address}`, expiresAt: null, revoked: false })
    let revoked = false
    const getSession = vi.fn(async () => ({ id: 's1', caipAddress: '', expiresAt: null, revoked }))
    const siwx = setup({ createSession, getSession } as never)
    await siwx.addSession({ caipAddress: `eip155:31337:${address}`, message: 'm', signature: '0xs' })
    expect(createSession).toHaveBeenCalledWith({ message: 'm', signature: '0xs' })
    expect(await siwx.getSessions({ accountAddress: address, chainId: 31337, caipNetworkId: 'eip155:31337' })).toHaveLength(1)
    expect(await siwx.getSessions({ accountAddress: address, chainId: 1, caipNetworkId: 'eip155:1' })).toHaveLength(0)
    revoked = true
    expect(await siwx.getSessions({ accountAddress: address, chainId: 31337, caipNetworkId: 'eip155:31337' })).toHaveLength(0)
  })

  it.each([
    ['the same account on the same network', on(address, 'eip155:31337'), 1],
    ['the same EVM account written in lower case', on(address.toLowerCase(), 'eip155:31337'), 1],
    ['another account on that network', on(other, 'eip155:31337'), 0],
    ['the same account on another network', on(address, 'eip155:1'), 0],
    ['another account on another network', on(other, 'eip155:1'), 0],
  ])('counts a session for A on chain 31337 for %s: %i', async (_name, account, count) => {
    const siwx = setup(memoryService() as never)
    await siwx.addSession({ caipAddress: `eip155:31337:${address}`, message: 'm', signature: '0xs' })
    expect(await siwx.getSessions(account)).toHaveLength(count)
  })

  it('tells Solana addresses apart by case, as base58 does', async () => {
    const siwx = setup(memoryService() as never)
    const solanaAddress = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin'
    const devnet = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
    await siwx.addSession({ caipAddress: `${devnet}:${solanaAddress}`, message: 'm', signature: 's' })
    expect(await siwx.getSessions(on(solanaAddress, devnet))).toHaveLength(1)
    expect(await siwx.getSessions(on(solanaAddress.toLowerCase(), devnet))).toHaveLength(0)
  })

  it('signs out: forgets the account’s session on that network and revokes it at the service with its own sign-in signature', async () => {
    const service = memoryService()
    const storage = createWidgetStorage({ storage: createMemoryStorage() })
    const siwx = setup(service as never, storage)
    await siwx.addSession({ caipAddress: `eip155:31337:${address}`, message: 'a', signature: '0xa' })
    await siwx.addSession({ caipAddress: `eip155:1:${address}`, message: 'a1', signature: '0xa1' })
    await siwx.addSession({ caipAddress: `eip155:31337:${other}`, message: 'b', signature: '0xb' })
    await siwx.revokeSession(on(address, 'eip155:31337'))
    expect(service.revokeSession.mock.calls).toEqual([[{ id: 's1', pci: 's1', signature: '0xa' }]])
    expect(storage.get('siwxSessions')?.map((s) => s.caipAddress)).toEqual([`eip155:1:${address}`, `eip155:31337:${other}`])
    expect(await siwx.getSessions(on(address, 'eip155:31337'))).toHaveLength(0)
    expect(await siwx.getSessions(on(address, 'eip155:1'))).toHaveLength(1)
    expect(await siwx.getSessions(on(other, 'eip155:31337'))).toHaveLength(1)
  })

  it('forgets the session even when the service cannot be told, and says so', async () => {
    const service = { ...memoryService(), revokeSession: vi.fn().mockRejectedValue(createWidgetError('SERVICE_UNREACHABLE')) }
    const storage = createWidgetStorage({ storage: createMemoryStorage() })
    const siwx = setup(service as never, storage)
    await siwx.addSession({ caipAddress: `eip155:31337:${address}`, message: 'a', signature: '0xa' })
    await expect(siwx.revokeSession(on(address, 'eip155:31337'))).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
    expect(storage.get('siwxSessions')).toEqual([])
  })

  it('revokes the session a new sign-in replaces: once forgotten, nobody could', async () => {
    const service = memoryService()
    const siwx = setup(service as never)
    await siwx.addSession({ caipAddress: `eip155:31337:${address}`, message: 'a', signature: '0xa' })
    await siwx.addSession({ caipAddress: `eip155:31337:${address.toLowerCase()}`, message: 'a2', signature: '0xa2' })
    expect(service.revokeSession.mock.calls).toEqual([[{ id: 's1', pci: 's1', signature: '0xa' }]])
    expect(await siwx.getSessions(on(address, 'eip155:31337'))).toMatchObject([{ id: 's2' }])
  })

  describe('with the real data service, through the worker’s client', () => {
    let db: Database
    beforeAll(async () => void (db = await openDatabase({})))
    afterAll(() => db.close())

    it('signs in, is valid, signs out: the service reports the session revoked and it no longer counts', async () => {
      const app = createApiApp({ db, chains: [], projects: [{ id: 'site', allowedOrigins: ['https://dapp.test'] }], now: () => NOW, log: () => {} })
      const dataService = createDataServiceClient({ baseUrl: 'http://api.test', projectId: 'site', sdkVersion: 'react-0.2.0', fetch: ((input: string, init?: RequestInit) => app.request(input, init)) as typeof fetch })
      const siwx = setup(dataService as unknown as CoreDataService)
      // anvil's dev account 0 signs, as the dev wallet would.
      const wallet = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
      const account = on(wallet.address, 'eip155:31337')
      const message = await siwx.createMessage(account)
      await siwx.addSession({ caipAddress: `eip155:31337:${wallet.address}`, message, signature: await wallet.signMessage({ message }) })
      const [session] = await siwx.getSessions(account)
      expect(session).toMatchObject({ id: expect.any(String) })
      expect(await siwx.getSessions(on(wallet.address, 'eip155:31338'))).toEqual([])

      await siwx.revokeSession(account)
      expect(await dataService.getSession({ id: session!.id! })).toMatchObject({ revoked: true })
      expect(await siwx.getSessions(account)).toEqual([])
    })
  })
})
