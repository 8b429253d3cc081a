import { ParsedMessage } from '@spruceid/siwe-parser'
import { describe, expect, it, vi } from 'vitest'
import type { CoreDataService } from '../core/createCore'
import { createMemoryStorage, createWidgetStorage } from '../storage/createWidgetStorage'
import { parseCaipNetworkId } from '../../shared/protocol/caip'
import { loadAdapter } from '../namespaces/loadAdapter'
import { parseSolanaSignInMessage } from '../../shared/protocol/signInMessages/solana'
import { createDefaultSiwx } from './siwx'

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const

describe('default SIWX', () => {
  const setup = (dataService: Partial<CoreDataService> = {}) =>
    createDefaultSiwx({
      dataService: dataService as CoreDataService,
      // Each family's format, from its adapter as the widget loads it.
      createSignInMessage: async (fields) => (await (await loadAdapter(parseCaipNetworkId(fields.caipNetworkId)!.namespace)).loadSignInMessage())(fields),
      storage: createWidgetStorage({ storage: createMemoryStorage() }),
      location: { host: 'dapp.test', origin: 'https://dapp.test' },
      now: () => Date.parse('2026-11-22T12:00:00Z'),
    })

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
})
